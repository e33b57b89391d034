/**
 * Sample-rate conversion between the rates calls carry (8, 16, 48 kHz): a streaming polyphase FIR
 * (a Blackman-windowed sinc), so that frames can be converted one at a time with no seam between
 * them. The low-pass sits at 90 % of the lower rate's Nyquist frequency: going down, nothing above it
 * folds back into speech (aliasing); going up, no image of the lower rate's spectrum is added.
 * `TAPS` taps per input sample of the slower side: about 70 dB of stop band, a transition about
 * 1.5 kHz wide at 16 kHz, and a delay of half the filter (2 ms at 48 → 16 kHz).
 */

const TAPS = 32;

export class RateConverter {
  /** Up by `up`, then down by `down` (the ratio in lowest terms). */
  private readonly up: number;
  private readonly down: number;
  /** Taps per phase: the input samples each output sample is made of. */
  private readonly perPhase: number;
  /** The filter, at the intermediate rate (from × up), as `up` phases of `perPhase` taps. */
  private readonly phases: Float32Array[];
  /** The last perPhase − 1 input samples (the filter's memory across calls). */
  private history: Float32Array;
  /** Where the next output sample falls, in intermediate-rate units from the current input's start. */
  private position = 0;

  constructor(
    readonly from: number,
    readonly to: number,
  ) {
    if (!Number.isInteger(from) || !Number.isInteger(to) || from <= 0 || to <= 0)
      throw new RangeError(`Cannot convert ${from} Hz to ${to} Hz.`);
    const g = gcd(from, to);
    this.up = to / g;
    this.down = from / g;
    this.perPhase = TAPS * Math.max(1, Math.ceil(this.down / this.up));
    const length = this.perPhase * this.up;
    const cutoff = (0.45 * Math.min(from, to)) / (from * this.up); // in cycles per intermediate sample
    const taps = new Float64Array(length);
    let sum = 0;
    for (let n = 0; n < length; n++) {
      const t = n - (length - 1) / 2;
      const sinc = t === 0 ? 2 * cutoff : Math.sin(2 * Math.PI * cutoff * t) / (Math.PI * t);
      const w =
        0.42 - 0.5 * Math.cos((2 * Math.PI * n) / (length - 1)) + 0.08 * Math.cos((4 * Math.PI * n) / (length - 1));
      taps[n] = sinc * w;
      sum += taps[n] ?? 0;
    }
    // Unity gain at 0 Hz for the output: each phase sums to 1 (the zeros stuffed by upsampling carry no energy).
    this.phases = Array.from({ length: this.up }, (_, p) =>
      Float32Array.from({ length: this.perPhase }, (_, j) => ((taps[p + j * this.up] ?? 0) * this.up) / sum),
    );
    this.history = new Float32Array(this.perPhase - 1);
  }

  /** Converts the next stretch of the stream (any length); the output follows on from the last call's. */
  process(input: Int16Array): Int16Array {
    if (this.up === this.down) return Int16Array.from(input);
    const keep = this.history.length;
    const x = new Float32Array(keep + input.length);
    x.set(this.history);
    x.set(input, keep);
    const count = Math.max(0, Math.ceil((input.length * this.up - this.position) / this.down));
    const out = new Int16Array(count);
    const taps = this.perPhase;
    let pos = this.position;
    // The hot loop (a few hundred thousand multiply-adds a second per call): indices are in range by
    // construction (base − j ≥ 0, j < taps), so the reads are asserted as numbers, not checked.
    for (let k = 0; k < count; k++, pos += this.down) {
      const base = keep + Math.floor(pos / this.up);
      const h = this.phases[pos % this.up] as Float32Array;
      let acc = 0;
      for (let j = 0; j < taps; j++) acc += (h[j] as number) * (x[base - j] as number);
      out[k] = acc > 32767 ? 32767 : acc < -32768 ? -32768 : Math.round(acc);
    }
    this.position = pos - input.length * this.up;
    this.history = x.slice(x.length - keep);
    return out;
  }
}

/** A whole clip at another rate: streamed through a converter, its tail flushed (the filter's delay kept). */
export function resample(samples: Int16Array, from: number, to: number): Int16Array {
  if (from === to) return Int16Array.from(samples);
  const converter = new RateConverter(from, to);
  const body = converter.process(samples);
  const expected = Math.round((samples.length * to) / from);
  const tail = converter.process(new Int16Array(Math.ceil((TAPS * from) / Math.min(from, to))));
  const out = new Int16Array(expected);
  out.set(body.subarray(0, expected));
  if (body.length < expected) out.set(tail.subarray(0, expected - body.length), body.length);
  return out;
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}
