import { type AppConfig, settingsOf } from '../../config/config';
import { roomsSettings } from '../rooms.config';
import type { Clock } from '../../kernel/clock';
import { LinkSigner, linkSecret, type SignedLinkCheck } from '../../kernel/signing/signed-links';

/** What a token presented with a room link amounts to. */
export type RoomLinkCheck = SignedLinkCheck;

const TOKEN = /^(\d{1,15})\.([A-Za-z0-9_-]{43})$/;

/**
 * A room's link is `{rooms_url}/{room_id}?token={expires_at in ms}.{base64url HMAC-SHA256}`, signed
 * over the room id and the expiry (`kernel/signing/signed-links.ts`) with a key of its own: the token
 * is bound to the room and to its expiry. The same token opens the landing page and authorises the
 * page's WHIP requests. The key is ROOM_URL_SECRET, else derived from the webhook secret key that
 * every instance sharing a database already shares.
 */
export class RoomLinks {
  private readonly signer: LinkSigner;

  constructor(
    secret: Buffer,
    private readonly opts: { roomsUrl: string; clock: Clock },
  ) {
    this.signer = new LinkSigner(secret, { purpose: 'room-links/v1/token', unit: 'milliseconds' }, opts.clock);
  }

  static fromConfig(config: AppConfig, clock: Clock): RoomLinks {
    const secret = linkSecret(settingsOf(config, roomsSettings).roomUrlSecret, {
      configuredKeyBase64: config.webhookSecretKey,
      dataDir: config.dataDir,
    });
    return new RoomLinks(secret, { roomsUrl: config.roomsUrl, clock });
  }

  token(roomId: string, expiresAt: Date): string {
    const { expires, signature } = this.signer.sign(roomId, expiresAt);
    return `${expires}.${signature}`;
  }

  url(roomId: string, expiresAt: Date): string {
    return `${this.opts.roomsUrl}/${roomId}?token=${this.token(roomId, expiresAt)}`;
  }

  /** `invalid` for anything but a token signed for this room; `expired` only for a genuine one. */
  check(roomId: string, token: unknown): RoomLinkCheck {
    const match = typeof token === 'string' ? TOKEN.exec(token) : null;
    return match ? this.signer.check(roomId, match[1], match[2]) : 'invalid';
  }
}
