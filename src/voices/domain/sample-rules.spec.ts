import { judgeBeforeMeasuring, judgeMeasured } from './sample-rules';

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
});
