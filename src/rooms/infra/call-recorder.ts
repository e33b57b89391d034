import { createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Writable } from 'node:stream';
import { wavHeader } from '../../kernel/audio/wav';

/** The recording's rate for a PCMU call (8 kHz: G.711 carries nothing above 4 kHz). */
export const RECORDING_RATE = 8000;
/** The recording's rate for an Opus call: wideband speech, what speech recognisers take (decision 122). */
export const WIDEBAND_RECORDING_RATE = 16000;
/** Channel 0 (left) is the agent, channel 1 (right) the participant: the simulator's layout too. */
export type Channel = 0 | 1;

/** Opens the stream a track's raw samples are written to (a file by default; a test may inject another). */
export type OpenTrackStream = (path: string) => Writable;

interface Track {
  path: string;
  stream: Writable;
  /** Samples written so far: the next sample goes at this position of the timeline. */
  written: number;
}

/** At most this much silence is written to close one gap (a clock that jumps must not fill the disk). */
const MAX_GAP_SECONDS = 60;

export interface CallRecorderOptions {
  /** Samples per second of both channels (default 8 kHz). */
  sampleRate?: number;
  openStream?: OpenTrackStream;
}

/**
 * Records a call's two directions on one timeline (sample 0 is when the recorder started), at
 * `sampleRate` (8 kHz for PCMU calls, 16 kHz for Opus calls), streamed
 * to two raw files while the call lasts, so a long call costs no memory; `finish` interleaves them
 * into a dual-channel 16-bit PCM WAV at `path`, written aside and renamed into place. Audio that
 * arrives for a position already written (a late or repeated packet) is dropped; a gap is silence.
 *
 * A stream that fails (a full disk, a file grown past its limit) never throws into the caller or
 * the process: the recorder stops writing, keeps the first error (`failure`) and tells `onFailed`
 * once; `finish` then rejects with it.
 */
export class CallRecorder {
  private readonly tracks: [Track, Track];
  private finished: Promise<number> | null = null;
  private failedWith: Error | null = null;
  private failedListener: ((err: Error) => void) | null = null;
  /** Samples per second of both channels: positions given to `write` are in these samples. */
  readonly sampleRate: number;

  constructor(
    private readonly path: string,
    { sampleRate = RECORDING_RATE, openStream = (raw) => createWriteStream(raw) }: CallRecorderOptions = {},
  ) {
    this.sampleRate = sampleRate;
    const track = (channel: Channel): Track => {
      const raw = `${path}.${channel}.raw`;
      const stream = openStream(raw);
      // Kept for the stream's whole life: a later error (after end, while closing) is swallowed too.
      stream.on('error', (err: Error) => this.fail(err));
      return { path: raw, stream, written: 0 };
    };
    this.tracks = [track(0), track(1)];
  }

  /** A recorder whose two files are open: a directory that cannot be written is an error here, at setup. */
  static async create(path: string, options: CallRecorderOptions = {}): Promise<CallRecorder> {
    await mkdir(dirname(path), { recursive: true });
    const recorder = new CallRecorder(path, options);
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

  /** `listener` is told once, when a stream first fails (at once if one already has). */
  onFailed(listener: (err: Error) => void): void {
    this.failedListener = listener;
    if (this.failedWith) listener(this.failedWith);
  }

  write(channel: Channel, position: number, samples: Int16Array): void {
    if (this.finished || this.failedWith) return;
    const track = this.tracks[channel];
    const skip = Math.max(0, track.written - position);
    if (skip >= samples.length) return;
    const gap = Math.min(MAX_GAP_SECONDS * this.sampleRate, Math.max(0, position - track.written));
    const chunk = Buffer.alloc((gap + samples.length - skip) * 2);
    for (let i = skip; i < samples.length; i++) chunk.writeInt16LE(samples[i] ?? 0, (gap + i - skip) * 2);
    track.stream.write(chunk);
    track.written += gap + samples.length - skip;
  }

  /** Writes the WAV; resolves with its length in seconds. Calling it again returns the same. */
  finish(): Promise<number> {
    // A WAV that cannot be written (a full disk) leaves nothing behind, and rejects: the caller logs it.
    this.finished ??= this.writeWav().catch(async (err: unknown) => {
      const leftovers = [`${this.path}.partial`, ...this.tracks.map((t) => t.path)];
      await Promise.all(leftovers.map((p) => rm(p, { force: true }).catch(() => undefined)));
      throw err;
    });
    return this.finished;
  }

  /** Drops the raw files without writing a recording (the call never started). */
  async discard(): Promise<void> {
    this.finished ??= Promise.resolve(0);
    await Promise.all(this.tracks.map((t) => this.close(t)));
    await Promise.all(this.tracks.map((t) => rm(t.path, { force: true })));
  }

  private fail(err: Error): void {
    if (this.failedWith) return;
    this.failedWith = err;
    this.failedListener?.(err);
  }

  private async close(track: Track): Promise<void> {
    const stream = track.stream;
    if (stream.closed) return;
    await new Promise<void>((resolve) => {
      stream.once('close', () => resolve());
      if (stream.destroyed) return; // an errored stream closes by itself
      stream.end();
    });
  }

  private async writeWav(): Promise<number> {
    await Promise.all(this.tracks.map((t) => this.close(t)));
    if (this.failedWith) {
      // A track is missing audio: no recording rather than a wrong one.
      await Promise.all(this.tracks.map((t) => rm(t.path, { force: true })));
      throw this.failedWith;
    }
    const frames = Math.max(this.tracks[0].written, this.tracks[1].written);
    const partial = `${this.path}.partial`;
    const [agent, participant] = await Promise.all(this.tracks.map((t) => open(t.path, 'r')));
    const out = await open(partial, 'w');
    try {
      await out.write(wavHeader(2, this.sampleRate, frames * 4));
      const block = this.sampleRate; // one second of frames at a time
      for (let done = 0; done < frames; done += block) {
        const n = Math.min(block, frames - done);
        // Zero-filled: the shorter channel ends in silence.
        const left = Buffer.alloc(n * 2);
        const right = Buffer.alloc(n * 2);
        await agent?.read(left, 0, n * 2, done * 2);
        await participant?.read(right, 0, n * 2, done * 2);
        const interleaved = Buffer.alloc(n * 4);
        for (let i = 0; i < n; i++) {
          interleaved.writeInt16LE(left.readInt16LE(i * 2), i * 4);
          interleaved.writeInt16LE(right.readInt16LE(i * 2), i * 4 + 2);
        }
        await out.write(interleaved);
      }
    } finally {
      await Promise.all([out.close(), agent?.close(), participant?.close()]);
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
