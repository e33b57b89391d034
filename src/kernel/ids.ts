import { v7 as uuidv7 } from 'uuid';
import { createHash, randomBytes } from 'node:crypto';

/** Event ids are UUIDv7 (time-ordered), generated once, where the event is decided. */
export function newEventId(): string {
  return uuidv7();
}

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/** Resource ids: a readable prefix and 20 random base-36 characters, e.g. `ses_0k3...`. */
export function newId(prefix: string): string {
  const bytes = randomBytes(20);
  let out = '';
  for (const b of bytes) out += ALPHABET[b % 36];
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
