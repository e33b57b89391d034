/**
 * Media toolkit (src/kernel/media/): how late the process's 20 ms ticks run, gathered across every
 * media clock of the process (`MediaClock` records each tick into `mediaClockLateness`). Read and
 * cleared once per window by whoever watches the process's headroom (conversations' capacity):
 * lateness is a property of the event loop that all calls share, not of one call.
 */

/** Lateness is counted per whole millisecond up to this; later ticks count in the last bucket. */
const MAX_MS = 1_000;

export interface LatenessFigures {
  /** Ticks run in the window. */
  ticks: number;
  /** The 99th percentile of their lateness, in whole ms (0 when no tick ran). */
  p99Ms: number;
  /** The latest tick's lateness, in ms (capped at 1 s). */
  maxMs: number;
}

export class LatenessWindow {
  private readonly buckets = new Uint32Array(MAX_MS + 1);
  private ticks = 0;
  private maxMs = 0;

  record(lateMs: number): void {
    const ms = Math.min(MAX_MS, Math.max(0, Math.round(lateMs)));
    this.buckets[ms] = (this.buckets[ms] ?? 0) + 1;
    this.ticks++;
    if (ms > this.maxMs) this.maxMs = ms;
  }

  /** The window's figures; the window starts again empty. */
  take(): LatenessFigures {
    const figures = { ticks: this.ticks, p99Ms: this.percentile(0.99), maxMs: this.maxMs };
    this.buckets.fill(0);
    this.ticks = 0;
    this.maxMs = 0;
    return figures;
  }

  private percentile(q: number): number {
    if (this.ticks === 0) return 0;
    const rank = Math.ceil(q * this.ticks);
    let seen = 0;
    for (let ms = 0; ms <= MAX_MS; ms++) {
      seen += this.buckets[ms] ?? 0;
      if (seen >= rank) return ms;
    }
    return MAX_MS;
  }
}

/** Every media clock of this process records its ticks' lateness here. */
export const mediaClockLateness = new LatenessWindow();
