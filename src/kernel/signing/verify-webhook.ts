/**
 * Receiver-side verification of Voice Agent Platform webhook deliveries.
 *
 * Self-contained (only `node:crypto`) so it can ship as-is in the client library.
 *
 * Every delivery is signed twice; either scheme is accepted (X-Webhook-* wins when both are present):
 *   - `X-Webhook-Signature: sha256=<hex HMAC-SHA256("<ts>.<raw body>")>` keyed with the whole `whsec_…`
 *     secret, plus `X-Webhook-Timestamp: <ts>`;
 *   - Standard Webhooks: `webhook-signature: v1,<base64 HMAC-SHA256("<id>.<ts>.<raw body>")>` keyed with the
 *     base64-decoded part after `whsec_`, plus `webhook-id` and `webhook-timestamp`.
 * The timestamp must be within `toleranceSeconds` (default 300) of the receiver's clock, in either direction.
 *
 * Verify the exact raw bytes received: parsing the JSON and serialising it again breaks the signature.
 *
 * Express:
 * ```ts
 * import express from 'express';
 * import { verifyWebhook } from './verify-webhook';
 *
 * app.post('/webhooks', express.raw({ type: 'application/json' }), (req, res) => {
 *   const result = verifyWebhook({
 *     secret: process.env.WEBHOOK_SECRET ?? '',
 *     headers: req.headers,
 *     rawBody: req.body, // a Buffer, thanks to express.raw()
 *   });
 *   if (!result.ok) return res.status(400).json({ error: result.reason });
 *   // result.event is the envelope { id, type, tenant_id, created_at, data }; dedupe on its id.
 *   res.sendStatus(204);
 * });
 * ```
 *
 * Fastify:
 * ```ts
 * fastify.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
 * fastify.post('/webhooks', async (req, reply) => {
 *   try {
 *     const event = verifyWebhookOrThrow({ secret, headers: req.headers, rawBody: req.body as Buffer });
 *     // handle event…
 *     return reply.code(204).send();
 *   } catch (err) {
 *     if (err instanceof WebhookVerificationError) return reply.code(400).send({ error: err.reason });
 *     throw err;
 *   }
 * });
 * ```
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** Node's `IncomingHttpHeaders` shape, or a fetch `Headers` object. Names are matched case-insensitively. */
export type WebhookHeaders = Record<string, string | string[] | undefined> | { get(name: string): string | null };

export interface VerifyWebhookOptions {
  /** The endpoint secret, `whsec_…`, as returned on creation or rotation. */
  secret: string;
  headers: WebhookHeaders;
  /** The request body exactly as received. */
  rawBody: string | Uint8Array;
  /** Allowed clock difference in seconds, in either direction. Default 300. */
  toleranceSeconds?: number;
  /** Current time in epoch milliseconds. Default `Date.now`. */
  now?: () => number;
}

export type WebhookVerificationFailureReason =
  | 'missing_signature'
  | 'missing_timestamp'
  | 'invalid_timestamp'
  | 'timestamp_too_old'
  | 'timestamp_too_new'
  | 'signature_mismatch'
  | 'invalid_body';

export type WebhookSignatureScheme = 'x-webhook' | 'standard';

export type VerifyWebhookResult =
  | { ok: true; scheme: WebhookSignatureScheme; event: unknown }
  | { ok: false; reason: WebhookVerificationFailureReason };

const DEFAULT_TOLERANCE_SECONDS = 300;
const SECRET_PREFIX = 'whsec_';

const MESSAGES: Record<WebhookVerificationFailureReason, string> = {
  missing_signature: 'No webhook signature header (X-Webhook-Signature, or webhook-signature with webhook-id).',
  missing_timestamp: 'No webhook timestamp header (X-Webhook-Timestamp or webhook-timestamp).',
  invalid_timestamp: 'The webhook timestamp header is not a Unix time in seconds.',
  timestamp_too_old: 'The webhook timestamp is too far in the past.',
  timestamp_too_new: 'The webhook timestamp is too far in the future.',
  signature_mismatch: 'The webhook signature does not match the body.',
  invalid_body: 'The webhook body is not valid JSON.',
};

export class WebhookVerificationError extends Error {
  constructor(readonly reason: WebhookVerificationFailureReason) {
    super(MESSAGES[reason]);
    this.name = 'WebhookVerificationError';
  }
}

/**
 * Checks signature and timestamp of one delivery and parses its body.
 * A missing `webhook-id` makes the Standard Webhooks signature unusable, so it counts as `missing_signature`.
 */
export function verifyWebhook(options: VerifyWebhookOptions): VerifyWebhookResult {
  const { secret, headers, rawBody } = options;
  const toleranceSeconds = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const now = options.now ?? Date.now;
  if (typeof secret !== 'string' || secret.length === 0) {
    throw new TypeError('verifyWebhook: secret must be the non-empty whsec_ endpoint secret');
  }
  if (!(toleranceSeconds >= 0)) {
    throw new TypeError('verifyWebhook: toleranceSeconds must be a non-negative number');
  }

  const xSignature = header(headers, 'x-webhook-signature');
  const stdSignature = header(headers, 'webhook-signature');
  const stdId = header(headers, 'webhook-id');

  let scheme: WebhookSignatureScheme;
  let timestampText: string | undefined;
  if (xSignature !== undefined) {
    scheme = 'x-webhook';
    timestampText = header(headers, 'x-webhook-timestamp');
  } else if (stdSignature !== undefined && stdId !== undefined) {
    scheme = 'standard';
    timestampText = header(headers, 'webhook-timestamp');
  } else {
    return fail('missing_signature');
  }

  if (timestampText === undefined) return fail('missing_timestamp');
  if (!/^\d{1,15}$/.test(timestampText)) return fail('invalid_timestamp');
  const timestamp = Number(timestampText);
  const age = Math.floor(now() / 1000) - timestamp;
  if (age > toleranceSeconds) return fail('timestamp_too_old');
  if (age < -toleranceSeconds) return fail('timestamp_too_new');

  const body = toBuffer(rawBody);
  const signed =
    scheme === 'x-webhook'
      ? matchesXWebhook(secret, timestampText, body, xSignature ?? '')
      : matchesStandard(secret, stdId ?? '', timestampText, body, stdSignature ?? '');
  if (!signed) return fail('signature_mismatch');

  let event: unknown;
  try {
    event = JSON.parse(body.toString('utf8'));
  } catch {
    return fail('invalid_body');
  }
  return { ok: true, scheme, event };
}

/** Like {@link verifyWebhook}, but returns the parsed event or throws a {@link WebhookVerificationError}. */
export function verifyWebhookOrThrow<T = unknown>(options: VerifyWebhookOptions): T {
  const result = verifyWebhook(options);
  if (!result.ok) throw new WebhookVerificationError(result.reason);
  return result.event as T;
}

function matchesXWebhook(secret: string, timestamp: string, body: Buffer, received: string): boolean {
  const expected = 'sha256=' + createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex');
  return constantTimeEqual(expected, received);
}

function matchesStandard(secret: string, id: string, timestamp: string, body: Buffer, received: string): boolean {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  const expected = 'v1,' + createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest('base64');
  let matched = false;
  // Several signatures may be listed (e.g. during a key rotation); one match suffices.
  for (const candidate of received.split(/\s+/)) {
    if (candidate.startsWith('v1,') && constantTimeEqual(expected, candidate)) matched = true;
  }
  return matched;
}

function constantTimeEqual(expected: string, received: string): boolean {
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(received, 'utf8');
  // Lengths are public (the format is fixed); only the content comparison must not leak timing.
  return a.length === b.length && timingSafeEqual(a, b);
}

function header(headers: WebhookHeaders, lowerName: string): string | undefined {
  let value: string | string[] | null | undefined;
  if (isFetchHeaders(headers)) {
    value = headers.get(lowerName);
  } else {
    value = headers[lowerName];
    if (value === undefined) {
      for (const key of Object.keys(headers)) {
        if (key.toLowerCase() === lowerName) {
          value = headers[key];
          break;
        }
      }
    }
  }
  if (Array.isArray(value)) value = value.join(' ');
  if (value === null || value === undefined) return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

function isFetchHeaders(headers: WebhookHeaders): headers is { get(name: string): string | null } {
  return typeof (headers as { get?: unknown }).get === 'function';
}

function toBuffer(body: string | Uint8Array): Buffer {
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  return Buffer.isBuffer(body) ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
}

function fail(reason: WebhookVerificationFailureReason): VerifyWebhookResult {
  return { ok: false, reason };
}
