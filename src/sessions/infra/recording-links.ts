import { createHmac } from 'node:crypto';
import { type AppConfig, settingsOf } from '../../config/config';
import { sessionsSettings } from '../sessions.config';
import type { Clock } from '../../kernel/clock';
import { deriveLinkKey, LinkSigner, linkSecret, type SignedLinkCheck } from '../../kernel/signing/signed-links';

/** What a link presented to `{recordings_url}` amounts to. */
export type LinkCheck = SignedLinkCheck;

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/**
 * Recording files are served at expiring signed addresses:
 * `{recordings_url}/{recording_id}.wav?expires={unix seconds}&signature={base64url HMAC-SHA256}`,
 * signed over the recording id and the expiry (`kernel/signing/signed-links.ts`) with a key of its
 * own. Anyone holding a link can fetch the file until it expires (links go to webhook receivers and
 * browsers); nobody can make or extend one without the key. The key is RECORDING_URL_SECRET, else
 * derived from the webhook secret key (WEBHOOK_SECRET_KEY or DATA_DIR/webhook-secret.key), which
 * every instance sharing a database already shares. See docs/calls-and-test-pool.md.
 */
export class RecordingLinks {
  private readonly signer: LinkSigner;
  private readonly idKey: Buffer;

  constructor(
    secret: Buffer,
    private readonly opts: { recordingsUrl: string; ttlMs: number; clock: Clock },
  ) {
    // Separate keys for separate jobs, neither of them the key the secrets are sealed with.
    this.signer = new LinkSigner(secret, { purpose: 'recording-links/v1/signature', unit: 'seconds' }, opts.clock);
    this.idKey = deriveLinkKey(secret, 'recording-links/v1/recording-id');
  }

  static fromConfig(config: AppConfig, clock: Clock): RecordingLinks {
    const { recordingUrlSecret, recordingUrlTtlMs } = settingsOf(config, sessionsSettings);
    const secret = linkSecret(recordingUrlSecret, {
      configuredKeyBase64: config.webhookSecretKey,
      dataDir: config.dataDir,
    });
    return new RecordingLinks(secret, { recordingsUrl: config.recordingsUrl, ttlMs: recordingUrlTtlMs, clock });
  }

  /** A link valid for RECORDING_URL_TTL from `now` (rounded up to the second). */
  link(recordingId: string, now: Date = this.opts.clock.now()): { url: string; expiresAt: Date } {
    const { expires, expiresAt, signature } = this.signer.sign(recordingId, new Date(now.getTime() + this.opts.ttlMs));
    const query = new URLSearchParams({ expires, signature });
    return { url: `${this.opts.recordingsUrl}/${recordingId}.wav?${query.toString()}`, expiresAt };
  }

  /** `invalid` for anything but a link signed for this recording; `expired` only for a genuine one. */
  check(recordingId: string, expires: unknown, signature: unknown): LinkCheck {
    return this.signer.check(recordingId, expires, signature);
  }

  /**
   * The simulator's recording id for a session: `rec_` and 24 base-36 characters of a keyed hash of
   * the session id. Nobody without the key can compute it from a session id, and a retried timer
   * names the same file (a random id would leave the first attempt's file behind).
   */
  recordingIdFor(sessionId: string): string {
    const bytes = createHmac('sha256', this.idKey).update(sessionId).digest().subarray(0, 24);
    let out = '';
    for (const b of bytes) out += ALPHABET[b % 36];
    return `rec_${out}`;
  }
}
