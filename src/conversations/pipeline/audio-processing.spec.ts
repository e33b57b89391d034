import { Resampler, resampleAll } from './resampler';
import { VoiceActivityDetector } from './voice-activity';

/** The pipeline's per-frame audio work: resampling between the transports' rates and the VAD. */
const tone = (hz: number, rate: number, samples: number, level = 10000, from = 0): Int16Array =>
  Int16Array.from({ length: samples }, (_, i) => Math.round(level * Math.sin((2 * Math.PI * hz * (i + from)) / rate)));
const peak = (a: Int16Array): number => a.reduce((m, v) => Math.max(m, Math.abs(v)), 0);

describe('Resampler', () => {
  it.each([
    [48000, 16000, 960, 320],
    [8000, 16000, 160, 320],
    [16000, 48000, 320, 960],
    [16000, 8000, 320, 160],
    [24000, 16000, 480, 320],
  ])('turns 20 ms at %i Hz into 20 ms at %i Hz', (from, to, inLen, outLen) => {
    const r = new Resampler(from, to);
    for (let i = 0; i < 5; i++) expect(r.process(tone(440, from, inLen, 10000, i * inLen)).length).toBe(outLen);
  });

  it('keeps a 1 kHz tone at its level and removes 12 kHz when going from 48 to 16 kHz (no aliasing)', () => {
    const pass = new Resampler(48000, 16000);
    const stop = new Resampler(48000, 16000);
    let kept: Int16Array = new Int16Array(0);
    let aliased: Int16Array = new Int16Array(0);
    for (let i = 0; i < 10; i++) {
      kept = pass.process(tone(1000, 48000, 960, 10000, i * 960));
      aliased = stop.process(tone(12000, 48000, 960, 10000, i * 960));
    }
    expect(peak(kept)).toBeGreaterThan(9500);
    expect(peak(kept)).toBeLessThan(10500);
    // 12 kHz would fold to 4 kHz at 16 kHz: at least 40 dB down.
    expect(peak(aliased)).toBeLessThan(100);
  });

  it('converts a 48 kHz frame to 16 kHz well within its 20 ms (the per-frame work of the pipeline)', () => {
    const r = new Resampler(48000, 16000);
    const frame = tone(440, 48000, 960);
    const started = performance.now();
    for (let i = 0; i < 2000; i++) r.process(frame);
    const micros = ((performance.now() - started) * 1000) / 2000;
    console.log(`48 → 16 kHz: ${micros.toFixed(1)} µs per 20 ms frame`);
    expect(micros).toBeLessThan(2000);
  });

  it('upsamples 16 → 48 kHz at the same level, and resamples a whole buffer from its start', () => {
    const r = new Resampler(16000, 48000);
    let out: Int16Array = new Int16Array(0);
    for (let i = 0; i < 5; i++) out = r.process(tone(500, 16000, 320, 10000, i * 320));
    expect(peak(out)).toBeGreaterThan(9500);
    expect(peak(out)).toBeLessThan(10500);
    const whole = resampleAll(tone(500, 24000, 24000), 24000, 16000);
    expect(Math.abs(whole.length - 16000)).toBeLessThanOrEqual(2);
    expect(resampleAll(tone(500, 16000, 100), 16000, 16000).length).toBe(100);
  });
});

describe('VoiceActivityDetector (WebRTC VAD in WebAssembly)', () => {
  it('tells silence from a voiced sound, cheaply', () => {
    const vad = new VoiceActivityDetector();
    expect(vad.isSpeech(new Int16Array(320))).toBe(false);
    // A vowel-like sound: a 150 Hz buzz with harmonics, as speech has.
    const voiced = Int16Array.from({ length: 320 * 50 }, (_, i) =>
      Math.round([1, 2, 3, 4, 5].reduce((s, h) => s + (3000 / h) * Math.sin((2 * Math.PI * 150 * h * i) / 16000), 0)),
    );
    let heard = 0;
    for (let f = 0; f < 50; f++) if (vad.isSpeech(voiced.subarray(f * 320, f * 320 + 320))) heard++;
    expect(heard).toBeGreaterThan(30);
    const started = performance.now();
    for (let i = 0; i < 5000; i++) vad.isSpeech(voiced.subarray(0, 320));
    const microsPerFrame = ((performance.now() - started) * 1000) / 5000;
    console.log(`VAD: ${microsPerFrame.toFixed(1)} µs per 20 ms frame`);
    // About 4 µs here; 200 µs would still be 1 % of a frame's 20 ms.
    expect(microsPerFrame).toBeLessThan(200);
    expect(() => vad.isSpeech(new Int16Array(100))).toThrow(RangeError);
    vad.close();
    expect(vad.isSpeech(new Int16Array(320))).toBe(false);
  });
});
