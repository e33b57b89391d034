import type { AudioTransport, FrameSource } from '../../src/conversations';

/**
 * Two AudioTransports joined back to back, paced by a real 20 ms clock (drift-corrected timers, as
 * a media path would be): every tick pulls one frame from each side's FrameSource and hands it to
 * the other side's listeners. The agent's conversation uses `agent`; the test speaks and listens on
 * `user` (a SimulatedUser is a convenient FrameSource and listener).
 */
export class AudioLink {
  readonly agent: AudioTransport;
  readonly user: AudioTransport;
  private readonly sides: Side[];
  private timer: NodeJS.Timeout | null = null;
  private ticks = 0;
  private startedAt = 0;
  /** Largest lateness of a tick seen (ms): the test's own clock under load. */
  maxLateMs = 0;

  constructor(readonly sampleRate: number) {
    const a = new Side(sampleRate);
    const b = new Side(sampleRate);
    this.sides = [a, b];
    this.agent = a;
    this.user = b;
  }

  start(): void {
    this.startedAt = performance.now();
    const tick = (): void => {
      const [a, b] = this.sides as [Side, Side];
      const fromAgent = a.pull();
      const fromUser = b.pull();
      b.deliver(fromAgent);
      a.deliver(fromUser);
      this.ticks++;
      const due = this.startedAt + this.ticks * 20;
      const now = performance.now();
      this.maxLateMs = Math.max(this.maxLateMs, now - due);
      this.timer = setTimeout(tick, Math.max(0, due - now));
    };
    this.timer = setTimeout(tick, 20);
  }

  /** The call ends: the clock stops and both sides hear it closed. */
  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const side of this.sides) side.close();
  }
}

class Side implements AudioTransport {
  private source: FrameSource | null = null;
  private readonly frameListeners = new Set<(frame: Int16Array) => void>();
  private readonly closeListeners = new Set<() => void>();
  private closed = false;

  constructor(readonly sampleRate: number) {}

  onFrame(listener: (frame: Int16Array) => void): () => void {
    this.frameListeners.add(listener);
    return () => this.frameListeners.delete(listener);
  }

  play(source: FrameSource): void {
    this.source = source;
  }

  onClosed(listener: () => void): () => void {
    this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  pull(): Int16Array {
    return this.source?.nextFrame() ?? new Int16Array(this.sampleRate / 50);
  }

  deliver(frame: Int16Array): void {
    for (const listener of this.frameListeners) listener(frame);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const listener of this.closeListeners) listener();
  }
}

/** Mean absolute level above which a frame is taken for sound (flite's silence is exact zeros). */
const SOUND_LEVEL = 100;
export const isSound = (frame: Int16Array): boolean =>
  frame.reduce((s, v) => s + Math.abs(v), 0) / frame.length > SOUND_LEVEL;

/**
 * The user's side of the call: speaks PCM (at the link's rate) frame by frame, and records every
 * frame the agent sends with the time it arrived.
 */
export class SimulatedUser implements FrameSource {
  private readonly outgoing: Int16Array[] = [];
  readonly heard: { at: number; frame: Int16Array }[] = [];
  /** When each utterance's first and last sounding frames went out (performance.now()). */
  readonly spoken: { firstSoundAt: number | null; lastSoundAt: number | null }[] = [];
  private current: { firstSoundAt: number | null; lastSoundAt: number | null; framesLeft: number } | null = null;

  constructor(private readonly transport: AudioTransport) {
    transport.play(this);
    transport.onFrame((frame) => this.heard.push({ at: performance.now(), frame }));
  }

  /** Speaks `pcm` (at the transport's rate), after what is still being spoken. */
  say(pcm: Int16Array): void {
    const size = this.transport.sampleRate / 50;
    const frames: Int16Array[] = [];
    for (let at = 0; at < pcm.length; at += size) {
      const frame = new Int16Array(size);
      frame.set(pcm.subarray(at, at + size));
      frames.push(frame);
    }
    this.outgoing.push(...frames);
    const record = { firstSoundAt: null, lastSoundAt: null, framesLeft: frames.length };
    this.spoken.push(record);
    this.pending.push(record);
  }

  private readonly pending: { firstSoundAt: number | null; lastSoundAt: number | null; framesLeft: number }[] = [];

  nextFrame(): Int16Array | null {
    const frame = this.outgoing.shift();
    if (!frame) return null;
    this.current ??= this.pending[0] ?? null;
    const record = this.current;
    if (record) {
      if (isSound(frame)) {
        const now = performance.now();
        record.firstSoundAt ??= now;
        record.lastSoundAt = now;
      }
      if (--record.framesLeft === 0) {
        this.pending.shift();
        this.current = null;
      }
    }
    return frame;
  }

  /** Resolves when everything said has gone out. */
  async done(): Promise<void> {
    while (this.outgoing.length > 0) await new Promise((r) => setTimeout(r, 20));
  }

  /** The agent's frames that carried sound, from `since` on. */
  soundSince(since: number): { at: number; frame: Int16Array }[] {
    return this.heard.filter((h) => h.at >= since && isSound(h.frame));
  }

  /** All frames heard from `since` to `until`, joined (to recognise what the agent said). */
  audioBetween(since: number, until = Infinity): Int16Array {
    const frames = this.heard.filter((h) => h.at >= since && h.at <= until).map((h) => h.frame);
    const out = new Int16Array(frames.reduce((n, f) => n + f.length, 0));
    let at = 0;
    for (const f of frames) {
      out.set(f, at);
      at += f.length;
    }
    return out;
  }
}
