/**
 * The Goertzel algorithm: the power of one frequency over a block of samples, the single bin of a
 * DFT that tone detectors need (DTMF, an answering machine's beep). For a frequency `f` at `rate`,
 * the coefficient is 2·cos(2πf/rate); each sample runs s = x + coeff·s1 − s2, and the power is
 * s1² + s2² − coeff·s1·s2 at the end. The frequency need not fall on a DFT bin (any `f` works, the
 * block being a plain rectangular window).
 *
 * Scale: a sine of amplitude A at `f` over N samples gives a power of about (A·N/2)², and its
 * energy (the sum of the squared samples) is A²·N/2; so 2·power / (N·energy) is about 1 for a pure
 * tone at `f` and is the share of the block's energy that `f` carries ("purity").
 */

/** 2·cos(2πf/rate): the Goertzel coefficient of `hz` at `rate`. Compute once, use for every block. */
export function goertzelCoefficient(hz: number, rate: number): number {
  return 2 * Math.cos((2 * Math.PI * hz) / rate);
}

/** The power of the frequency of `coeff` over samples[from, to). Allocates nothing. */
export function goertzelPower(samples: ArrayLike<number>, coeff: number, from = 0, to = samples.length): number {
  let s1 = 0;
  let s2 = 0;
  for (let i = from; i < to; i++) {
    const s = (samples[i] ?? 0) + coeff * s1 - s2;
    s2 = s1;
    s1 = s;
  }
  return s1 * s1 + s2 * s2 - coeff * s1 * s2;
}
