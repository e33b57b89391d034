/**
 * Sample-rate conversion of mono 16-bit PCM between the transports' rates (8, 16, 48 kHz) and the
 * engines' (16 kHz for recognition; whatever a synthesiser answers, e.g. 16 or 24 kHz): a rational
 * polyphase resampler (up by L, windowed-sinc low-pass, down by M). The low-pass cuts at 90 % of the
 * lower Nyquist frequency, so 48 → 16 kHz removes what would alias into the recogniser's band.
 *
 * A Resampler keeps its filter history between calls: feed it a stream's frames in order.
 */

/**
 * Filter length in taps of the slower side's rate: 24 gives ~60 dB of stop-band with the Blackman
 * window and a transition band of about a quarter of the lower rate, cheap per frame.
 */
const TAPS = 24;

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

export class Resampler {
  readonly up: number;
  readonly down: number;
  /** Taps per phase of the polyphase filter. */
  private readonly perPhase: number;
  /** The filter at the upsampled rate: phase p uses taps[p + k * up], k = 0 … perPhase - 1. */
  private readonly taps: Float32Array;
  /** Input samples, oldest first; the `perPhase` before `filled` are the filter's history. */
  private buffer: Float32Array;
  private filled: number;
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
    this.perPhase = Math.ceil((TAPS * Math.max(this.up, this.down)) / this.up);
    this.taps = designLowPass(this.up, this.down, this.perPhase * this.up);
    this.buffer = new Float32Array(this.perPhase + 4096);
    this.filled = this.perPhase;
  }

  /** Converts the next piece of the stream; the output length follows the ratio (± 1 sample). */
  process(input: Int16Array): Int16Array {
    if (this.up === 1 && this.down === 1) return input.slice();
    this.makeRoom(input.length);
    const { up, down, taps, perPhase, buffer } = this;
    const out = new Int16Array(Math.ceil(((input.length + 1) * up) / down));
    let produced = 0;
    for (let i = 0; i < input.length; i++) {
      const newest = this.filled;
      buffer[this.filled++] = input[i] ?? 0;
      // Every output that falls between this input sample and the next, on the upsampled grid.
      while (this.position < up) {
        const phase = this.position;
        let sum = 0;
        for (let k = 0; k < perPhase; k++) sum += (taps[phase + k * up] ?? 0) * (buffer[newest - k] ?? 0);
        out[produced++] = clamp16(sum);
        this.position += down;
      }
      this.position -= up;
    }
    return out.subarray(0, produced);
  }

  /** Keeps the history at the buffer's start and room for `count` more samples after it. */
  private makeRoom(count: number): void {
    if (this.filled + count <= this.buffer.length) return;
    const history = this.buffer.subarray(this.filled - this.perPhase, this.filled);
    const buffer = this.buffer.length >= this.perPhase + count ? this.buffer : new Float32Array(this.perPhase + count);
    buffer.copyWithin(0, this.filled - this.perPhase, this.filled);
    if (buffer !== this.buffer) buffer.set(history);
    this.buffer = buffer;
    this.filled = this.perPhase;
  }
}

/** Converts a whole buffer at once (a synthesised sentence), padding the tail so the filter delay flushes. */
export function resampleAll(input: Int16Array, fromRate: number, toRate: number): Int16Array {
  if (fromRate === toRate) return input;
  const resampler = new Resampler(fromRate, toRate);
  const delay = Math.ceil((TAPS * Math.max(resampler.up, resampler.down)) / resampler.up / 2);
  const padded = new Int16Array(input.length + delay);
  padded.set(input);
  const out = resampler.process(padded);
  // Drop the filter's delay at the head so the speech starts at the start.
  const skip = Math.round((delay * toRate) / fromRate);
  return out.subarray(Math.min(skip, out.length));
}

/** Windowed-sinc low-pass at the upsampled rate, gain `up` (zero-stuffing divides the level by `up`). */
function designLowPass(up: number, down: number, length: number): Float32Array {
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
