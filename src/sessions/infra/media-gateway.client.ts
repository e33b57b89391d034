import { request } from 'undici';
import { signDelivery } from '../../kernel/signing/signing';

/**
 * Hands a production call to the media gateway (MEDIA_GATEWAY_URL), signed like a webhook with the
 * gateway secret. Throws on a non-2xx answer, so the timer that called it retries.
 */
export async function dispatchToMediaGateway(
  gateway: { url: string; secret: string },
  dispatchId: string,
  payload: object,
): Promise<void> {
  const body = JSON.stringify(payload);
  const headers = signDelivery({
    secret: gateway.secret,
    eventId: dispatchId,
    eventType: 'media.dispatch',
    timestampSeconds: Math.floor(Date.now() / 1000),
    body,
  });
  const response = await request(`${gateway.url}/calls`, {
    method: 'POST',
    headers,
    body,
    signal: AbortSignal.timeout(15_000),
  });
  await response.body.dump();
  if (response.statusCode >= 300) throw new Error(`media gateway answered ${response.statusCode}`);
}
