import { AudioMeter, BAND_EDGES_HZ, SILENCE_DBFS, toDbfs } from './audio-meter';

const RATE = 16_000;
/** `seconds` of a sine at `hz` with peak `amplitude`, as one Float32Array. */
function sine(seconds: number, hz: number, amplitude: number, rate = RATE): Float32Array {
  const out = new Float32Array(Math.round(seconds * rate));
  for (let i = 0; i < out.length; i++) out[i] = amplitude * Math.sin((2 * Math.PI * hz * i) / rate);
  return out;
}

function chunked(samples: Float32Array, size: number, meter = new AudioMeter(), rate = RATE): AudioMeter {
  for (let i = 0; i < samples.length; i += size) meter.push([samples.subarray(i, i + size)], rate);
  return meter;
}

describe('audio meter', () => {
  it('measures a sine: length from the samples, RMS 3.01 dB below its peak, the centroid at its frequency', () => {
    const m = chunked(sine(31, 440, 0.5), 4096).result();
    expect(m.duration_ms).toBe(31_000);
    expect(m.sample_rate).toBe(RATE);
    expect(m.channels).toBe(1);
    expect(m.peak_dbfs).toBeCloseTo(-6.02, 1);
    expect(m.rms_dbfs).toBeCloseTo(-9.03, 1);
    expect(Math.abs(m.spectrum.centroid_hz - 440)).toBeLessThan(40);
    // 440 Hz is in the 250–500 Hz band, which holds nearly all the power.
    const band = BAND_EDGES_HZ.indexOf(250);
    expect(m.spectrum.bands_db[band]).toBeGreaterThan(-0.5);
  });

  it('does not depend on how the audio is chunked', () => {
    const audio = sine(3, 1000, 0.3);
    const a = chunked(audio, 100).result();
    const b = chunked(audio, 48_000).result();
    expect(a).toEqual(b);
  });

  it('a quiet sample measures its level: a sine peaking at -50 dBFS is about -53 dBFS RMS', () => {
    const m = chunked(sine(5, 300, 10 ** (-50 / 20)), 8192).result();
    expect(m.peak_dbfs).toBeCloseTo(-50, 1);
    expect(m.rms_dbfs).toBeCloseTo(-53.01, 1);
  });

  it('averages loudness over every channel and skips values that are not numbers', () => {
    const left = sine(1, 200, 1);
    const right = new Float32Array(left.length);
    right[10] = Number.NaN;
    const meter = new AudioMeter();
    meter.push([left, right], RATE);
    const m = meter.result();
    expect(m.channels).toBe(2);
    expect(m.rms_dbfs).toBeCloseTo(-6.02, 1); // half the power of the left channel alone
    expect(Number.isFinite(m.spectrum.centroid_hz)).toBe(true);
  });

  it('silence is floored at -120 dBFS; nothing pushed measures nothing', () => {
    const m = chunked(new Float32Array(RATE), 1000).result();
    expect(m.rms_dbfs).toBe(SILENCE_DBFS);
    expect(m.spectrum.bands_db.every((b) => b === SILENCE_DBFS)).toBe(true);
    const empty = new AudioMeter();
    expect(empty.empty).toBe(true);
    expect(empty.result().duration_ms).toBe(0);
    expect(toDbfs(0)).toBe(SILENCE_DBFS);
  });

  it('a sample shorter than one analysis frame still has a spectrum', () => {
    const m = chunked(sine(0.05, 2000, 0.5), 256).result();
    expect(m.duration_ms).toBe(50);
    expect(m.spectrum.centroid_hz).toBeGreaterThan(1000);
  });
});
