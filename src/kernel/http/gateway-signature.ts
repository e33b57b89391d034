import { verifyWebhook, type WebhookHeaders } from '../signing/verify-webhook';
import { ApiError } from './api-error';

/**
 * A request as a signed route sees it: its headers, and the body exactly as received, which the JSON
 * parser keeps as `rawBody` (http-app.ts). A Fastify request is one.
 */
export interface SignedRequest {
  headers: WebhookHeaders;
  rawBody?: unknown;
}

/**
 * Refuses a request that the media gateway did not sign (docs/media-gateway.md). Its requests are
 * signed with MEDIA_GATEWAY_SECRET exactly like our webhooks (either scheme, a timestamp within five
 * minutes of our clock, compared in constant time: `signing/verify-webhook.ts`), over the raw body,
 * and checked before the body is read. Without a secret the gateway's routes do not exist: 404. A
 * failed check is a 401 naming the reason.
 */
export function requireGatewaySignature(request: SignedRequest, secret: string | null | undefined): void {
  if (!secret) throw ApiError.notFound('route');
  const rawBody = typeof request.rawBody === 'string' ? request.rawBody : '';
  const verified = verifyWebhook({ secret, headers: request.headers, rawBody });
  if (!verified.ok) throw ApiError.unauthenticated(`Signature check failed: ${verified.reason}.`);
}
