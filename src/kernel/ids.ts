import { v7 as uuidv7 } from 'uuid';
import { createHash, randomFillSync } from 'node:crypto';

/** Event ids are UUIDv7 (time-ordered), generated once, where the event is decided. */
export function newEventId(): string {
  return uuidv7();
}

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/**
 * Random bytes drawn from the system's generator 4 KiB at a time and handed out a few per id: one
 * `randomBytes(n)` per id was a call into OpenSSL and a new buffer each, a visible share of a
 * `POST /v1/calls` (a resource id and a request id; see docs/benchmarks.md). The same generator, the
 * same number of bytes per id; no byte is handed out twice.
 */
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;

/** Where the next `size` fresh random bytes start in `pool`. */
function randomBlock(size: number): number {
  if (poolOffset + size > pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const start = poolOffset;
  poolOffset += size;
  return start;
}

/** Resource ids: a readable prefix and 20 random base-36 characters, e.g. `ses_0k3...`. */
export function newId(prefix: string): string {
  const start = randomBlock(20);
  let out = '';
  for (let i = start; i < start + 20; i++) out += ALPHABET[(pool[i] as number) % 36];
  return `${prefix}_${out}`;
}

/** A request's id (the `request-id` header and error bodies): `req_` and 12 random bytes in hex. */
export function newRequestId(): string {
  const start = randomBlock(12);
  return `req_${pool.toString('hex', start, start + 12)}`;
}

/**
 * The same resource id for the same seed (e.g. a tenant and its Idempotency-Key): a retried command
 * addresses the resource the first attempt created, whether or not that attempt's answer was lost.
 */
export function idFromSeed(prefix: string, seed: string): string {
  const bytes = createHash('sha256').update(seed).digest().subarray(0, 20);
  let out = '';
  for (const b of bytes) out += ALPHABET[b % 36];
  return `${prefix}_${out}`;
}
