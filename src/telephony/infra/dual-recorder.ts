/**
 * The dual-channel recording of a phone call: the agent on the left channel, the other party on the
 * right, 16-bit PCM at 8 kHz (what G.711 carries), the simulator's and rooms' layout. The media
 * session gives both sides one 20 ms frame per tick (what it sent, what it played out of its jitter
 * buffer), so the frames are paired as they come and streamed interleaved to a raw file while the
 * call lasts (a long call costs no memory); `finish` puts the WAV header in front. A side that has
 * no frame (before the peer's media starts) is silence.
 */
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { wavHeader } from '../../kernel/audio/wav';

export const RECORDING_RATE = 8000;
/**
 * Frames one side may wait for its pair: one (both sides come in the same tick, the sent frame first).
 * A second frame of one side with none of the other means the other is silent (not started yet).
 */
const MAX_AHEAD = 1;

export class DualRecorder {
  private readonly agent: Int16Array[] = [];
  private readonly other: Int16Array[] = [];
  private readonly raw: WriteStream;
  private samples = 0;
  private failure: Error | null = null;
  private finished: Promise<number> | null = null;

  private constructor(private readonly path: string) {
    this.raw = createWriteStream(`${path}.pcm`);
    this.raw.on('error', (err: Error) => (this.failure ??= err));
  }

  static async create(path: string): Promise<DualRecorder> {
    await mkdir(dirname(path), { recursive: true });
    return new DualRecorder(path);
  }

  /** A frame the agent's side sent. */
  agentFrame(frame: Int16Array): void {
    this.push(this.agent, this.other, frame);
  }

  /** A frame heard from the other party. */
  otherFrame(frame: Int16Array): void {
    this.push(this.other, this.agent, frame);
  }

  /** Writes the WAV at `path`; resolves with its length in seconds (once, however often called). */
  finish(): Promise<number> {
    this.finished ??= this.writeWav();
    return this.finished;
  }

  /** Drops what was recorded. */
  async discard(): Promise<void> {
    this.finished ??= Promise.resolve(0);
    // The file is opened asynchronously: removed before its stream has closed, an open still pending
    // would create it again afterwards (seen under load).
    if (!this.raw.closed) {
      const closed = new Promise<void>((resolve) => this.raw.once('close', () => resolve()));
      this.raw.destroy();
      await closed;
    }
    await rm(`${this.path}.pcm`, { force: true });
  }

  private push(mine: Int16Array[], theirs: Int16Array[], frame: Int16Array): void {
    if (this.finished || this.failure) return;
    mine.push(frame);
    if (mine.length > MAX_AHEAD && theirs.length === 0) theirs.push(new Int16Array(frame.length));
    this.flush();
  }

  private flush(): void {
    while (this.agent.length > 0 && this.other.length > 0) {
      const left = this.agent.shift() ?? new Int16Array(0);
      const right = this.other.shift() ?? new Int16Array(0);
      const n = Math.max(left.length, right.length);
      const chunk = Buffer.alloc(n * 4);
      for (let i = 0; i < n; i++) {
        chunk.writeInt16LE(left[i] ?? 0, i * 4);
        chunk.writeInt16LE(right[i] ?? 0, i * 4 + 2);
      }
      this.raw.write(chunk);
      this.samples += n;
    }
  }

  private async writeWav(): Promise<number> {
    // The side still waiting for its pair is padded with silence.
    while (this.agent.length > 0 || this.other.length > 0) {
      if (this.agent.length === 0) this.agent.push(new Int16Array(this.other[0]?.length ?? 0));
      if (this.other.length === 0) this.other.push(new Int16Array(this.agent[0]?.length ?? 0));
      this.flush();
    }
    await new Promise<void>((resolve) => this.raw.end(() => resolve()));
    if (this.failure) throw this.failure;
    const pcm = `${this.path}.pcm`;
    const { size } = await stat(pcm);
    const out = createWriteStream(this.path);
    out.write(wavHeader(2, RECORDING_RATE, size));
    await pipeline(createReadStream(pcm), out);
    await rm(pcm, { force: true });
    return this.samples / RECORDING_RATE;
  }
}
