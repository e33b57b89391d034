import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, open, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { wavHeader } from '../../kernel/audio/wav';

/** Bytes gathered before one write to the file: about a second of 16 kHz stereo. */
const BLOCK_BYTES = 64 * 1024;

/**
 * A 16-bit PCM WAV written to disk as the audio comes (a persona call's recording): samples are
 * gathered in blocks of BLOCK_BYTES and appended to the file, so a long call holds one block in
 * memory, not the call; `finish` writes the final lengths into the header, in place (no second
 * copy of the file or of the audio). The file is at `path` from the start, its header saying no
 * length until then.
 */
export class WavFileWriter {
  private readonly out: WriteStream;
  private block = Buffer.allocUnsafe(BLOCK_BYTES);
  private used = 0;
  private bytes = 0;
  private failure: Error | null = null;
  private done: Promise<void> | null = null;

  private constructor(
    readonly path: string,
    private readonly channels: number,
    private readonly sampleRate: number,
  ) {
    this.out = createWriteStream(path);
    this.out.on('error', (err: Error) => (this.failure ??= err));
    this.out.write(wavHeader(channels, sampleRate, 0));
  }

  static async create(path: string, channels: number, sampleRate: number): Promise<WavFileWriter> {
    await mkdir(dirname(path), { recursive: true });
    return new WavFileWriter(path, channels, sampleRate);
  }

  /** Bytes of samples written so far. */
  get dataBytes(): number {
    return this.bytes;
  }

  /** Bytes of the block being filled: all the writer itself holds (at most BLOCK_BYTES). */
  get blockBytes(): number {
    return this.used;
  }

  /** Appends interleaved samples (ignored once finished or failed). */
  write(samples: Int16Array): void {
    if (this.done || this.failure) return;
    const bytes = Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength);
    for (let at = 0; at < bytes.length;) {
      const count = Math.min(bytes.length - at, BLOCK_BYTES - this.used);
      bytes.copy(this.block, this.used, at, at + count);
      this.used += count;
      at += count;
      if (this.used === BLOCK_BYTES) this.flush();
    }
    this.bytes += bytes.length;
  }

  /** Ends the file and writes its lengths into the header (once, however often called). */
  finish(): Promise<void> {
    this.done ??= this.close();
    return this.done;
  }

  /** Drops the file. */
  async discard(): Promise<void> {
    this.done ??= Promise.resolve();
    this.out.destroy();
    await rm(this.path, { force: true });
  }

  private flush(): void {
    if (this.used === 0) return;
    this.out.write(this.block.subarray(0, this.used));
    this.block = Buffer.allocUnsafe(BLOCK_BYTES);
    this.used = 0;
  }

  private async close(): Promise<void> {
    this.flush();
    await new Promise<void>((resolve) => this.out.end(() => resolve()));
    if (this.failure) throw this.failure;
    const file = await open(this.path, 'r+');
    try {
      await file.write(wavHeader(this.channels, this.sampleRate, this.bytes), 0, 44, 0);
    } finally {
      await file.close();
    }
  }
}
