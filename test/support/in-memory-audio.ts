import type { AudioTransport, FrameSource } from '../../src/conversations';

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
