import type { Multipart, MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rename } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ApiError } from '../../kernel/http/api-error';
import { FORMAT_EXTENSION, SNIFF_BYTES, sniffAudioFormat, type SampleFormat } from '../domain/audio-format';
import { UPLOAD_LIMITS } from '../domain/sample-rules';
import { DecodePool, DecodeQueueFull, DecodeTimeout, PROBE_TIMEOUT_MS } from '../infra/decode-pool';
import type { SampleStore } from '../infra/sample-store';

export interface ReceivedSample {
  readonly filename: string | null;
  readonly content_type: string | null;
  readonly format: SampleFormat;
  readonly bytes: number;
  readonly sha256: string;
  /** Absolute path in the staging directory. */
  readonly file: string;
}

export interface ReceivedUpload {
  readonly staging: string;
  readonly name: string;
  readonly samples: readonly ReceivedSample[];
}

/** Declared part types accepted besides audio/*: none given, a generic one, or Ogg's other registrations. */
const ACCEPTED_TYPES = new Set(['', 'application/octet-stream', 'application/ogg', 'video/ogg', 'application/x-ogg']);
/** The whole upload may take this long (500 MB at about 1 MB/s)… */
const UPLOAD_DEADLINE_MS = 10 * 60_000;

const tooLarge = (message: string) => new ApiError(413, 'payload_too_large', message);
const LIMITS_MESSAGE = `At most ${UPLOAD_LIMITS.maxFiles} sample files of at most ${UPLOAD_LIMITS.maxFileBytes / 1024 / 1024} MB each.`;

/**
 * Receives `POST /v1/voice_clones` (multipart/form-data: `name`, one or more `samples` files), streaming
 * each file to a staging directory under DATA_DIR/voices while it is hashed and its first bytes kept,
 * then checks every file: its declared type (a non-audio one is a 415), its bytes (WAV, FLAC, MP3 or
 * Ogg, whatever its name says) and that it starts decoding into sound (probed in a decoding worker,
 * never on the event loop). Beyond the limits it is a 413.
 * On any refusal, and when the client goes away, the staging directory is removed: nothing of a
 * refused upload stays on disk. `idleMs` bounds the wait for more bytes.
 */
export async function receiveSamples(
  request: FastifyRequest,
  store: SampleStore,
  idleMs: number,
  decoding: DecodePool,
): Promise<ReceivedUpload> {
  if (!request.isMultipart())
    throw new ApiError(
      415,
      'unsupported_media_type',
      'Send the samples as multipart/form-data: a name field and one or more samples files.',
    );
  const staging = await store.stage();
  const watchdog = startWatchdog(request, idleMs);
  try {
    let name: string | undefined;
    const samples: ReceivedSample[] = [];
    const parts = request.parts({
      limits: {
        fileSize: UPLOAD_LIMITS.maxFileBytes,
        files: UPLOAD_LIMITS.maxFiles,
        fields: 5,
        fieldSize: 1024,
        parts: UPLOAD_LIMITS.maxFiles + 5,
      },
    });
    for await (const part of parts as AsyncIterable<Multipart>) {
      if (part.type === 'field') {
        if (part.fieldname !== 'name') throw ApiError.invalid(`Unknown field ${part.fieldname}.`, part.fieldname);
        if (name !== undefined) throw ApiError.invalid('name must be given once.', 'name');
        name = checkName(part.value, part.valueTruncated);
        continue;
      }
      if (part.fieldname !== 'samples') {
        part.file.resume();
        throw ApiError.invalid(
          part.fieldname === 'name' ? 'name must be a text field, not a file.' : `Unknown field ${part.fieldname}.`,
          part.fieldname,
        );
      }
      samples.push(await receiveFile(part, staging, samples.length));
    }
    if (name === undefined) throw ApiError.invalid('name is required.', 'name');
    if (samples.length === 0) throw ApiError.invalid('samples is required: at least one audio file.', 'samples');
    for (const [i, sample] of samples.entries()) {
      const problem = await probe(decoding, sample);
      if (problem)
        throw ApiError.invalid(
          `samples[${i}]${label(sample.filename)} is not decodable audio: ${problem}.`,
          `samples[${i}]`,
        );
    }
    return { staging, name, samples };
  } catch (err) {
    await store.discard(staging);
    throw watchdog.reason() ?? asApiError(err);
  } finally {
    watchdog.stop();
  }
}

async function receiveFile(part: MultipartFile, staging: string, index: number): Promise<ReceivedSample> {
  const param = `samples[${index}]`;
  const filename = cleanFilename(part.filename);
  const declared = (part.mimetype ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (!declared.startsWith('audio/') && !ACCEPTED_TYPES.has(declared)) {
    part.file.resume();
    throw new ApiError(
      415,
      'unsupported_media_type',
      `${param}${label(filename)} is declared as ${declared}, which is not audio; send WAV, FLAC, MP3 or Ogg.`,
      param,
    );
  }
  const hash = createHash('sha256');
  const head: Buffer[] = [];
  let headBytes = 0;
  let bytes = 0;
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      bytes += chunk.length;
      if (headBytes < SNIFF_BYTES) {
        head.push(chunk);
        headBytes += chunk.length;
      }
      done(null, chunk);
    },
  });
  const partial = join(staging, `${String(index + 1).padStart(2, '0')}.upload`);
  await pipeline(part.file, tap, createWriteStream(partial));
  if (part.file.truncated) throw tooLarge(`${param}${label(filename)} is larger than 20 MB. ${LIMITS_MESSAGE}`);
  if (bytes === 0) throw ApiError.invalid(`${param}${label(filename)} is empty.`, param);
  const format = sniffAudioFormat(Buffer.concat(head).subarray(0, SNIFF_BYTES));
  if (!format)
    throw ApiError.invalid(`${param}${label(filename)} is not WAV, FLAC, MP3 or Ogg (Vorbis or Opus) audio.`, param);
  const file = join(staging, `${String(index + 1).padStart(2, '0')}.${FORMAT_EXTENSION[format]}`);
  await rename(partial, file);
  return { filename, content_type: declared || null, format, bytes, sha256: hash.digest('hex'), file };
}

/** Why the file does not start as decodable audio (null when it does), asked of a decoding worker. */
async function probe(decoding: DecodePool, sample: ReceivedSample): Promise<string | null> {
  try {
    return await decoding.probe(sample.file, sample.format);
  } catch (err) {
    if (err instanceof DecodeQueueFull)
      throw new ApiError(
        503,
        'service_unavailable',
        'Too many uploads are being checked right now; retry shortly.',
        undefined,
        {
          'retry-after': '2',
        },
      );
    if (err instanceof DecodeTimeout) return `it did not start decoding within ${PROBE_TIMEOUT_MS / 1000} seconds`;
    return `the decoder failed on it as ${sample.format}`;
  }
}

function checkName(value: unknown, truncated: boolean): string {
  const text = typeof value === 'string' ? value.trim() : '';
  if (truncated || text.length > UPLOAD_LIMITS.maxNameLength)
    throw ApiError.invalid(`name must be at most ${UPLOAD_LIMITS.maxNameLength} characters.`, 'name');
  if (text.length === 0) throw ApiError.invalid('name must not be empty.', 'name');
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (/[\u0000-\u001f\u007f]/.test(text) || text.includes('\ufffd'))
    throw ApiError.invalid('name must be valid text without control characters.', 'name');
  return text;
}

/** The client's file name, without any directory and cut to 200 characters; null when none. */
function cleanFilename(name: string | undefined): string | null {
  // eslint-disable-next-line no-control-regex -- control characters are dropped from names shown back
  const controls = /[\u0000-\u001f\u007f]/g;
  const base = ((name ?? '').split(/[\\/]/).pop() ?? '').replace(controls, '').trim();
  return base === '' ? null : base.slice(0, 200);
}

const label = (filename: string | null): string => (filename ? ` (${filename})` : '');

/** Multipart parser failures (busboy's malformed-body errors carry no status) as the API's errors. */
function asApiError(err: unknown): unknown {
  if (err instanceof ApiError) return err;
  const e = (typeof err === 'object' && err !== null ? err : {}) as { statusCode?: number; code?: string };
  if (e.statusCode === 413) return tooLarge(`The upload is too large. ${LIMITS_MESSAGE}`);
  if (e.code === 'FST_PROTO_VIOLATION') return ApiError.invalid('A field name is not allowed.');
  return ApiError.invalid('The multipart/form-data body is malformed or incomplete.');
}

/**
 * Fastify's request timeout stops at the handler; a multipart body is read by the handler itself, so
 * the upload gets its own bounds: no bytes for `idleMs`, or the whole upload past UPLOAD_DEADLINE_MS,
 * and the request is cut off (a 408 when the client still listens).
 */
function startWatchdog(request: FastifyRequest, idleMs: number) {
  const raw = request.raw;
  const started = Date.now();
  // Progress is read from the socket's byte count: a 'data' listener would start the body flowing
  // before the multipart parser is piped.
  let seen = raw.socket?.bytesRead ?? 0;
  let last = started;
  let reason: ApiError | null = null;
  const timer = setInterval(
    () => {
      const now = Date.now();
      const read = raw.socket?.bytesRead ?? seen;
      if (read !== seen) {
        seen = read;
        last = now;
      }
      if (now - last < idleMs && now - started < UPLOAD_DEADLINE_MS) return;
      reason = new ApiError(408, 'invalid_request', 'The upload took too long to arrive.');
      raw.destroy();
    },
    Math.min(1000, idleMs),
  );
  timer.unref();
  return {
    reason: () => reason,
    stop: () => clearInterval(timer),
  };
}
