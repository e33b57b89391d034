import { v7 as uuidv7 } from 'uuid';
import { createHash, randomFillSync } from 'node:crypto';

/** Event ids are UUIDv7 (time-ordered), generated once, where the event is decided. */
export function newEventId(): string {
  return uuidv7();
}

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/**
 * Random bytes drawn from the system's generator 4 KiB at a time and handed out 20 per id: one
 * `randomBytes(20)` per id was a call into OpenSSL and a new buffer each, about 1 % of a
 * `POST /v1/calls`. The same generator, the same bytes per id; never handed out twice.
 */
const ID_BYTES = 20;
const pool = Buffer.alloc(4096 - (4096 % ID_BYTES));
let poolOffset = pool.length;

/** Resource ids: a readable prefix and 20 random base-36 characters, e.g. `ses_0k3...`. */
export function newId(prefix: string): string {
  if (poolOffset + ID_BYTES > pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  let out = '';
  for (let i = poolOffset; i < poolOffset + ID_BYTES; i++) out += ALPHABET[(pool[i] as number) % 36];
  poolOffset += ID_BYTES;
  return `${prefix}_${out}`;
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
