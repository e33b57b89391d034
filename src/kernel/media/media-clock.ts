/**
 * Media toolkit (src/kernel/media/): the real-time clock of a call's media, one tick per 20 ms frame.
 * - Drift-corrected: tick n is due at a fixed place (the first tick's time + n × 20 ms) on a
 *   monotonic clock (`performance.now` unless another is injected); each timer is set for the next
 *   tick's place, so timer lateness never adds up.
 * - Catch-up bound: after a stall (a busy event loop) the ticks due are run at once, at most
 *   `maxCatchUp` of them; the older ones are skipped (the tick after them says how many), so that a
 *   peer is never sent a long burst and the tick index stays in step with real time.
 * - Every tick's lateness on real time goes to the process's `mediaClockLateness` (lateness-window.ts),
 *   which the conversations' capacity reads as one of its headroom figures.
 * - A tick that throws stops the clock and is reported to the owner (`onError`), once: never an
 *   uncaught exception from a timer, which would end the process.
 */

import { mediaClockLateness } from './lateness-window';

export const FRAME_MS = 20;

/** A timer fires up to this early (timers count whole milliseconds): its tick is run then. */
const EARLY_MS = 1;

export interface MediaTick {
  /** The tick's place on the clock: 0, 1, 2, … (after a stall, the skipped places are not run). */
  readonly index: number;
  /** Places skipped just before this one, too late to be run (a stall beyond the catch-up bound); mostly 0. */
  readonly skipped: number;
  /** How long after its place on the clock this tick runs, in ms (0 when on time). */
  readonly lateMs: number;
  /** The clock's time when the tick runs (ms, monotonic). */
  readonly now: number;
}

export interface MediaClockOptions {
  /** Called once with the error of a tick that threw; the clock has stopped. */
  onError: (error: Error) => void;
  /** At most this many ticks run at once after a stall; older ones are skipped. */
  maxCatchUp: number;
  /** The length of a tick (20 ms). */
  frameMs?: number;
  /** The monotonic time in ms (performance.now by default; a test injects its own). */
  now?: () => number;
  /** The clock does not keep the process alive by itself (as `timer.unref()`). */
  unref?: boolean;
}

export class MediaClock {
  private readonly frameMs: number;
  private readonly now: () => number;
  private timer: NodeJS.Timeout | null = null;
  private onTick: ((tick: MediaTick) => void) | null = null;
  /** Where tick 0 is due on the clock. */
  private origin = 0;
  private next = 0;
  private state: 'idle' | 'running' | 'stopped' = 'idle';

  constructor(private readonly options: MediaClockOptions) {
    this.frameMs = options.frameMs ?? FRAME_MS;
    this.now = options.now ?? (() => performance.now());
  }

  /** The index of the next tick: the places run or skipped so far. */
  get index(): number {
    return this.next;
  }

  get running(): boolean {
    return this.state === 'running';
  }

  /**
   * Starts the clock: `onTick` runs every frame, the first `firstTickInMs` from now (one frame by
   * default). A clock runs once: started again (or after `stop`), it does nothing.
   */
  start(onTick: (tick: MediaTick) => void, firstTickInMs = this.frameMs): void {
    if (this.state !== 'idle') return;
    this.state = 'running';
    this.onTick = onTick;
    this.origin = this.now() + firstTickInMs;
    this.schedule();
  }

  /** Stops the clock for good (also from inside a tick: no further tick runs). */
  stop(): void {
    this.state = 'stopped';
    this.onTick = null;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private schedule(): void {
    const delay = Math.max(0, this.origin + this.next * this.frameMs - this.now());
    this.timer = setTimeout(() => this.fire(), delay);
    if (this.options.unref) this.timer.unref();
  }

  private fire(): void {
    this.timer = null;
    const now = this.now();
    const due = Math.floor((now - this.origin + EARLY_MS) / this.frameMs) + 1;
    const skipped = Math.max(0, due - this.next - this.options.maxCatchUp);
    this.next += skipped;
    for (let first = true; this.next < due && this.state === 'running'; first = false) {
      const index = this.next++;
      const lateMs = Math.max(0, now - (this.origin + index * this.frameMs));
      // Real time only (a test's own clock is not the process's); a skipped tick was later still.
      if (!this.options.now)
        for (let i = first ? skipped : 0; i >= 0; i--) mediaClockLateness.record(lateMs + i * this.frameMs);
      try {
        this.onTick?.({ index, skipped: first ? skipped : 0, lateMs, now });
      } catch (error) {
        this.fail(error);
      }
    }
    if (this.state === 'running') this.schedule();
  }

  private fail(error: unknown): void {
    this.stop();
    try {
      this.options.onError(error instanceof Error ? error : new Error(String(error)));
    } catch {
      // The owner's own handler failing must not escape a timer either: the clock has stopped anyway.
    }
  }
}
