import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import type { AppConfig } from '../../config/config';
import type { Clock } from '../../kernel/clock';
import { loadOrCreateKey } from '../../kernel/secret-box';

/** What a token presented with a room link amounts to. */
export type RoomLinkCheck = 'valid' | 'invalid' | 'expired';

const TOKEN = /^(\d{1,15})\.([A-Za-z0-9_-]{43})$/;

/**
 * A room's link is `{rooms_url}/{room_id}?token={expires_at in ms}.{base64url HMAC-SHA256}`, the
 * HMAC taken over `room_id + "\n" + expires_at` with a key of its own: the token is bound to the
 * room and to its expiry, and nobody can make one or move an expiry without the key. The same token
 * opens the landing page and authorises the page's WHIP requests. The key is ROOM_URL_SECRET, else
 * derived (HKDF) from the webhook secret key that every instance sharing a database already shares.
 */
export class RoomLinks {
  private readonly key: Buffer;

  constructor(
    secret: Buffer,
    private readonly opts: { roomsUrl: string; clock: Clock },
  ) {
    if (secret.length < 32) throw new RangeError('a room link key needs at least 32 bytes');
    this.key = Buffer.from(hkdfSync('sha256', secret, '', 'room-links/v1/token', 32));
  }

  static fromConfig(config: AppConfig, clock: Clock): RoomLinks {
    const secret =
      config.roomUrlSecret !== null
        ? Buffer.from(config.roomUrlSecret, 'utf8')
        : loadOrCreateKey({ configuredKeyBase64: config.webhookSecretKey, dataDir: config.dataDir });
    return new RoomLinks(secret, { roomsUrl: config.roomsUrl, clock });
  }

  token(roomId: string, expiresAt: Date): string {
    const expires = String(expiresAt.getTime());
    return `${expires}.${this.sign(roomId, expires)}`;
  }

  url(roomId: string, expiresAt: Date): string {
    return `${this.opts.roomsUrl}/${roomId}?token=${this.token(roomId, expiresAt)}`;
  }

  /**
   * The signature is checked first, in constant time, so that a forged token learns nothing (not even
   * whether the room would have expired); only a genuine token can be `expired`.
   */
  check(roomId: string, token: unknown): RoomLinkCheck {
    if (typeof token !== 'string') return 'invalid';
    const match = TOKEN.exec(token);
    if (!match?.[1] || !match[2]) return 'invalid';
    const given = Buffer.from(match[2], 'latin1');
    const expected = Buffer.from(this.sign(roomId, match[1]), 'latin1');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
    return Number(match[1]) <= this.opts.clock.now().getTime() ? 'expired' : 'valid';
  }

  private sign(roomId: string, expires: string): string {
    return createHmac('sha256', this.key).update(`${roomId}\n${expires}`).digest('base64url');
  }
}
