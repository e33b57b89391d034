import { randomUUID } from 'node:crypto';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';

/**
 * Voice samples on disk, under DATA_DIR/voices: an upload is written into a staging directory of its
 * own (`.incoming/<uuid>`), which becomes the voice's directory (`<voice id>/`) in one rename once the
 * whole request has been received and checked, and is removed on any refusal. Paths kept in events
 * are relative to DATA_DIR/voices.
 */
export class SampleStore {
  readonly root: string;
  private readonly incoming: string;

  constructor(dataDir: string) {
    this.root = join(resolve(dataDir), 'voices');
    this.incoming = join(this.root, '.incoming');
  }

  /** A new, empty staging directory. */
  async stage(): Promise<string> {
    const dir = join(this.incoming, randomUUID());
    await mkdir(dir, { recursive: true });
    return dir;
  }

  /** Makes a staging directory the voice's own: its files are then at `<voice id>/<file name>`. */
  async commit(staging: string, voiceId: string): Promise<void> {
    await rename(this.inside(staging), this.voiceDir(voiceId));
  }

  /** Removes a directory this store made (staging or a voice's); absent already is fine. */
  async discard(dir: string): Promise<void> {
    await rm(this.inside(dir), { recursive: true, force: true });
  }

  async removeVoice(voiceId: string): Promise<void> {
    await this.discard(this.voiceDir(voiceId));
  }

  /** The absolute path of a stored sample from its relative path. */
  pathOf(relativePath: string): string {
    return this.inside(join(this.root, relativePath));
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

  private voiceDir(voiceId: string): string {
    return join(this.root, voiceId);
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

export const SAMPLE_STORE = Symbol('SAMPLE_STORE');
