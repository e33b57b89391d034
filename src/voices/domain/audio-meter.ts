/**
 * Measures decoded audio as it streams by, in bounded memory: its length, its loudness (RMS and peak
 * in dBFS, over every channel) and a spectral summary (centroid and the share of each octave band),
 * from PCM chunks of any size. Pure: the decoder (infra/audio-decoder.ts) feeds it.
 *
 * dBFS here is the plain RMS of the sample values against full scale 1.0, so a full-scale sine wave
 * measures -3.01 dBFS (not the AES17 convention, which adds 3.01 dB). Silence is floored at -120.
 */

export interface SpectralSummary {
  /** Power-weighted mean frequency of the averaged spectrum, in Hz. */
  readonly centroid_hz: number;
  /** Share of the power in each band of BAND_EDGES_HZ, in dB relative to the whole (0 = all of it). */
  readonly bands_db: readonly number[];
}

export interface SampleMeasurement {
  readonly duration_ms: number;
  readonly sample_rate: number;
  readonly channels: number;
  readonly rms_dbfs: number;
  readonly peak_dbfs: number;
  readonly spectrum: SpectralSummary;
}

export const SILENCE_DBFS = -120;
/** Band edges: below 125 Hz, then octaves up to 8 kHz, then the rest up to Nyquist. */
export const BAND_EDGES_HZ = [0, 125, 250, 500, 1000, 2000, 4000, 8000] as const;

const FRAME = 2048;
/** One analysis frame every this many seconds of audio (at least one frame apart). */
const ANALYSIS_HOP_SECONDS = 0.25;

const round = (value: number, digits: number): number => {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
};

export const toDbfs = (amplitude: number): number =>
  amplitude > 0 ? Math.max(SILENCE_DBFS, round(20 * Math.log10(amplitude), 2)) : SILENCE_DBFS;

export class AudioMeter {
  private sampleRate = 0;
  private channels = 0;
  /** Seconds of audio so far, summed chunk by chunk (a chained stream may change its rate). */
  private seconds = 0;
  private sumSquares = 0;
  private values = 0;
  private peak = 0;
  private readonly spectrum = new Spectrum();

  /** One chunk of decoded audio: one array per channel, all of the same length. */
  push(channelData: readonly Float32Array[], sampleRate: number): void {
    const first = channelData[0];
    if (!first || first.length === 0 || !(sampleRate > 0)) return;
    if (this.sampleRate === 0) {
      this.sampleRate = sampleRate;
      this.channels = channelData.length;
    }
    const frames = first.length;
    this.seconds += frames / sampleRate;
    for (const channel of channelData) {
      for (let i = 0; i < channel.length; i++) {
        const v = channel[i] as number;
        if (!Number.isFinite(v)) continue; // a float WAV may hold NaN or Infinity: not sound
        this.sumSquares += v * v;
        const a = Math.abs(v);
        if (a > this.peak) this.peak = a;
      }
      this.values += channel.length;
    }
    this.spectrum.push(channelData, frames, sampleRate);
  }

  /** Nothing measurable was pushed yet. */
  get empty(): boolean {
    return this.values === 0;
  }

  result(): SampleMeasurement {
    const rms = this.values === 0 ? 0 : Math.sqrt(this.sumSquares / this.values);
    return {
      duration_ms: Math.round(this.seconds * 1000),
      sample_rate: this.sampleRate,
      channels: this.channels,
      rms_dbfs: toDbfs(rms),
      peak_dbfs: toDbfs(this.peak),
      spectrum: this.spectrum.summary(),
    };
  }
}

/** The averaged power spectrum of evenly spaced frames of the mono mix (Hann window, radix-2 FFT). */
class Spectrum {
  private readonly frame = new Float64Array(FRAME);
  private filled = 0;
  /** Samples still to skip before the next frame starts. */
  private skip = 0;
  private rate = 0;
  private readonly power = new Float64Array(FRAME / 2 + 1);
  private frames = 0;
  private readonly fft = new Fft(FRAME);

  push(channelData: readonly Float32Array[], frames: number, sampleRate: number): void {
    // Frames are taken at the first rate seen; a chained stream's later rates are left out of the spectrum.
    if (this.rate === 0) this.rate = sampleRate;
    if (sampleRate !== this.rate) return;
    const hop = Math.max(FRAME, Math.round(sampleRate * ANALYSIS_HOP_SECONDS));
    const n = channelData.length;
    for (let i = 0; i < frames;) {
      if (this.skip > 0) {
        const step = Math.min(this.skip, frames - i);
        this.skip -= step;
        i += step;
        continue;
      }
      let mixed = 0;
      for (const channel of channelData) {
        const v = channel[i] as number;
        if (Number.isFinite(v)) mixed += v;
      }
      this.frame[this.filled++] = mixed / n;
      i++;
      if (this.filled === FRAME) {
        this.analyse();
        this.filled = 0;
        this.skip = hop - FRAME;
      }
    }
  }

  private analyse(): void {
    const power = this.fft.powerSpectrum(this.frame);
    for (let k = 0; k < power.length; k++) this.power[k] = (this.power[k] as number) + (power[k] as number);
    this.frames++;
  }

  summary(): SpectralSummary {
    // A sample shorter than one frame: analyse what there is, zero-padded.
    if (this.frames === 0 && this.filled > 0) {
      this.frame.fill(0, this.filled);
      this.analyse();
    }
    const binHz = this.rate / FRAME;
    const bands = new Array<number>(BAND_EDGES_HZ.length).fill(0);
    let total = 0;
    let weighted = 0;
    for (let k = 1; k < this.power.length; k++) {
      const p = this.power[k] as number;
      const hz = k * binHz;
      total += p;
      weighted += p * hz;
      let band = BAND_EDGES_HZ.length - 1;
      while (band > 0 && hz < (BAND_EDGES_HZ[band] as number)) band--;
      bands[band] = (bands[band] as number) + p;
    }
    if (total <= 0) return { centroid_hz: 0, bands_db: bands.map(() => SILENCE_DBFS) };
    return {
      centroid_hz: Math.round(weighted / total),
      bands_db: bands.map((p) => (p > 0 ? Math.max(SILENCE_DBFS, round(10 * Math.log10(p / total), 1)) : SILENCE_DBFS)),
    };
  }
}

/** An in-place iterative radix-2 FFT of a fixed size, with its Hann window and twiddles computed once. */
class Fft {
  private readonly window: Float64Array;
  private readonly cos: Float64Array;
  private readonly sin: Float64Array;
  private readonly re: Float64Array;
  private readonly im: Float64Array;
  private readonly out: Float64Array;
  private readonly bitReversed: Uint32Array;

  constructor(private readonly size: number) {
    this.window = new Float64Array(size);
    for (let i = 0; i < size; i++) this.window[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / (size - 1));
    this.cos = new Float64Array(size / 2);
    this.sin = new Float64Array(size / 2);
    for (let i = 0; i < size / 2; i++) {
      this.cos[i] = Math.cos((2 * Math.PI * i) / size);
      this.sin[i] = -Math.sin((2 * Math.PI * i) / size);
    }
    this.re = new Float64Array(size);
    this.im = new Float64Array(size);
    this.out = new Float64Array(size / 2 + 1);
    const bits = Math.log2(size);
    this.bitReversed = new Uint32Array(size);
    for (let i = 0; i < size; i++) {
      let r = 0;
      for (let b = 0; b < bits; b++) r |= ((i >> b) & 1) << (bits - 1 - b);
      this.bitReversed[i] = r;
    }
  }

  /** |X(k)|² for k = 0 … size/2 of the windowed frame (the returned array is reused by the next call). */
  powerSpectrum(frame: Float64Array): Float64Array {
    const { re, im, size } = this;
    for (let i = 0; i < size; i++) {
      re[this.bitReversed[i] as number] = (frame[i] as number) * (this.window[i] as number);
      im[i] = 0;
    }
    for (let len = 2; len <= size; len <<= 1) {
      const half = len >> 1;
      const step = size / len;
      for (let start = 0; start < size; start += len) {
        for (let j = 0; j < half; j++) {
          const wr = this.cos[j * step] as number;
          const wi = this.sin[j * step] as number;
          const a = start + j;
          const b = a + half;
          const br = re[b] as number;
          const bi = im[b] as number;
          const tr = br * wr - bi * wi;
          const ti = br * wi + bi * wr;
          re[b] = (re[a] as number) - tr;
          im[b] = (im[a] as number) - ti;
          re[a] = (re[a] as number) + tr;
          im[a] = (im[a] as number) + ti;
        }
      }
    }
    for (let k = 0; k <= size / 2; k++) this.out[k] = (re[k] as number) ** 2 + (im[k] as number) ** 2;
    return this.out;
  }
}
