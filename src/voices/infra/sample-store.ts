import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, isAbsolute, join, relative, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import type { BlobStore } from '../../infra/blobs/blob-store.port';

/**
 * Voice samples. An upload is received into a local staging directory of its own
 * (DATA_DIR/voices/.incoming/<uuid>), removed on any refusal; once the whole request has been received
 * and checked, `commit` puts its files into the blob store, which every instance reaches, as
 * `voices/<voice id>/<upload id>/<file name>`, and removes the staging directory. Paths kept in
 * events are `<voice id>/<upload id>/<file name>` (`<voice id>/<file name>` before decision 67). Samples stored by versions before the blob store stay where they were,
 * DATA_DIR/voices/<voice id>/, read when the store has none and removed with the voice
 * (docs/decisions/0065-recordings-and-voice-samples-live-in-one-blob-store-that.md).
 */
export class SampleStore {
  readonly root: string;
  private readonly incoming: string;

  constructor(
    dataDir: string,
    private readonly blobs: BlobStore,
  ) {
    this.root = join(resolve(dataDir), 'voices');
    this.incoming = join(this.root, '.incoming');
  }

  /** A new, empty staging directory. */
  async stage(): Promise<string> {
    const dir = join(this.incoming, randomUUID());
    await mkdir(dir, { recursive: true });
    return dir;
  }

  /**
   * Stores the staged files as one upload of the voice (`<voice id>/<upload id>/<file name>`: apart
   * from any other attempt under the same voice id), then removes the staging directory. A failure
   * stores nothing: what this upload already put is removed again, nothing else.
   */
  async commit(staging: string, voiceId: string, uploadId: string): Promise<void> {
    const dir = this.inside(staging);
    try {
      for (const name of (await readdir(dir)).sort()) {
        const file = join(dir, name);
        const { size } = await stat(file);
        const key = this.keyOf(`${voiceId}/${uploadId}/${name}`);
        await this.blobs.put(key, { stream: createReadStream(file), size }, typeOf(name));
      }
    } catch (err) {
      await this.removeUpload(voiceId, uploadId).catch(() => undefined);
      throw err;
    }
    await this.discard(dir);
  }

  /** Removes the files of one upload (`commit`) that was not recorded; the voice's others stay. */
  async removeUpload(voiceId: string, uploadId: string): Promise<void> {
    await this.blobs.deletePrefix(`voices/${voiceId}/${uploadId}/`);
  }

  /** Voices whose samples an earlier version left under DATA_DIR/voices/<voice id>/. */
  async legacyVoices(): Promise<string[]> {
    const entries = await readdir(this.root, { withFileTypes: true }).catch(() => []);
    return entries.filter((e) => e.isDirectory() && /^voi_[A-Za-z0-9]+$/.test(e.name)).map((e) => e.name);
  }

  /** Puts an earlier version's files of the voice into the blob store (the local ones stay: `removeVoice`). */
  async storeLegacy(voiceId: string): Promise<void> {
    const dir = this.inside(join(this.root, voiceId));
    for (const name of (await readdir(dir)).sort()) {
      const file = join(dir, name);
      const { size } = await stat(file);
      await this.blobs.put(this.keyOf(`${voiceId}/${name}`), { stream: createReadStream(file), size }, typeOf(name));
    }
  }

  /** Removes a staging directory this store made; absent already is fine. */
  async discard(dir: string): Promise<void> {
    await rm(this.inside(dir), { recursive: true, force: true });
  }

  /** Removes the voice's samples from the blob store (for every instance) and any older version's files. */
  async removeVoice(voiceId: string): Promise<void> {
    await this.blobs.deletePrefix(`voices/${voiceId}/`);
    await this.removeLocal(voiceId);
  }

  /** Removes an older version's files of the voice, on this instance's disk only. */
  async removeLocal(voiceId: string): Promise<void> {
    await rm(this.inside(join(this.root, voiceId)), { recursive: true, force: true });
  }

  /** A stored sample's bytes, from its path as kept in events (`<voice id>/<file name>`). */
  async open(relativePath: string): Promise<Readable> {
    const blob = await this.blobs.open(this.keyOf(relativePath));
    if (blob) return blob.stream;
    const legacy = this.inside(join(this.root, relativePath));
    if (!(await stat(legacy).catch(() => null))?.isFile()) throw new Error(`sample ${relativePath} is not stored`);
    return createReadStream(legacy);
  }

  /**
   * Runs `work` on a local copy of a stored sample (the decoder reads files), in a temporary
   * directory of its own that is removed afterwards, whatever happens.
   */
  async withLocalCopy<T>(relativePath: string, work: (path: string) => Promise<T>): Promise<T> {
    const dir = await mkdtemp(join(tmpdir(), 'vap-sample-'));
    try {
      const path = join(dir, basename(relativePath));
      await pipeline(await this.open(relativePath), createWriteStream(path));
      return await work(path);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  /** Staging directories left by a crash mid-upload, older than `olderThanMs`, are removed (at start). */
  async sweepStaging(olderThanMs: number, now = Date.now()): Promise<number> {
    let names: string[];
    try {
      names = await readdir(this.incoming);
    } catch {
      return 0;
    }
    let removed = 0;
    for (const name of names) {
      const dir = join(this.incoming, name);
      const info = await stat(dir).catch(() => null);
      if (info && now - info.mtimeMs > olderThanMs) {
        await rm(dir, { recursive: true, force: true });
        removed++;
      }
    }
    return removed;
  }

  /** `voices/<voice id>/<file name>`; the blob store refuses anything but plain segments. */
  private keyOf(relativePath: string): string {
    return `voices/${relativePath}`;
  }

  /** Refuses any path outside DATA_DIR/voices (a stored path is never trusted blindly). */
  private inside(path: string): string {
    const absolute = resolve(path);
    const rel = relative(this.root, absolute);
    if (rel === '' || rel.startsWith('..') || isAbsolute(rel))
      throw new Error(`path outside the sample store: ${path}`);
    return absolute;
  }
}

const CONTENT_TYPES: Record<string, string> = {
  wav: 'audio/wav',
  flac: 'audio/flac',
  mp3: 'audio/mpeg',
  ogg: 'audio/ogg',
};

function typeOf(name: string): string {
  return CONTENT_TYPES[name.split('.').pop() ?? ''] ?? 'application/octet-stream';
}

export const SAMPLE_STORE = Symbol('SAMPLE_STORE');
