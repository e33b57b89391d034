/**
 * Media toolkit (src/kernel/media/): the dual-channel recording of a call, streamed to disk. Both
 * directions are written on one timeline (sample 0 is when the recording started) at `sampleRate`:
 * channel 0 (left) is the agent, channel 1 (right) the other party (the simulator's layout too).
 * Each channel goes to its own raw file while the call lasts, so a long call costs no memory: its
 * stream is corked and let go every half second of audio, so that a call costs one file write per
 * channel per half second rather than one per 20 ms frame (at hundreds of calls, those writes and
 * their callbacks took a measurable share of a core). `finish` interleaves them into a 16-bit PCM WAV written aside (`.partial`) and renamed into place.
 * Audio that arrives for a position already written (a late or repeated packet) is dropped; a gap
 * is silence; the shorter channel ends in silence.
 *
 * A stream that fails (a full disk, a file grown past its limit) never throws into the caller or
 * the process: the recorder stops writing, keeps the first error (`failure`) and tells `onFailed`
 * once; `finish` then rejects with it and leaves nothing behind.
 */
import { createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Writable } from 'node:stream';
import { wavHeader } from '../audio/wav';

/** Channel 0 (left) is the agent, channel 1 (right) the other party. */
export type Channel = 0 | 1;

/** What a media path writes a call's audio into: positions are in samples at `sampleRate`. */
export interface TimelineRecorder {
  readonly sampleRate: number;
  write(channel: Channel, position: number, samples: Int16Array): void;
}

/** Opens the stream a channel's raw samples are written to (a file by default; a test may inject another). */
export type OpenChannelStream = (path: string) => Writable;

export interface DualChannelRecorderOptions {
  /** Samples per second of both channels: 8 kHz for a phone call, 16 kHz for wideband. */
  sampleRate: number;
  openStream?: OpenChannelStream;
}

interface Track {
  path: string;
  stream: Writable;
  /** Samples written so far: the next sample goes at this position of the timeline. */
  written: number;
  /** Bytes handed to the corked stream since it was last let go; 0: not corked. */
  held: number;
}

/** At most this much silence is written to close one gap (a clock that jumps must not fill the disk). */
const MAX_GAP_SECONDS = 60;

/** A channel's stream is let go (one write of what it holds) at every this much audio. */
const FLUSH_SECONDS = 0.5;

export class DualChannelRecorder implements TimelineRecorder {
  readonly sampleRate: number;
  private readonly tracks: [Track, Track];
  private finished: Promise<number> | null = null;
  private discarded: Promise<void> | null = null;
  private failedWith: Error | null = null;
  private failedListener: ((err: Error) => void) | null = null;

  private constructor(
    /** Where the WAV is written by `finish`. */
    readonly path: string,
    { sampleRate, openStream = (raw) => createWriteStream(raw) }: DualChannelRecorderOptions,
  ) {
    this.sampleRate = sampleRate;
    const track = (channel: Channel): Track => {
      const raw = `${path}.${channel}.raw`;
      const stream = openStream(raw);
      // Kept for the stream's whole life: a later error (after end, while closing) is swallowed too.
      stream.on('error', (err: Error) => this.fail(err));
      return { path: raw, stream, written: 0, held: 0 };
    };
    this.tracks = [track(0), track(1)];
  }

  /** A recorder whose two files are open: a directory that cannot be written is an error here, at setup. */
  static async create(path: string, options: DualChannelRecorderOptions): Promise<DualChannelRecorder> {
    await mkdir(dirname(path), { recursive: true });
    const recorder = new DualChannelRecorder(path, options);
    await Promise.all(recorder.tracks.map((t) => opened(t.stream)));
    if (recorder.failedWith) {
      await recorder.discard();
      throw recorder.failedWith;
    }
    return recorder;
  }

  /** The first error of either stream, or null. */
  get failure(): Error | null {
    return this.failedWith;
  }

  /** Bytes of samples the WAV holds so far (four per sample of the timeline: two channels of 16 bits). */
  get dataBytes(): number {
    return Math.max(this.tracks[0].written, this.tracks[1].written) * 4;
  }

  /** `listener` is told once, when a stream first fails (at once if one already has). */
  onFailed(listener: (err: Error) => void): void {
    this.failedListener = listener;
    if (this.failedWith) listener(this.failedWith);
  }

  /** `samples` at `position` of the timeline on `channel` (ignored once finished, discarded or failed). */
  write(channel: Channel, position: number, samples: Int16Array): void {
    if (this.finished || this.failedWith) return;
    const track = this.tracks[channel];
    const skip = Math.max(0, track.written - position);
    if (skip >= samples.length) return;
    const gap = Math.min(MAX_GAP_SECONDS * this.sampleRate, Math.max(0, position - track.written));
    // Little-endian 16-bit, as WAV wants: the samples' bytes are copied as they are (after the gap's zeros).
    const chunk = Buffer.alloc((gap + samples.length - skip) * 2);
    const kept = samples.subarray(skip);
    Buffer.from(kept.buffer, kept.byteOffset, kept.byteLength).copy(chunk, gap * 2);
    if (track.held === 0) track.stream.cork();
    track.stream.write(chunk);
    track.held += chunk.length;
    track.written += gap + samples.length - skip;
    // `end` (finish) lets a corked stream go too; `destroy` (discard) drops what it holds.
    if (track.held >= FLUSH_SECONDS * this.sampleRate * 2) {
      track.held = 0;
      track.stream.uncork();
    }
  }

  /** Writes the WAV; resolves with its length in seconds. Calling it again returns the same. */
  finish(): Promise<number> {
    // A WAV that cannot be written (a full disk) leaves nothing behind, and rejects: the caller logs it.
    this.finished ??= this.writeWav().catch(async (err: unknown) => {
      await this.removeFiles(false);
      throw err;
    });
    return this.finished;
  }

  /**
   * Drops the recording: nothing is left behind, the WAV included when it was already finished (a
   * finish under way is waited for first). The streams are closed before the files are removed: a
   * file still being opened would otherwise be created again after its removal.
   */
  discard(): Promise<void> {
    this.discarded ??= (async () => {
      const finishing = this.finished;
      this.finished ??= Promise.resolve(0);
      await finishing?.catch(() => undefined);
      await Promise.all(this.tracks.map((t) => closed(t.stream, 'destroy')));
      await this.removeFiles(true);
    })();
    return this.discarded;
  }

  private fail(err: Error): void {
    if (this.failedWith) return;
    this.failedWith = err;
    this.failedListener?.(err);
  }

  private async removeFiles(wavToo: boolean): Promise<void> {
    const paths = [`${this.path}.partial`, ...this.tracks.map((t) => t.path), ...(wavToo ? [this.path] : [])];
    await Promise.all(paths.map((p) => rm(p, { force: true }).catch(() => undefined)));
  }

  private async writeWav(): Promise<number> {
    await Promise.all(this.tracks.map((t) => closed(t.stream, 'end')));
    // A track is missing audio: no recording rather than a wrong one (the raw files go in finish's catch).
    if (this.failedWith) throw this.failedWith;
    const frames = Math.max(this.tracks[0].written, this.tracks[1].written);
    const partial = `${this.path}.partial`;
    const [agent, other] = await Promise.all(this.tracks.map((t) => open(t.path, 'r')));
    const out = await open(partial, 'w').catch(async (err: unknown) => {
      await Promise.all([agent?.close(), other?.close()]);
      throw err;
    });
    try {
      await out.write(wavHeader(2, this.sampleRate, frames * 4));
      const block = this.sampleRate; // one second of frames at a time
      for (let done = 0; done < frames; done += block) {
        const n = Math.min(block, frames - done);
        // Zero-filled: the shorter channel ends in silence.
        const left = Buffer.alloc(n * 2);
        const right = Buffer.alloc(n * 2);
        await agent?.read(left, 0, n * 2, done * 2);
        await other?.read(right, 0, n * 2, done * 2);
        // Typed views of the fresh (aligned) buffers, not a read and a write call per sample.
        const l = new Int16Array(left.buffer, left.byteOffset, n);
        const r = new Int16Array(right.buffer, right.byteOffset, n);
        const interleaved = new Int16Array(n * 2);
        for (let i = 0; i < n; i++) {
          interleaved[i * 2] = l[i] ?? 0;
          interleaved[i * 2 + 1] = r[i] ?? 0;
        }
        await out.write(Buffer.from(interleaved.buffer));
      }
    } finally {
      await Promise.all([out.close(), agent?.close(), other?.close()]);
    }
    await rename(partial, this.path);
    await Promise.all(this.tracks.map((t) => rm(t.path, { force: true })));
    return frames / this.sampleRate;
  }
}

/** Resolves once a file stream is open (or has failed: the error is the recorder's); other streams at once. */
function opened(stream: Writable): Promise<void> {
  if (!(stream as { pending?: boolean }).pending || stream.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    stream.once('ready', () => resolve());
    stream.once('close', () => resolve());
    stream.once('error', () => resolve());
  });
}

/** Ends (what was written reaches the file) or destroys (it need not) a stream; resolves once it has closed. */
function closed(stream: Writable, how: 'end' | 'destroy'): Promise<void> {
  if (stream.closed) return Promise.resolve();
  return new Promise<void>((resolve) => {
    stream.once('close', () => resolve());
    if (stream.destroyed) return; // an errored or destroyed stream closes by itself
    if (how === 'end') stream.end();
    else stream.destroy();
  });
}
