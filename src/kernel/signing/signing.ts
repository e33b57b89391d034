import { createHmac, randomBytes } from 'node:crypto';

export const WEBHOOK_SECRET_PREFIX = 'whsec_';

/** A new endpoint secret: `whsec_` + base64 of 32 random bytes (docs/webhooks.md, "Security"). */
export function generateWebhookSecret(): string {
  return WEBHOOK_SECRET_PREFIX + randomBytes(32).toString('base64');
}

export interface SignDeliveryInput {
  secret: string;
  eventId: string;
  eventType: string;
  timestampSeconds: number;
  /** The exact bytes that will be sent; signatures cover the raw body, never a re-serialisation. */
  body: string;
}

/** `sha256=` + hex HMAC-SHA256 over `<ts>.<body>`, keyed with the whole `whsec_…` string (docs/events.md, "Delivery headers"). */
export function xWebhookSignature(secret: string, timestampSeconds: number, body: string): string {
  const hex = createHmac('sha256', secret).update(`${timestampSeconds}.`).update(body, 'utf8').digest('hex');
  return `sha256=${hex}`;
}

/** Standard Webhooks `v1,` + base64 HMAC-SHA256 over `<id>.<ts>.<body>`, keyed with the decoded secret. */
export function standardWebhookSignature(
  secret: string,
  eventId: string,
  timestampSeconds: number,
  body: string,
): string {
  const key = Buffer.from(stripPrefix(secret), 'base64');
  const b64 = createHmac('sha256', key).update(`${eventId}.${timestampSeconds}.`).update(body, 'utf8').digest('base64');
  return `v1,${b64}`;
}

/** Every header of one delivery attempt (docs/events.md, "Delivery headers": the X-Webhook-* four and the Standard Webhooks trio). */
export function signDelivery(input: SignDeliveryInput): Record<string, string> {
  const { secret, eventId, eventType, timestampSeconds, body } = input;
  if (!Number.isSafeInteger(timestampSeconds) || timestampSeconds < 0) {
    throw new RangeError('timestampSeconds must be a non-negative integer number of Unix seconds');
  }
  if (!secret.startsWith(WEBHOOK_SECRET_PREFIX) || secret.length === WEBHOOK_SECRET_PREFIX.length) {
    throw new RangeError('secret must be a whsec_ secret');
  }
  for (const [name, value] of [
    ['eventId', eventId],
    ['eventType', eventType],
  ] as const) {
    if (!HEADER_TOKEN.test(value))
      throw new RangeError(`${name} must be non-empty visible ASCII (it is sent as a header)`);
  }
  const ts = String(timestampSeconds);
  return {
    'Content-Type': 'application/json',
    'X-Webhook-Signature': xWebhookSignature(secret, timestampSeconds, body),
    'X-Webhook-Timestamp': ts,
    'X-Webhook-Id': eventId,
    'X-Webhook-Event': eventType,
    'webhook-id': eventId,
    'webhook-timestamp': ts,
    'webhook-signature': standardWebhookSignature(secret, eventId, timestampSeconds, body),
  };
}

const HEADER_TOKEN = /^[\x21-\x7e]+$/;

function stripPrefix(secret: string): string {
  return secret.startsWith(WEBHOOK_SECRET_PREFIX) ? secret.slice(WEBHOOK_SECRET_PREFIX.length) : secret;
}
