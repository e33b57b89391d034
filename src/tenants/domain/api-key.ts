import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { newId } from '../../kernel/ids';
import type { IssuedKey } from './tenant.decider';

/** Keys look like `vap_<12 chars>_<43 chars>`; the part before the second underscore is the public prefix. */
export function generateApiKey(): { apiKey: string; issued: IssuedKey } {
  const prefix = newId('vap').slice(0, 16);
  const apiKey = `${prefix}_${randomBytes(32).toString('base64url')}`;
  return { apiKey, issued: { prefix, hash: hashApiKey(apiKey) } };
}

/** Keys carry 256 random bits, so one SHA-256 is enough (a slow hash would only slow every request). */
export function hashApiKey(apiKey: string): string {
  return createHash('sha256').update(apiKey).digest('hex');
}

export function apiKeyPrefix(apiKey: string): string | null {
  const match = /^(vap_[0-9a-z]{12})_[A-Za-z0-9_-]{43}$/.exec(apiKey);
  return match?.[1] ?? null;
}

export function hashesEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}
