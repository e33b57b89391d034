/**
 * An answering machine's beep, so that an outbound call can leave its message right after it: a
 * steady pure tone between `minHz` (400) and `maxHz` (2,000 Hz) that lasts at least `minMs` (200 ms).
 * The 8 kHz audio is cut into 20 ms blocks of 160 samples (frames of any length are gathered across
 * calls). A block is tonal when:
 * - its level (RMS, DC removed) is at least `minDbfs` (-40 dBFS): silence and line noise are not;
 * - one frequency carries at least `minPurity` (80%) of its energy. The frequency is found with
 *   Goertzels: a coarse bank every 50 Hz from `minHz` to `maxHz` (50 Hz is the resolution of 160
 *   samples), then ±25 Hz and ±12.5 Hz around the strongest, so a tone is at most 6.25 Hz off the
 *   probe that reads it and loses at most 5% of its power to that. A pure tone scores about 1 (noise
 *   10 dB below it still leaves 0.86), speech and noise far less (their energy is spread out);
 * - no coarse probe 150 Hz or more from the strongest carries over 4% of the energy: that is a second
 *   tone, as in a DTMF pair (which scores 0.5 untwisted, but up to 0.86 at the 8 dB twist a keypad
 *   may have).
 * Consecutive tonal blocks within `toleranceHz` (25 Hz) of their running mean frequency are one tone;
 * once it has lasted `minMs` a beep is in progress (`sounding`), and when it stops (a block that is
 * not tonal, or tonal at another frequency) `push` returns it once: its mean frequency, and its start
 * and end in ms from the detector's first sample (counted in samples; to within a block).
 *
 * Cost: a block below the level floor costs one pass over its samples (under 1 µs). A louder block
 * (speech, a tone) costs 33 + 4 Goertzels of 160 samples, about 6,000 multiply-adds: some 15 µs per
 * 20 ms frame on Node 20 (beep-detector.spec.ts measures it), under 0.1% of a core per call.
 */
import { goertzelCoefficient, goertzelPower } from '../../kernel/audio/goertzel';
import { SampleBlocks } from '../../kernel/audio/sample-blocks';

export interface Beep {
  /** The tone's frequency (its mean over the beep, to the nearest Hz). */
  hz: number;
  startMs: number;
  endMs: number;
}

export interface BeepDetectorOptions {
  minHz?: number;
  maxHz?: number;
  minMs?: number;
  minPurity?: number;
  minDbfs?: number;
  toleranceHz?: number;
}

const RATE = 8000;
const BLOCK = 160;
/** The coarse bank's spacing, and the two refining steps around its strongest. */
const COARSE_HZ = 50;
const FINE_HZ = 12.5;
const COARSE_STEP = COARSE_HZ / FINE_HZ;
/** How many fine probes the refining can reach past the first or last coarse one (2 + 1). */
const FIRST_COARSE = COARSE_STEP / 2 + COARSE_STEP / 4;
/** The most a coarse probe 3 steps (150 Hz) or more from the strongest may carry: more is a second tone. */
const SECOND_TONE_SHARE = 0.04;

export class BeepDetector {
  private readonly minHz: number;
  private readonly maxHz: number;
  private readonly minBlocks: number;
  private readonly minPurity: number;
  private readonly minEnergy: number;
  private readonly toleranceHz: number;
  /** The probes' coefficients, every 12.5 Hz from 37.5 Hz below the first coarse one to 37.5 Hz above the last. */
  private readonly coefficients: Float64Array;
  private readonly coarsePower: Float64Array;
  private readonly samples = new SampleBlocks(BLOCK);
  private blocks = 0;
  /** The current run of tonal blocks at one frequency: its length, first block and summed frequency. */
  private runBlocks = 0;
  private runStart = 0;
  private runHzSum = 0;

  constructor(options: BeepDetectorOptions = {}) {
    this.minHz = options.minHz ?? 400;
    this.maxHz = options.maxHz ?? 2000;
    this.minBlocks = Math.ceil(((options.minMs ?? 200) * RATE) / 1000 / BLOCK);
    this.minPurity = options.minPurity ?? 0.8;
    const rms = 32768 * 10 ** ((options.minDbfs ?? -40) / 20);
    this.minEnergy = rms * rms * BLOCK;
    this.toleranceHz = options.toleranceHz ?? 25;
    const coarse = Math.floor((this.maxHz - this.minHz) / COARSE_HZ) + 1;
    this.coarsePower = new Float64Array(coarse);
    this.coefficients = Float64Array.from({ length: (coarse - 1) * COARSE_STEP + 2 * FIRST_COARSE + 1 }, (_, i) =>
      goertzelCoefficient(this.probeHz(i), RATE),
    );
  }

  /** A beep is in progress: a tone has gone on for `minMs` and has not stopped yet. */
  get sounding(): boolean {
    return this.runBlocks >= this.minBlocks;
  }

  /**
   * Takes the next 8 kHz samples (any length); returns the beep that ended within them, or null.
   * (A frame of up to 200 ms can end one beep at most; of a longer one that ends two, the last.)
   */
  push(frame: Int16Array): Beep | null {
    let ended: Beep | null = null;
    this.samples.push(frame, () => {
      ended = this.follow(this.tone()) ?? ended;
      this.blocks++;
    });
    return ended;
  }

  /** Extends or ends the run with this block's tone (its frequency, or null); returns a beep that ended. */
  private follow(hz: number | null): Beep | null {
    if (hz !== null && this.runBlocks > 0 && Math.abs(hz - this.runHzSum / this.runBlocks) <= this.toleranceHz) {
      this.runBlocks++;
      this.runHzSum += hz;
      return null;
    }
    const ended =
      this.runBlocks >= this.minBlocks
        ? {
            hz: Math.round(this.runHzSum / this.runBlocks),
            startMs: msOf(this.runStart),
            endMs: msOf(this.blocks),
          }
        : null;
    this.runBlocks = hz === null ? 0 : 1;
    this.runStart = this.blocks;
    this.runHzSum = hz ?? 0;
    return ended;
  }

  /** The frequency of the pure tone the full block holds, or null. */
  private tone(): number | null {
    let sum = 0;
    let squares = 0;
    for (const v of this.samples.block) {
      sum += v;
      squares += v * v;
    }
    const energy = squares - (sum * sum) / BLOCK;
    if (energy < this.minEnergy) return null;
    let best = 0;
    for (let c = 0; c < this.coarsePower.length; c++) {
      this.coarsePower[c] = this.power(FIRST_COARSE + c * COARSE_STEP);
      if ((this.coarsePower[c] ?? 0) > (this.coarsePower[best] ?? 0)) best = c;
    }
    // The share of the block's energy that a probe's power stands for; a second tone: not a beep.
    const share = 2 / (BLOCK * energy);
    for (let c = 0; c < this.coarsePower.length; c++) {
      if (Math.abs(c - best) > 2 && (this.coarsePower[c] ?? 0) * share > SECOND_TONE_SHARE) return null;
    }
    // Refine: half a coarse step either side of the strongest, then a quarter.
    let probe = FIRST_COARSE + best * COARSE_STEP;
    let power = this.coarsePower[best] ?? 0;
    for (let step = COARSE_STEP / 2; step >= 1; step /= 2) {
      const centre = probe;
      const below = this.power(centre - step);
      const above = this.power(centre + step);
      if (below > power && below >= above) {
        probe = centre - step;
        power = below;
      } else if (above > power) {
        probe = centre + step;
        power = above;
      }
    }
    const hz = this.probeHz(probe);
    if (hz < this.minHz - FINE_HZ || hz > this.maxHz + FINE_HZ) return null;
    return power * share >= this.minPurity ? hz : null;
  }

  private power(probe: number): number {
    return goertzelPower(this.samples.block, this.coefficients[probe] ?? 0);
  }

  private probeHz(probe: number): number {
    return this.minHz + (probe - FIRST_COARSE) * FINE_HZ;
  }
}

function msOf(blocks: number): number {
  return (blocks * BLOCK * 1000) / RATE;
}
