import { type AheadSource, frameSamples, type FrameSource } from './audio-transport';

/** How much of one agent answer was queued and played. */
export interface Playback {
  /** Samples queued for the answer so far (at the transport's rate). */
  queued: number;
  /** Samples the transport took. */
  played: number;
  /** When its first frame went out (ms, on the queue's clock); null until then. */
  startedAt: number | null;
}

/**
 * The agent's voice on its way out: answers are queued as 20 ms frames at the transport's rate and
 * the transport pulls them on its own real-time clock (FrameSource). A barge-in `flush()`es what
 * was not played at once, so the next tick sends silence; a `pause()` (the caller may be barging in)
 * stops it without losing anything, `resume()` goes on from there. Each answer is a numbered `turn`; the queue
 * knows how much of each went out (to cut an interrupted answer) and when its first frame did
 * (`agent_audio_start_ms`).
 */
export class OutputQueue implements FrameSource {
  private readonly frames: { turn: number; frame: Int16Array }[] = [];
  private readonly playbacks = new Map<number, Playback>();
  private idleWaiters: (() => void)[] = [];
  private readonly size: number;
  private firstFrameListener: ((turn: number, at: number) => void) | null = null;
  private underrunListener: (() => void) | null = null;
  private flushListener: (() => void) | null = null;
  /** Frames a transport took ahead of its clock and has not sent yet (`ahead`), oldest first. */
  private readonly taken: { turn: number; frame: Int16Array }[] = [];
  /** Paused: nothing is given to the transport until `resume`. */
  private paused = false;
  /** Pieces of the answer being made that are not queued yet (synthesis still running). */
  private awaited = 0;
  /** An answer is under way: some of it was played and more is queued or awaited. */
  private midAnswer = false;

  constructor(
    sampleRate: number,
    private readonly now: () => number,
  ) {
    this.size = frameSamples(sampleRate);
  }

  /** Queues audio of answer `turn`; the last frame is padded with silence. */
  enqueue(turn: number, samples: Int16Array): void {
    const playback = this.playbackOf(turn);
    for (let at = 0; at < samples.length; at += this.size) {
      const frame = new Int16Array(this.size);
      frame.set(samples.subarray(at, at + this.size));
      this.frames.push({ turn, frame });
      playback.queued += this.size;
    }
  }

  nextFrame(): Int16Array | null {
    if (this.paused) return null;
    const next = this.frames.shift();
    if (!next) {
      // The answer goes on but its next piece is not synthesised yet: the caller hears a gap.
      if (this.midAnswer && this.awaited > 0) this.underrunListener?.();
      else this.midAnswer = false;
      return null;
    }
    this.midAnswer = true;
    const playback = this.playbackOf(next.turn);
    if (playback.startedAt === null) {
      playback.startedAt = this.now();
      this.firstFrameListener?.(next.turn, playback.startedAt);
    }
    playback.played += this.size;
    this.wakeIdleWhenDone();
    return next.frame;
  }

  /**
   * The queue as a transport that takes frames ahead of its clock sees it (AheadSource): it calls
   * `nextFrame` only for a tick that sent silence, so an underrun is still a tick the caller heard
   * as a gap; a frame taken counts as played when taken (up to the transport's lead early).
   */
  readonly ahead: AheadSource = {
    ready: () => (this.paused ? 0 : this.frames.length),
    take: () => {
      const next = this.paused ? undefined : this.frames[0];
      if (!next) return null;
      this.taken.push(next);
      return this.nextFrame();
    },
    sent: () => {
      this.taken.shift();
      this.wakeIdleWhenDone();
    },
    onFlush: (listener) => (this.flushListener = listener),
  };

  /** A piece of the answer is being synthesised (+1), or was queued or dropped (-1). */
  await(delta: 1 | -1): void {
    this.awaited = Math.max(0, this.awaited + delta);
  }

  /** Called for each 20 ms tick that had to send silence in the middle of an answer (an underrun). */
  onUnderrun(listener: () => void): void {
    this.underrunListener = listener;
  }

  /** Drops every frame not yet played (barge-in, the end); returns how many were dropped. */
  flush(): number {
    const dropped = this.frames.length;
    this.frames.length = 0;
    this.midAnswer = false;
    this.taken.length = 0;
    this.paused = false;
    this.wakeIdle();
    this.flushListener?.();
    return dropped;
  }

  /**
   * Stops giving frames, keeping them: what a transport took ahead and did not send is taken back
   * (the transport drops it, as for a flush) and will be played first on `resume`.
   */
  pause(): void {
    if (this.paused) return;
    this.paused = true;
    if (this.taken.length === 0) return;
    for (const { turn } of this.taken) this.playbackOf(turn).played -= this.size;
    this.frames.unshift(...this.taken);
    this.taken.length = 0;
    this.flushListener?.();
  }

  /** Gives frames again, from where `pause` stopped. */
  resume(): void {
    this.paused = false;
  }

  get isPaused(): boolean {
    return this.paused;
  }

  /** Frames are waiting to be played (or to be sent, taken ahead by a transport). */
  get playing(): boolean {
    return this.frames.length > 0 || this.taken.length > 0;
  }

  playback(turn: number): Playback {
    return { ...this.playbackOf(turn) };
  }

  /** Called when the first frame of an answer goes out (from the transport's tick). */
  onFirstFrame(listener: (turn: number, at: number) => void): void {
    this.firstFrameListener = listener;
  }

  /** Resolves once nothing is left to play, nor to send of what a transport took ahead (at once when nothing is). */
  whenIdle(): Promise<void> {
    if (!this.playing) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private playbackOf(turn: number): Playback {
    let playback = this.playbacks.get(turn);
    if (!playback) {
      playback = { queued: 0, played: 0, startedAt: null };
      this.playbacks.set(turn, playback);
      // Only recent answers are asked about.
      if (this.playbacks.size > 8) this.playbacks.delete(this.playbacks.keys().next().value as number);
    }
    return playback;
  }

  private wakeIdleWhenDone(): void {
    if (!this.playing) this.wakeIdle();
  }

  private wakeIdle(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const wake of waiters) wake();
  }
}
