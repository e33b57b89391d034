/**
 * The blob store port: files that every instance must reach (recordings, voice samples). Two
 * adapters implement it: PostgreSQL (default, `blobs` and `blob_chunks`) and any S3-compatible
 * object store (BLOB_STORE=s3). One contract suite (test/int/infra/blob-store.contract.ts) runs against
 * both. Whatever one instance stores, deletes or purges here is so for every instance.
 */
import { Transform, type Readable } from 'node:stream';

/** A blob being read: its size and type, and its bytes as a stream (read on demand, bounded memory). */
export interface BlobRead {
  readonly size: number;
  readonly contentType: string;
  readonly stream: Readable;
}

/** What is stored: the whole bytes, or a stream of `size` bytes (a stream of another length fails the put). */
export type BlobBody = Buffer | { readonly stream: Readable; readonly size: number };

export interface BlobStore {
  /** `postgres` or `s3`, for logs and metrics. */
  readonly kind: string;
  /** Stores `body` under `key`, replacing what was there; readers see the whole blob or nothing. */
  put(key: string, body: BlobBody, contentType: string): Promise<void>;
  /** Stores what is under `from` under `to` too (no bytes through this process); false when `from` is absent. */
  copy(from: string, to: string): Promise<boolean>;
  /** The blob under `key`, or null. */
  open(key: string): Promise<BlobRead | null>;
  /** Removes the blob; removing an absent one is fine (every delete is safe to repeat). */
  delete(key: string): Promise<void>;
  /** Removes every blob whose key starts with `prefix`; answers how many there were. */
  deletePrefix(prefix: string): Promise<number>;
  close(): Promise<void>;
}

export const BLOB_STORE = Symbol('BLOB_STORE');

/** Keys are relative paths of safe segments: `recordings/rec_abc.wav`, `voices/voi_x/01.wav`. */
const KEY = /^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/;

/** Throws on a key outside the grammar above (no `..`, no leading slash, no empty segment). */
export function checkKey(key: string): string {
  if (key.length > 512 || !KEY.test(key)) throw new RangeError(`not a blob key: ${JSON.stringify(key)}`);
  return key;
}

/** A prefix is a key followed by `/`, or a key's beginning. */
export function checkPrefix(prefix: string): string {
  checkKey(prefix.endsWith('/') ? prefix.slice(0, -1) : prefix);
  return prefix;
}

/**
 * Passes `stream` through, failing it when it gives more or fewer bytes than `size`: a request that
 * announced its length then ends with an error instead of waiting for bytes that never come.
 */
export function exactly(stream: Readable, size: number): Readable {
  let seen = 0;
  const check = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      done(seen > size ? new Error(`the stream gave more than the ${size} bytes announced`) : null, chunk);
    },
    flush(done) {
      done(seen === size ? null : new Error(`the stream gave ${seen} bytes, not the ${size} announced`));
    },
  });
  stream.on('error', (err) => check.destroy(err));
  return stream.pipe(check);
}
