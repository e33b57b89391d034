/**
 * Sample-rate conversion of mono 16-bit PCM between the transports' rates (8, 16, 48 kHz) and the
 * engines' (16 kHz for recognition; whatever a synthesiser answers, e.g. 16 or 24 kHz): a rational
 * polyphase resampler (up by L, windowed-sinc low-pass, down by M). The low-pass cuts at 90 % of the
 * lower Nyquist frequency, so 48 → 16 kHz removes what would alias into the recogniser's band.
 *
 * A Resampler keeps its filter history between calls: feed it a stream's frames in order.
 */

/** Filter taps per phase: 24 gives ~60 dB of stop-band with the Blackman window, cheap per frame. */
const TAPS_PER_PHASE = 24;

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

export class Resampler {
  readonly up: number;
  readonly down: number;
  /** The polyphase filter: phase p uses taps[p + k * up], k = 0 … TAPS_PER_PHASE - 1. */
  private readonly taps: Float32Array;
  /** The last TAPS_PER_PHASE input samples, newest last. */
  private readonly history = new Float32Array(TAPS_PER_PHASE);
  /** Position of the next output sample on the upsampled grid, relative to the next input sample. */
  private position = 0;

  constructor(
    readonly fromRate: number,
    readonly toRate: number,
  ) {
    if (!(fromRate > 0 && toRate > 0 && Number.isInteger(fromRate) && Number.isInteger(toRate))) {
      throw new RangeError(`Sample rates must be positive integers (got ${fromRate} → ${toRate}).`);
    }
    const g = gcd(fromRate, toRate);
    this.up = toRate / g;
    this.down = fromRate / g;
    this.taps = designLowPass(this.up, this.down);
  }

  /** Converts the next piece of the stream; the output length follows the ratio (± 1 sample). */
  process(input: Int16Array): Int16Array {
    if (this.up === 1 && this.down === 1) return input.slice();
    const { up, down, history, taps } = this;
    const out = new Int16Array(Math.ceil(((input.length + 1) * up) / down));
    let produced = 0;
    for (let i = 0; i < input.length; i++) {
      // Shift the newest sample in (TAPS_PER_PHASE is small: a copy is cheaper than a ring's index math).
      history.copyWithin(0, 1);
      history[TAPS_PER_PHASE - 1] = input[i] ?? 0;
      // Every output that falls between this input sample and the next, on the upsampled grid.
      while (this.position < up) {
        const phase = this.position;
        let sum = 0;
        for (let k = 0; k < TAPS_PER_PHASE; k++)
          sum += (taps[phase + k * up] ?? 0) * (history[TAPS_PER_PHASE - 1 - k] ?? 0);
        out[produced++] = clamp16(sum);
        this.position += down;
      }
      this.position -= up;
    }
    return out.subarray(0, produced);
  }
}

/** Converts a whole buffer at once (a synthesised sentence), padding the tail so the filter delay flushes. */
export function resampleAll(input: Int16Array, fromRate: number, toRate: number): Int16Array {
  if (fromRate === toRate) return input;
  const resampler = new Resampler(fromRate, toRate);
  const delay = TAPS_PER_PHASE / 2;
  const padded = new Int16Array(input.length + delay);
  padded.set(input);
  const out = resampler.process(padded);
  // Drop the filter's delay at the head so the speech starts at the start.
  const skip = Math.round((delay * toRate) / fromRate);
  return out.subarray(Math.min(skip, out.length));
}

/** Windowed-sinc low-pass at the upsampled rate, gain `up` (zero-stuffing divides the level by `up`). */
function designLowPass(up: number, down: number): Float32Array {
  const length = TAPS_PER_PHASE * up;
  const cutoff = (0.9 * 0.5) / Math.max(up, down); // of the upsampled rate
  const taps = new Float32Array(length);
  const mid = (length - 1) / 2;
  let sum = 0;
  for (let n = 0; n < length; n++) {
    const x = n - mid;
    const sinc = x === 0 ? 2 * cutoff : Math.sin(2 * Math.PI * cutoff * x) / (Math.PI * x);
    const w =
      0.42 - 0.5 * Math.cos((2 * Math.PI * n) / (length - 1)) + 0.08 * Math.cos((4 * Math.PI * n) / (length - 1));
    taps[n] = sinc * w;
    sum += taps[n] ?? 0;
  }
  for (let n = 0; n < length; n++) taps[n] = ((taps[n] ?? 0) / sum) * up;
  return taps;
}

function clamp16(v: number): number {
  return v > 32767 ? 32767 : v < -32768 ? -32768 : Math.round(v);
}
