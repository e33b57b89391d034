import { RateConverter, resample } from './rate-converter';

const tone = (hz: number, rate: number, n: number, amplitude = 10_000) =>
  Int16Array.from({ length: n }, (_, i) => Math.round(Math.sin((2 * Math.PI * hz * i) / rate) * amplitude));
const rms = (xs: Int16Array, from = 0) => {
  let s = 0;
  for (let i = from; i < xs.length; i++) s += (xs[i] ?? 0) ** 2;
  return Math.sqrt(s / Math.max(1, xs.length - from));
};

describe('rate converter', () => {
  it('keeps speech-band tones through 48 → 16 kHz and removes what would alias', () => {
    const down = new RateConverter(48000, 16000);
    const kept = down.process(tone(1000, 48000, 48000));
    expect(kept.length).toBe(16000);
    expect(rms(kept, 1000) / rms(tone(1000, 48000, 48000))).toBeCloseTo(1, 1);
    // 12 kHz would fold back to 4 kHz at 16 kHz: it must be gone (over 50 dB down).
    const folded = new RateConverter(48000, 16000).process(tone(12000, 48000, 48000));
    expect(rms(folded, 1000)).toBeLessThan(30);
  });

  it.each([
    [48000, 16000, 960, 320],
    [8000, 16000, 160, 320],
    [16000, 48000, 320, 960],
    [16000, 8000, 320, 160],
    [24000, 16000, 480, 320],
  ])(
    'turns each 20 ms at %i Hz into 20 ms at %i Hz (a call’s frames to the engines’ rate and back)',
    (from, to, inLen, outLen) => {
      const converter = new RateConverter(from, to);
      for (let i = 0; i < 5; i++) expect(converter.process(tone(440, from, inLen)).length).toBe(outLen);
    },
  );

  it('converts frame by frame exactly as in one piece (no seam between 20 ms frames)', () => {
    const input = tone(440, 48000, 9600);
    const whole = new RateConverter(48000, 16000).process(input);
    const framed = new RateConverter(48000, 16000);
    const pieces: number[] = [];
    for (let i = 0; i < input.length; i += 960) pieces.push(...framed.process(input.subarray(i, i + 960)));
    expect(pieces).toEqual([...whole]);
    expect(pieces.length).toBe(3200);
  });

  it('upsamples 8 → 48 kHz without images, and 8 → 16, 48 → 8 at the right lengths', () => {
    const up = new RateConverter(8000, 48000);
    const out: number[] = [];
    const input = tone(1000, 8000, 8000);
    for (let i = 0; i < input.length; i += 160) out.push(...up.process(input.subarray(i, i + 160)));
    expect(out.length).toBe(48000);
    const upsampled = Int16Array.from(out);
    expect(rms(upsampled, 2000) / rms(input)).toBeCloseTo(1, 1);
    // The image of 1 kHz at 7 kHz (8 − 1) is absent: back down to 8 kHz it would not matter, so look
    // at the 48 kHz signal itself, correlating with a 7 kHz probe.
    let dot = 0;
    for (let i = 2000; i < upsampled.length; i++)
      dot += (upsampled[i] ?? 0) * Math.sin((2 * Math.PI * 7000 * i) / 48000);
    expect(Math.abs(dot / (upsampled.length - 2000))).toBeLessThan(30);
    expect(resample(input, 8000, 16000).length).toBe(16000);
    expect(resample(tone(300, 48000, 4800), 48000, 8000).length).toBe(800);
    expect([...resample(Int16Array.of(1, 2, 3), 16000, 16000)]).toEqual([1, 2, 3]);
  });

  it('refuses rates it cannot convert', () => {
    expect(() => new RateConverter(0, 8000)).toThrow(RangeError);
    expect(() => new RateConverter(44100.5, 8000)).toThrow(RangeError);
  });
});
