/**
 * Webhook signatures: checking a delivery (`verify`), and signing one as the platform does (`sign`,
 * used by `vap listen`). Either of the two signatures a delivery carries is accepted:
 *   - `X-Webhook-Signature: sha256=<hex HMAC-SHA256 of "<X-Webhook-Timestamp>.<raw body>">`, keyed with
 *     the whole `whsec_…` secret (docs/events.md, "Delivery headers");
 *   - Standard Webhooks: `webhook-signature: v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>">`,
 *     keyed with the base64-decoded part after `whsec_`.
 * Always verify the raw bytes received: parsing the JSON and serialising it again breaks the signature.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { WebhookEvent } from './generated/events.js';

/** Node's `IncomingHttpHeaders`, a plain object, or a fetch `Headers`. Names match case-insensitively. */
export type WebhookHeaders = Record<string, string | string[] | undefined> | { get(name: string): string | null };

export interface VerifyOptions {
  /** Allowed difference from this machine's clock, in seconds, either way. Default 300. */
  toleranceSeconds?: number;
  /** The current time in milliseconds (tests). Default `Date.now()`. */
  now?: number;
}

export type WebhookVerificationReason =
  | 'missing_signature'
  | 'missing_timestamp'
  | 'invalid_timestamp'
  | 'timestamp_too_old'
  | 'timestamp_too_new'
  | 'signature_mismatch'
  | 'invalid_body';

const MESSAGES: Record<WebhookVerificationReason, string> = {
  missing_signature: 'No signature header (X-Webhook-Signature, or webhook-signature with webhook-id).',
  missing_timestamp: 'No timestamp header (X-Webhook-Timestamp or webhook-timestamp).',
  invalid_timestamp: 'The timestamp header is not a Unix time in seconds.',
  timestamp_too_old: 'The timestamp is older than the tolerance: a replay, or a clock far off.',
  timestamp_too_new: 'The timestamp is further in the future than the tolerance: a clock far off.',
  signature_mismatch: 'No signature matches the body with this secret.',
  invalid_body: 'The body is not a JSON event envelope.',
};

/** A delivery that must be refused (answer it with a 400); `reason` says why. */
export class WebhookVerificationError extends Error {
  constructor(readonly reason: WebhookVerificationReason) {
    super(MESSAGES[reason]);
    this.name = 'WebhookVerificationError';
  }
}

export const WEBHOOK_SECRET_PREFIX = 'whsec_';

/**
 * Checks one delivery and returns its event, typed by `type` (a union over the catalog), or throws a
 * {@link WebhookVerificationError}. `rawBody` is the body exactly as received.
 */
export function verify(
  rawBody: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string,
  options: VerifyOptions = {},
): WebhookEvent {
  if (typeof secret !== 'string' || secret.length === 0)
    throw new TypeError('webhooks.verify: secret must be the endpoint secret (whsec_…)');
  if (typeof rawBody !== 'string' && !(rawBody instanceof Uint8Array))
    throw new TypeError(
      'webhooks.verify: rawBody must be the raw body (a string or Buffer), not a parsed object: ' +
        'use express.raw(), webhooks.rawBody(req) or await request.text()',
    );
  const tolerance = options.toleranceSeconds ?? 300;
  const xSignature = header(headers, 'x-webhook-signature');
  const stdSignature = header(headers, 'webhook-signature');
  const stdId = header(headers, 'webhook-id');
  const useX = xSignature !== undefined;
  if (!useX && (stdSignature === undefined || stdId === undefined))
    throw new WebhookVerificationError('missing_signature');
  const timestamp = header(headers, useX ? 'x-webhook-timestamp' : 'webhook-timestamp');
  if (timestamp === undefined) throw new WebhookVerificationError('missing_timestamp');
  if (!/^\d{1,15}$/.test(timestamp)) throw new WebhookVerificationError('invalid_timestamp');
  const age = Math.floor((options.now ?? Date.now()) / 1000) - Number(timestamp);
  if (age > tolerance) throw new WebhookVerificationError('timestamp_too_old');
  if (age < -tolerance) throw new WebhookVerificationError('timestamp_too_new');

  const body = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : Buffer.from(rawBody);
  const ok = useX
    ? equal(xSignatureOf(secret, timestamp, body), xSignature ?? '')
    : (stdSignature ?? '')
        .split(/\s+/)
        .some((candidate) => equal(standardSignatureOf(secret, stdId ?? '', timestamp, body), candidate));
  if (!ok) throw new WebhookVerificationError('signature_mismatch');

  let event: unknown;
  try {
    event = JSON.parse(body.toString('utf8'));
  } catch {
    throw new WebhookVerificationError('invalid_body');
  }
  const e = event as Partial<WebhookEvent> | null;
  if (typeof e !== 'object' || e === null || typeof e.id !== 'string' || typeof e.type !== 'string')
    throw new WebhookVerificationError('invalid_body');
  return event as WebhookEvent;
}

/**
 * The headers of a delivery of `body` signed with `secret`, as the platform sends them: the four
 * `X-Webhook-*` headers and the Standard Webhooks trio (what `vap listen` forwards with).
 */
export function sign(
  body: string,
  { id, type, secret, timestamp }: { id: string; type: string; secret: string; timestamp?: number },
): Record<string, string> {
  const ts = String(timestamp ?? Math.floor(Date.now() / 1000));
  const bytes = Buffer.from(body, 'utf8');
  return {
    'content-type': 'application/json',
    'x-webhook-signature': xSignatureOf(secret, ts, bytes),
    'x-webhook-timestamp': ts,
    'x-webhook-id': id,
    'x-webhook-event': type,
    'webhook-id': id,
    'webhook-timestamp': ts,
    'webhook-signature': standardSignatureOf(secret, id, ts, bytes),
  };
}

/** A new secret: `whsec_` and base64 of 32 random bytes, like the platform's. */
export function generateSecret(): string {
  return WEBHOOK_SECRET_PREFIX + randomBytes(32).toString('base64');
}

/** Reads a Node request's body as raw bytes (Express without a body parser on the route, a plain `http` server). */
export async function rawBody(request: IncomingMessage & { body?: unknown }): Promise<Buffer> {
  if (Buffer.isBuffer(request.body)) return request.body;
  if (typeof request.body === 'string') return Buffer.from(request.body, 'utf8');
  if (request.body !== undefined && request.readableEnded)
    throw new TypeError(
      'The body was already parsed (express.json()?): mount express.raw({ type: "application/json" }) on the webhook route',
    );
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string));
  return Buffer.concat(chunks);
}

/** Verifies a web-standard `Request` (Next.js route handlers, Hono, Deno-style servers) from its raw bytes. */
export async function verifyRequest(request: Request, secret: string, options?: VerifyOptions): Promise<WebhookEvent> {
  return verify(new Uint8Array(await request.arrayBuffer()), request.headers, secret, options);
}

interface MiddlewareResponse {
  statusCode: number;
  setHeader(name: string, value: string): unknown;
  end(body?: string): unknown;
}

/**
 * Express (or Connect, or a plain `http` server) middleware: reads the raw body, verifies it, sets
 * `req.webhookEvent` and calls `next()`; answers 400 with the reason otherwise. Mount it on the
 * webhook route, before any JSON body parser: `app.post('/webhooks', webhooks.express(secret), handler)`.
 */
export function express(
  secret: string,
  options?: VerifyOptions,
): (
  req: IncomingMessage & { body?: unknown; webhookEvent?: WebhookEvent },
  res: MiddlewareResponse,
  next: (err?: unknown) => void,
) => void {
  return (req, res, next) => {
    rawBody(req)
      .then((body) => {
        req.webhookEvent = verify(body, req.headers, secret, options);
        next();
      })
      .catch((err: unknown) => {
        if (!(err instanceof WebhookVerificationError)) return next(err);
        res.statusCode = 400;
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ error: err.reason, message: err.message }));
      });
  };
}

/** The part of a Fastify instance that {@link fastifyRawBody} uses. */
interface FastifyLike {
  removeContentTypeParser(type: string | string[]): unknown;
  addContentTypeParser(
    type: string,
    options: { parseAs: 'buffer' },
    parser: (req: unknown, body: Buffer, done: (err: Error | null, body?: Buffer) => void) => void,
  ): unknown;
}

/**
 * Fastify: in the scope it is called on (register your webhook route in a plugin of its own), JSON
 * bodies arrive as the raw `Buffer`, ready for `verify(request.body, request.headers, secret)`.
 */
export function fastifyRawBody(scope: FastifyLike): void {
  scope.removeContentTypeParser('application/json');
  scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
}

function xSignatureOf(secret: string, timestamp: string, body: Buffer): string {
  return 'sha256=' + createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex');
}

function standardSignatureOf(secret: string, id: string, timestamp: string, body: Buffer): string {
  const key = Buffer.from(
    secret.startsWith(WEBHOOK_SECRET_PREFIX) ? secret.slice(WEBHOOK_SECRET_PREFIX.length) : secret,
    'base64',
  );
  return 'v1,' + createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest('base64');
}

/** Constant-time comparison of the expected and received strings (their lengths are public). */
function equal(expected: string, received: string): boolean {
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(received, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  let value: string | string[] | null | undefined;
  if (typeof (headers as { get?: unknown }).get === 'function') value = (headers as Headers).get(name);
  else {
    const record = headers as Record<string, string | string[] | undefined>;
    value = record[name] ?? Object.entries(record).find(([k]) => k.toLowerCase() === name)?.[1];
  }
  if (Array.isArray(value)) value = value.join(' ');
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}

/** The `webhooks` helpers as one object (also on every client as `client.webhooks`). */
export const webhooks = {
  verify,
  verifyRequest,
  sign,
  generateSecret,
  rawBody,
  express,
  fastifyRawBody,
};
export type Webhooks = typeof webhooks;
