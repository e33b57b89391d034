/**
 * Samples of any length gathered into blocks of a fixed size, as block-wise detectors (DTMF, a beep,
 * an answering machine's cadence) take them: each full block is handed on, then refilled.
 */
export class SampleBlocks {
  /** The block being filled; handed to `full` when it is, then filled again from the start. */
  readonly block: Int16Array;
  private filled = 0;

  constructor(size: number) {
    this.block = new Int16Array(size);
  }

  /** Takes `samples`; calls `full` once for each block they complete, in order. */
  push(samples: Int16Array, full: () => void): void {
    let i = 0;
    while (i < samples.length) {
      const n = Math.min(this.block.length - this.filled, samples.length - i);
      this.block.set(samples.subarray(i, i + n), this.filled);
      this.filled += n;
      i += n;
      if (this.filled < this.block.length) return;
      this.filled = 0;
      full();
    }
  }

  /** Forgets a partial block. */
  reset(): void {
    this.filled = 0;
  }
}
