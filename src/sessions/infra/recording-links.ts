import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import type { AppConfig } from '../../config/config';
import type { Clock } from '../../kernel/clock';
import { loadOrCreateKey } from '../../kernel/secret-box';

/** What a link presented to `{recordings_url}` amounts to. */
export type LinkCheck = 'valid' | 'invalid' | 'expired';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';
const SIGNATURE = /^[A-Za-z0-9_-]{43}$/;
const EXPIRES = /^\d{1,11}$/;

/**
 * Recording files are served at expiring signed addresses:
 * `{recordings_url}/{recording_id}.wav?expires={unix seconds}&signature={base64url HMAC-SHA256}`,
 * the HMAC taken over `recording_id + "\n" + expires` with a key of its own. Anyone holding a link
 * can fetch the file until it expires (links go to webhook receivers and browsers); nobody can make
 * or extend one without the key. The key is RECORDING_URL_SECRET, else derived (HKDF) from the
 * webhook secret key (WEBHOOK_SECRET_KEY or DATA_DIR/webhook-secret.key), which every instance
 * sharing a database already shares. See docs/calls-and-test-pool.md.
 */
export class RecordingLinks {
  private readonly signingKey: Buffer;
  private readonly idKey: Buffer;

  constructor(
    secret: Buffer,
    private readonly opts: { recordingsUrl: string; ttlMs: number; clock: Clock },
  ) {
    if (secret.length < 32) throw new RangeError('a recording link key needs at least 32 bytes');
    // Separate keys for separate jobs, neither of them the key the secrets are sealed with.
    this.signingKey = Buffer.from(hkdfSync('sha256', secret, '', 'recording-links/v1/signature', 32));
    this.idKey = Buffer.from(hkdfSync('sha256', secret, '', 'recording-links/v1/recording-id', 32));
  }

  static fromConfig(config: AppConfig, clock: Clock): RecordingLinks {
    const secret =
      config.recordingUrlSecret !== null
        ? Buffer.from(config.recordingUrlSecret, 'utf8')
        : loadOrCreateKey({ configuredKeyBase64: config.webhookSecretKey, dataDir: config.dataDir });
    return new RecordingLinks(secret, { recordingsUrl: config.recordingsUrl, ttlMs: config.recordingUrlTtlMs, clock });
  }

  /** A link valid for RECORDING_URL_TTL from `now`. */
  link(recordingId: string, now: Date = this.opts.clock.now()): { url: string; expiresAt: Date } {
    const expires = Math.ceil((now.getTime() + this.opts.ttlMs) / 1000);
    const query = new URLSearchParams({ expires: String(expires), signature: this.sign(recordingId, String(expires)) });
    return {
      url: `${this.opts.recordingsUrl}/${recordingId}.wav?${query.toString()}`,
      expiresAt: new Date(expires * 1000),
    };
  }

  /**
   * The signature is checked first, in constant time, so that an unsigned or forged link learns
   * nothing (not even whether it would have expired); only a genuine link can be `expired`.
   */
  check(recordingId: string, expires: unknown, signature: unknown): LinkCheck {
    if (typeof expires !== 'string' || typeof signature !== 'string') return 'invalid';
    if (!EXPIRES.test(expires) || !SIGNATURE.test(signature)) return 'invalid';
    // Compared as text: base64url has more than one spelling of the same bytes, a link has one.
    const given = Buffer.from(signature, 'latin1');
    const expected = Buffer.from(this.sign(recordingId, expires), 'latin1');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
    return Number(expires) * 1000 <= this.opts.clock.now().getTime() ? 'expired' : 'valid';
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

  private sign(recordingId: string, expires: string): string {
    return createHmac('sha256', this.signingKey).update(`${recordingId}\n${expires}`).digest('base64url');
  }
}
