import {
  decodeBudget,
  decodeFailed,
  decodeTimedOut,
  judgeBeforeMeasuring,
  judgeMeasured,
  spell,
  tooLong,
} from './sample-rules';

const sample = (index: number, seconds: number, rms: number, filename: string | null = `s${index + 1}.wav`) => ({
  index,
  filename,
  duration_ms: Math.round(seconds * 1000),
  rms_dbfs: rms,
});

describe('voice clone sample rules', () => {
  it('the plan comes first, then the number of samples', () => {
    expect(judgeBeforeMeasuring({ plan: 'starter', sampleCount: 5 })?.error_code).toBe('voice_clone_disabled_on_plan');
    expect(judgeBeforeMeasuring({ plan: 'pro', sampleCount: 2 })).toEqual({
      error_code: 'insufficient_samples',
      error_message: 'At least 3 samples of 30 seconds each are needed; 2 were uploaded.',
    });
    expect(judgeBeforeMeasuring({ plan: 'pro', sampleCount: 3 })).toBeNull();
  });

  it('every sample at least 30 s of audio, naming each one that is not', () => {
    expect(judgeMeasured([sample(0, 31, -20), sample(1, 10, -20), sample(2, 29.96, -20)])).toEqual({
      error_code: 'sample_too_short',
      error_message:
        'Samples 2 (s2.wav, 10.0 s) and 3 (s3.wav, 30.0 s) are shorter than 30 seconds of audio; ' +
        'at least 3 samples of 30 seconds each are needed.',
    });
    expect(judgeMeasured([sample(0, 30, -20), sample(1, 30, -20), sample(2, 30, -20)])).toBeNull();
  });

  it('then loud enough: RMS at least -40 dBFS', () => {
    const judged = judgeMeasured([sample(0, 31, -53), sample(1, 31, -40), sample(2, 31, -40.01, null)]);
    expect(judged?.error_code).toBe('sample_too_quiet');
    expect(judged?.error_message).toMatch(
      /^Samples 1 \(s1\.wav, RMS -53\.0 dBFS\) and 3 \(RMS -40\.0 dBFS\) are too quiet/,
    );
  });

  it('a short sample is reported before a quiet one', () => {
    expect(judgeMeasured([sample(0, 5, -60), sample(1, 31, -60), sample(2, 31, -60)])?.error_code).toBe(
      'sample_too_short',
    );
  });

  describe('length bounds', () => {
    const bounds = { sampleMaxMs: 10 * 60_000, totalMaxMs: 30 * 60_000 };

    it("a sample may decode its own bound, or what is left of the voice's when that is less", () => {
      expect(decodeBudget(bounds, 0)).toEqual({ maxMs: 600_000, bound: 'sample' });
      expect(decodeBudget(bounds, 20 * 60_000)).toEqual({ maxMs: 600_000, bound: 'sample' });
      expect(decodeBudget(bounds, 24 * 60_000)).toEqual({ maxMs: 360_000, bound: 'total' });
      expect(decodeBudget(bounds, 31 * 60_000)).toEqual({ maxMs: 0, bound: 'total' });
    });

    it('sample_too_long names the sample and both limits; samples_too_long says together', () => {
      expect(tooLong({ index: 1, filename: 'hour.opus' }, 'sample', bounds)).toEqual({
        error_code: 'sample_too_long',
        error_message:
          'Sample 2 (hour.opus) is longer than 10 minutes: each sample may hold at most 10 minutes of audio, ' +
          'and the samples of one voice at most 30 minutes together. Upload shorter recordings.',
      });
      const total = tooLong({ index: 3, filename: null }, 'total', bounds);
      expect(total.error_code).toBe('samples_too_long');
      expect(total.error_message).toMatch(/^The samples up to sample 4 hold more than 30 minutes of audio together/);
    });

    it('decode_timeout and decode_failed name the sample', () => {
      expect(decodeTimedOut({ index: 0, filename: 'a.flac' }, 30_000)).toEqual({
        error_code: 'decode_timeout',
        error_message:
          'Sample 1 (a.flac) could not be decoded within 30 seconds. Re-encode it (WAV or FLAC decode fastest) and upload it again.',
      });
      expect(decodeFailed({ index: 2, filename: null }).error_message).toMatch(/^Sample 3 could not be decoded/);
    });

    it('durations in words', () => {
      expect(spell(600_000)).toBe('10 minutes');
      expect(spell(90_000)).toBe('1.5 minutes');
      expect(spell(60_000)).toBe('1 minute');
      expect(spell(7_200_000)).toBe('2 hours');
      expect(spell(30_000)).toBe('30 seconds');
      expect(spell(200)).toBe('0.2 seconds');
    });
  });
});
