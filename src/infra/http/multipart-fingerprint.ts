import type { Multipart, MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import { Transform, type TransformOptions } from 'node:stream';
import { pipeline } from 'node:stream';
import { finished } from 'node:stream/promises';
import { ApiError } from '../../kernel/http/api-error';

/**
 * Bounds of the interceptor's own reading of a body it will not pass on (a replay or a 422): those of
 * the one multipart route (POST /v1/voice_clones: 25 files of 20 MB, a name field). A body past them
 * is not the request stored under the key anyway: it is refused as soon as a bound is passed.
 */
const READ_LIMITS = { fileSize: 20 * 1024 * 1024, files: 25, fields: 5, fieldSize: 1024, parts: 30 };

/** Time bounds of that reading: no bytes for `idleMs`, or the whole body not in after `deadlineMs`. */
export interface ReadBounds {
  readonly idleMs: number;
  readonly deadlineMs: number;
}
/** As the route's own (sample-upload.ts): 30 s without a byte, 10 minutes in all. */
export const READ_BOUNDS: ReadBounds = { idleMs: 30_000, deadlineMs: 10 * 60_000 };

/**
 * The Idempotency-Key fingerprint of a multipart/form-data request (decision 63): SHA-256 over the
 * method and path, then each part in order, a field as its name and value, a file as its field name,
 * file name, declared type and the SHA-256 of its bytes. The bytes are hashed as they stream, never
 * kept. The multipart boundary is not part of it, so the same form sent again matches.
 */
export class MultipartFingerprint {
  private readonly entries: (string | null)[] = [];
  private ended = false;

  private constructor(private readonly prefix: string) {}

  /**
   * Taps `request.parts()` for a route that reads the body itself: every part the route reads is
   * hashed on its way to the route. `digest()` is null unless the route read the body to its end.
   */
  static tap(request: FastifyRequest, prefix: string): MultipartFingerprint {
    const fingerprint = new MultipartFingerprint(prefix);
    const parts = request.parts.bind(request);
    request.parts = (options) => fingerprint.observe(parts(options));
    return fingerprint;
  }

  /**
   * Reads the whole body, hashing and dropping it: for a request the route will not see. A client
   * idle for `bounds.idleMs`, or still sending after `bounds.deadlineMs`, is cut off (a slow drip
   * holds nothing for longer than that).
   */
  static async read(request: FastifyRequest, prefix: string, bounds: ReadBounds = READ_BOUNDS): Promise<string> {
    const fingerprint = new MultipartFingerprint(prefix);
    const raw = request.raw;
    let seen = raw.socket?.bytesRead ?? 0;
    const started = Date.now();
    let last = started;
    const idle = setInterval(
      () => {
        const now = Date.now();
        const read = raw.socket?.bytesRead ?? seen;
        if (read !== seen) [seen, last] = [read, now];
        if (now - last > bounds.idleMs || now - started > bounds.deadlineMs) raw.destroy();
      },
      Math.min(1000, bounds.idleMs, bounds.deadlineMs),
    );
    idle.unref();
    try {
      for await (const part of fingerprint.observe(request.parts({ limits: READ_LIMITS }))) {
        if (part.type === 'file') await finished(part.file.resume());
      }
    } catch {
      throw ApiError.invalid('The multipart/form-data body is malformed or incomplete.');
    } finally {
      clearInterval(idle);
    }
    const digest = fingerprint.digest();
    if (digest === null) throw ApiError.invalid('The multipart/form-data body is malformed or incomplete.');
    return digest;
  }

  /** The fingerprint, once every part was read to its end; else null. */
  digest(): string | null {
    if (!this.ended || this.entries.some((e) => e === null)) return null;
    return createHash('sha256')
      .update(`${this.prefix}\nmultipart/form-data\n${this.entries.join('\n')}`)
      .digest('hex');
  }

  private async *observe(parts: AsyncIterableIterator<Multipart>): AsyncIterableIterator<Multipart> {
    for await (const part of parts) {
      if (part.type === 'field') {
        this.entries.push(JSON.stringify(['field', part.fieldname, String(part.value), part.valueTruncated]));
        yield part;
      } else {
        yield this.hashed(part);
      }
    }
    this.ended = true;
  }

  /** The part with its file stream passed through a hash (busboy's stream itself is left alone). */
  private hashed(part: MultipartFile): MultipartFile {
    const index = this.entries.push(null) - 1;
    const header = ['file', part.fieldname, part.filename, part.mimetype];
    const bytes = createHash('sha256');
    const source = part.file;
    const entries = this.entries;
    const tap = new FileTap(source, {
      transform(chunk: Buffer, _encoding, done) {
        bytes.update(chunk);
        done(null, chunk);
      },
      flush(done) {
        entries[index] = JSON.stringify([...header, source.truncated, bytes.digest('hex')]);
        done();
      },
    });
    pipeline(source, tap, () => undefined);
    return { ...part, file: tap };
  }
}

type FileStream = MultipartFile['file'];

/** A pass-through of a part's file stream that is one itself: what the route reads of busboy's stream (a size limit reached) reads through it. */
class FileTap extends Transform implements FileStream {
  constructor(
    private readonly source: FileStream,
    options: TransformOptions,
  ) {
    super(options);
  }

  get truncated(): boolean {
    return this.source.truncated;
  }

  get bytesRead(): number {
    return this.source.bytesRead;
  }
}
