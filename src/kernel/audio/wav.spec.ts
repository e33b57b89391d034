/** The synthesised recording: a real PCM WAV (RIFF), dual channel, 16-bit, 8 kHz, of the call's length. */
import { synthesiseDualChannelWav } from './wav';

function header(buf: Buffer) {
  return {
    riff: buf.toString('ascii', 0, 4),
    riffSize: buf.readUInt32LE(4),
    wave: buf.toString('ascii', 8, 12),
    fmt: buf.toString('ascii', 12, 16),
    fmtSize: buf.readUInt32LE(16),
    format: buf.readUInt16LE(20),
    channels: buf.readUInt16LE(22),
    sampleRate: buf.readUInt32LE(24),
    byteRate: buf.readUInt32LE(28),
    blockAlign: buf.readUInt16LE(32),
    bitsPerSample: buf.readUInt16LE(34),
    data: buf.toString('ascii', 36, 40),
    dataSize: buf.readUInt32LE(40),
  };
}

describe('synthesiseDualChannelWav', () => {
  it.each([1, 12, 45])(
    '%i s: RIFF/WAVE, PCM, 2 channels, 16-bit, 8000 Hz, data = seconds × 8000 × 4 bytes',
    (seconds) => {
      const buf = synthesiseDualChannelWav(seconds);
      const dataSize = seconds * 8000 * 4;
      expect(header(buf)).toEqual({
        riff: 'RIFF',
        riffSize: 36 + dataSize,
        wave: 'WAVE',
        fmt: 'fmt ',
        fmtSize: 16,
        format: 1,
        channels: 2,
        sampleRate: 8000,
        byteRate: 8000 * 2 * 2,
        blockAlign: 4,
        bitsPerSample: 16,
        data: 'data',
        dataSize,
      });
      expect(buf.length).toBe(44 + dataSize);
    },
  );

  it('honours another sample rate', () => {
    const buf = synthesiseDualChannelWav(2, 16000);
    expect(header(buf)).toMatchObject({ sampleRate: 16000, byteRate: 64000, dataSize: 2 * 16000 * 4 });
  });

  it('never writes an empty data chunk (at least one frame)', () => {
    expect(header(synthesiseDualChannelWav(0)).dataSize).toBe(4);
  });

  it('has sound on both channels, agent first, then the caller (dual channel, not silence)', () => {
    const buf = synthesiseDualChannelWav(6);
    const rms = (channel: 0 | 1, fromS: number, toS: number) => {
      let sum = 0;
      let n = 0;
      for (let i = fromS * 8000; i < toS * 8000; i++) {
        const v = buf.readInt16LE(44 + i * 4 + channel * 2);
        sum += v * v;
        n++;
      }
      return Math.sqrt(sum / n);
    };
    expect(rms(0, 0, 3)).toBeGreaterThan(1000); // agent talks in the first 3 s
    expect(rms(1, 0, 3)).toBe(0);
    expect(rms(1, 3, 6)).toBeGreaterThan(1000); // then the caller
    expect(rms(0, 3, 6)).toBe(0);
  });
});
