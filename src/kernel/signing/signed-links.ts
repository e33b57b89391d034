import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../clock';
import { loadOrCreateKey } from '../secret-box';

/** What a link presented to us amounts to. */
export type SignedLinkCheck = 'valid' | 'invalid' | 'expired';

export interface SignedLinkScheme {
  /** The HKDF info the link key is derived with: one per kind of link, with its version (`room-links/v1/token`). */
  purpose: string;
  /** How the expiry is written in the link: whole seconds or milliseconds since the epoch. */
  unit: 'seconds' | 'milliseconds';
}

const SIGNATURE = /^[A-Za-z0-9_-]{43}$/;
const EXPIRES = { seconds: /^\d{1,11}$/, milliseconds: /^\d{1,15}$/ };

/**
 * Signed, expiring links (a room's link, a recording's address). A link names its subject (the room,
 * the recording) and its expiry, and carries `base64url(HMAC-SHA256(key, subject + "\n" + expiry))`,
 * the expiry written as digits of the scheme's unit: the signature binds the link to its subject and
 * to its expiry, and nobody can make a link or move an expiry without the key. The key is derived
 * (HKDF-SHA256) from a secret of at least 32 bytes with the scheme's purpose, so that one secret can
 * key several kinds of link and none of them is the key it came from. Where the expiry and the
 * signature stand in the link (one token, two query parameters) is the caller's.
 */
export class LinkSigner {
  private readonly key: Buffer;

  constructor(
    secret: Buffer,
    private readonly scheme: SignedLinkScheme,
    private readonly clock: Clock,
  ) {
    this.key = deriveLinkKey(secret, scheme.purpose);
  }

  /** The expiry as the link writes it (`expiresAt` rounded up to the unit), its instant, and the signature. */
  sign(subject: string, expiresAt: Date): { expires: string; expiresAt: Date; signature: string } {
    const perUnit = this.scheme.unit === 'seconds' ? 1000 : 1;
    const units = Math.ceil(expiresAt.getTime() / perUnit);
    const expires = String(units);
    return { expires, expiresAt: new Date(units * perUnit), signature: this.signature(subject, expires) };
  }

  /**
   * The signature is checked first, in constant time, so that an unsigned or forged link learns
   * nothing (not even whether it would have expired); only a genuine link can be `expired`.
   */
  check(subject: string, expires: unknown, signature: unknown): SignedLinkCheck {
    if (typeof expires !== 'string' || typeof signature !== 'string') return 'invalid';
    if (!EXPIRES[this.scheme.unit].test(expires) || !SIGNATURE.test(signature)) return 'invalid';
    // Compared as text: base64url has more than one spelling of the same bytes, a link has one.
    const given = Buffer.from(signature, 'latin1');
    const expected = Buffer.from(this.signature(subject, expires), 'latin1');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
    const expiresMs = Number(expires) * (this.scheme.unit === 'seconds' ? 1000 : 1);
    return expiresMs <= this.clock.now().getTime() ? 'expired' : 'valid';
  }

  private signature(subject: string, expires: string): string {
    return createHmac('sha256', this.key).update(`${subject}\n${expires}`).digest('base64url');
  }
}

/** A key of its own for one job (HKDF-SHA256 with `purpose`), from a secret of at least 32 bytes. */
export function deriveLinkKey(secret: Buffer, purpose: string): Buffer {
  if (secret.length < 32) throw new RangeError(`a link key (${purpose}) needs at least 32 bytes`);
  return Buffer.from(hkdfSync('sha256', secret, '', purpose, 32));
}

/**
 * The secret links are signed with: the one configured for them (ROOM_URL_SECRET,
 * RECORDING_URL_SECRET), else the webhook secret key (WEBHOOK_SECRET_KEY or
 * DATA_DIR/webhook-secret.key), which every instance sharing a database already shares.
 */
export function linkSecret(
  configured: string | null,
  webhookKey: { configuredKeyBase64: string | null; dataDir: string },
): Buffer {
  return configured !== null ? Buffer.from(configured, 'utf8') : loadOrCreateKey(webhookKey);
}
