import { v7 as uuidv7 } from 'uuid';
import { randomBytes } from 'node:crypto';

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
