import type { TimelineRecorder } from '../../kernel/media/dual-channel-recorder';
import { MediaClock, type MediaTick } from '../../kernel/media/media-clock';
import { TransportListeners } from '../../kernel/media/transport-listeners';
import { type AudioTransport, type FrameSource, frameSamples, type Keypad } from '../pipeline/audio-transport';

/** At most this many frames are sent at once to catch up after the event loop stalled. */
const MAX_CATCH_UP = 10;
const FRAME_MS = 20;
/** A key pressed on one end reaches the other this long after (a tone's length), `w` waits 500 ms. */
const KEY_MS = 100;
const PAUSE_MS = 500;
const KEYS = /^[0-9*#A-Dw]*$/;

/**
 * Two ends of a call that exists only in this process: what one end plays the other hears, paced by
 * one real-time 20 ms clock (src/kernel/media/media-clock.ts), as a phone line would carry it. A
 * test persona call puts the agent's conversation on `agent` and the simulated callee on `callee`.
 * Both directions go to the `recorder` when there is one (a persona call's DualChannelRecorder, on
 * disk: the agent left, the callee right), each tick's frames at tick × frame samples of its
 * timeline, up to the call's maximum length: nothing of the call is kept in memory here. A tick
 * that throws (an end's source) ends the call. Each end has a keypad: a key pressed on one is
 * told to the other (as a phone line's RFC 4733 events would be).
 */
export class LoopbackCall {
  readonly agent: AudioTransport;
  readonly callee: AudioTransport;
  private readonly ends: [End, End];
  /** A tick that throws ends the call: the clock has stopped. */
  private readonly clock = new MediaClock({ maxCatchUp: MAX_CATCH_UP, onError: () => this.close() });
  private closed = false;
  private readonly frame: number;
  /** Frames carried so far (each end sent one per tick). */
  private carried = 0;

  constructor(
    readonly sampleRate: number,
    /** Where the call's audio goes (the agent on channel 0, the callee on 1), at `sampleRate`; none: not recorded. */
    private readonly recorder: TimelineRecorder | null = null,
    private readonly maxRecordedFrames = 3_600 * 50,
  ) {
    if (recorder && recorder.sampleRate !== sampleRate)
      throw new Error(`The call is at ${sampleRate} Hz, its recorder at ${recorder.sampleRate} Hz.`);
    this.frame = frameSamples(sampleRate);
    this.ends = [new End(sampleRate, () => this.close()), new End(sampleRate, () => this.close())];
    this.ends[0].peer = this.ends[1];
    this.ends[1].peer = this.ends[0];
    this.agent = this.ends[0];
    this.callee = this.ends[1];
  }

  /** Starts the clock: from now on each end is asked for a frame every 20 ms. */
  start(): void {
    if (this.closed) return;
    this.clock.start((tick) => this.tick(tick));
  }

  /** Ends the call for both ends (each end's onClosed listeners run once). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.clock.stop();
    for (const end of this.ends) end.closeNow();
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Seconds of audio carried so far. */
  get seconds(): number {
    return (this.carried * FRAME_MS) / 1000;
  }

  private tick({ index }: MediaTick): void {
    const silence = new Int16Array(this.frame);
    const fromAgent = this.ends[0].pull() ?? silence;
    const fromCallee = this.ends[1].pull() ?? silence;
    if (this.recorder && index < this.maxRecordedFrames) {
      this.recorder.write(0, index * this.frame, fromAgent);
      this.recorder.write(1, index * this.frame, fromCallee);
    }
    this.carried++;
    this.ends[1].hear(fromAgent);
    this.ends[0].hear(fromCallee);
  }
}

class End implements AudioTransport {
  private source: FrameSource | null = null;
  private readonly listeners = new TransportListeners();
  private readonly digitListeners = new Set<(digit: string) => void>();
  private closed = false;
  /** The other end: where this end's keys are heard. */
  peer: End | null = null;
  readonly keypad: Keypad = {
    onDigit: (listener) => {
      this.digitListeners.add(listener);
      return () => this.digitListeners.delete(listener);
    },
    press: async (digits) => {
      if (!KEYS.test(digits)) throw new Error(`Not keys (0-9, *, #, A-D, w): ${digits}`);
      for (const key of digits) {
        await new Promise((resolve) => setTimeout(resolve, key === 'w' ? PAUSE_MS : KEY_MS));
        if (this.closed) return;
        if (key !== 'w') this.peer?.pressed(key);
      }
    },
  };

  constructor(
    readonly sampleRate: number,
    /** Either end hanging up ends the call. */
    readonly hangUp: () => void,
  ) {}

  /** A key pressed on the other end. */
  pressed(digit: string): void {
    if (this.closed) return;
    for (const listener of this.digitListeners) listener(digit);
  }

  onFrame(listener: (frame: Int16Array) => void): () => void {
    return this.listeners.onFrame(listener);
  }

  play(source: FrameSource): void {
    this.source = source;
  }

  onClosed(listener: () => void): () => void {
    return this.listeners.onClosed(listener);
  }

  pull(): Int16Array | null {
    return this.source?.nextFrame() ?? null;
  }

  hear(frame: Int16Array): void {
    this.listeners.heard(frame);
  }

  closeNow(): void {
    this.closed = true;
    this.listeners.closed();
  }
}
