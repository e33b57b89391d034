/**
 * In-band DTMF: digits a caller's phone plays as audio (two tones at once, one of four "row"
 * frequencies and one of four "column" ones) rather than sending as RFC 4733 events
 * (../infra/rtp/dtmf.ts). The method is Asterisk's (main/dsp.c): the 8 kHz audio is cut into blocks
 * of 102 samples (12.75 ms; frames of any length are gathered across calls), and each block gets a
 * Goertzel power at each of the 8 frequencies and its total energy. A block is a hit for a digit
 * when the strongest row and the strongest column:
 * - are each at least `minToneDbfs` (-42 dBFS: the peak of each sine, about -39 dBm0);
 * - are within the twist limits: the column (high) tone at most `normalTwistDb` (8 dB, a power ratio
 *   of 6.31) weaker than the row tone, and at most `reverseTwistDb` (4 dB, 2.51) stronger;
 * - each stand 8 dB (6.31) above the three other frequencies of its group;
 * - together carry at least 82% of the block's energy (Asterisk's 42 over a block of 102, where a
 *   pure pair reaches 51): speech and music spread theirs over many frequencies.
 * A digit is reported after 2 consecutive hit blocks (25 ms), once: the same digit again needs 3
 * blocks (38 ms) that are not hits for it first, so a long press is one digit and "1, 1" with a gap
 * between the presses is two. A new digit may start while the last one is still being let go.
 */
import { goertzelCoefficient, goertzelPower } from '../../kernel/audio/goertzel';
import { SampleBlocks } from '../../kernel/audio/sample-blocks';

export interface DtmfDetectorOptions {
  minToneDbfs?: number;
  normalTwistDb?: number;
  reverseTwistDb?: number;
}

const RATE = 8000;
const BLOCK = 102;
const ROW_HZ = [697, 770, 852, 941];
const COLUMN_HZ = [1209, 1336, 1477, 1633];
const KEYS = ['123A', '456B', '789C', '*0#D'];
const ROW_COEFFICIENTS = ROW_HZ.map((hz) => goertzelCoefficient(hz, RATE));
const COLUMN_COEFFICIENTS = COLUMN_HZ.map((hz) => goertzelCoefficient(hz, RATE));
/** Each peak 8 dB above the others of its group. */
const RELATIVE_PEAK = 10 ** (8 / 10);
/** The pair's share of the block's energy, as Asterisk's 42 over the 51 of a pure pair. */
const ENERGY_SHARE = 42 / (BLOCK / 2);
const HITS_TO_BEGIN = 2;
const MISSES_TO_END = 3;

export class DtmfDetector {
  private readonly minPower: number;
  private readonly normalTwist: number;
  private readonly reverseTwist: number;
  private readonly samples = new SampleBlocks(BLOCK);
  private readonly rowPower = new Float64Array(4);
  private readonly columnPower = new Float64Array(4);
  /** The previous block's hit, and how many blocks in a row have had it. */
  private lastHit: string | null = null;
  private hits = 0;
  /** The digit reported and not yet let go, and the blocks since it was last heard. */
  private current: string | null = null;
  private misses = 0;

  constructor(options: DtmfDetectorOptions = {}) {
    // A sine of amplitude A gives a Goertzel power of (A·N/2)² over N samples.
    const amplitude = 32768 * 10 ** ((options.minToneDbfs ?? -42) / 20);
    this.minPower = ((amplitude * BLOCK) / 2) ** 2;
    this.normalTwist = 10 ** ((options.normalTwistDb ?? 8) / 10);
    this.reverseTwist = 10 ** ((options.reverseTwistDb ?? 4) / 10);
  }

  /**
   * Takes the next 8 kHz samples (any length); returns the digit whose press was confirmed within
   * them, or null. (Frames of 20 ms confirm one digit at most; a frame long enough to hold two
   * presses returns both, in order.)
   */
  push(frame: Int16Array): string | null {
    let found: string | null = null;
    this.samples.push(frame, () => {
      const digit = this.follow(this.hit());
      if (digit) found = (found ?? '') + digit;
    });
    return found;
  }

  /** Whether a key's tone is sounding: the last full block held one, or a press is not yet let go. */
  get sounding(): boolean {
    return this.lastHit !== null || this.current !== null;
  }

  /** Forgets the audio so far (a partial block, a digit being held). */
  reset(): void {
    this.samples.reset();
    this.lastHit = null;
    this.hits = 0;
    this.current = null;
    this.misses = 0;
  }

  /** Asterisk's hit and miss counting: the digit a block confirms, if any. */
  private follow(hit: string | null): string | null {
    if (this.current !== null) {
      if (hit === this.current) this.misses = 0;
      else if (++this.misses >= MISSES_TO_END) this.current = null;
    }
    if (hit !== this.lastHit) {
      this.lastHit = hit;
      this.hits = 0;
    }
    if (hit === null || hit === this.current || ++this.hits < HITS_TO_BEGIN) return null;
    this.current = hit;
    this.misses = 0;
    return hit;
  }

  /** The digit the full block holds, or null. */
  private hit(): string | null {
    let energy = 0;
    for (const v of this.samples.block) energy += v * v;
    const row = strongest(this.samples.block, ROW_COEFFICIENTS, this.rowPower);
    const column = strongest(this.samples.block, COLUMN_COEFFICIENTS, this.columnPower);
    const rowPower = this.rowPower[row] ?? 0;
    const columnPower = this.columnPower[column] ?? 0;
    if (rowPower < this.minPower || columnPower < this.minPower) return null;
    if (rowPower > columnPower * this.normalTwist || columnPower > rowPower * this.reverseTwist) return null;
    for (let i = 0; i < 4; i++) {
      if (i !== row && (this.rowPower[i] ?? 0) * RELATIVE_PEAK > rowPower) return null;
      if (i !== column && (this.columnPower[i] ?? 0) * RELATIVE_PEAK > columnPower) return null;
    }
    if (rowPower + columnPower < ENERGY_SHARE * (BLOCK / 2) * energy) return null;
    return KEYS[row]?.[column] ?? null;
  }
}

/** Fills `powers` with the Goertzel power of each coefficient; returns the index of the strongest. */
function strongest(block: Int16Array, coefficients: readonly number[], powers: Float64Array): number {
  let best = 0;
  for (let i = 0; i < coefficients.length; i++) {
    powers[i] = goertzelPower(block, coefficients[i] ?? 0);
    if ((powers[i] ?? 0) > (powers[best] ?? 0)) best = i;
  }
  return best;
}
