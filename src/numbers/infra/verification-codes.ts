import { createHmac, hkdfSync } from 'node:crypto';
import type { AppConfig } from '../../config/config';
import { loadOrCreateKey } from '../../kernel/secret-box';

/**
 * The 6-digit codes of number verification calls (decision 61). A code is made from the call's
 * session id with a key of its own, so that a retried request (same Idempotency-Key, same session)
 * speaks the same code and no code is ever stored; what is stored is its hash, an HMAC-SHA256 over
 * the registration id and the code with another key, so that the event log does not give the code
 * away to anyone without the key (a 6-digit code's plain hash would be guessed in a moment). Both keys
 * are derived (HKDF) from the webhook secret key (WEBHOOK_SECRET_KEY or DATA_DIR/webhook-secret.key),
 * which every instance sharing a database already shares.
 */
export class VerificationCodes {
  private readonly codeKey: Buffer;
  private readonly hashKey: Buffer;

  constructor(secret: Buffer) {
    if (secret.length < 32) throw new RangeError('a verification code key needs at least 32 bytes');
    this.codeKey = Buffer.from(hkdfSync('sha256', secret, '', 'number-verification/v1/code', 32));
    this.hashKey = Buffer.from(hkdfSync('sha256', secret, '', 'number-verification/v1/hash', 32));
  }

  static fromConfig(config: AppConfig): VerificationCodes {
    return new VerificationCodes(
      loadOrCreateKey({ configuredKeyBase64: config.webhookSecretKey, dataDir: config.dataDir }),
    );
  }

  /** The code the verification call `sessionId` speaks: 6 digits (a bias below one in 4,000). */
  codeFor(sessionId: string): string {
    const n = createHmac('sha256', this.codeKey).update(sessionId).digest().readUInt32BE(0);
    return String(n % 1_000_000).padStart(6, '0');
  }

  /** The stored form of a code for the registration `phoneNumberId`: hex HMAC-SHA256. */
  hash(phoneNumberId: string, code: string): string {
    return createHmac('sha256', this.hashKey).update(`${phoneNumberId}\n${code}`).digest('hex');
  }
}

/** What the verification call's agent says: the code digit by digit, twice. */
export function spokenCode(code: string): string {
  const digits = code.split('').join(' ');
  return (
    'You are placing an automated phone number verification call. As soon as the call is answered, say exactly: ' +
    `"Your verification code is ${digits}. Again, your verification code is ${digits}. Goodbye." Then hang up. ` +
    'Say nothing else.'
  );
}
