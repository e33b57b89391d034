import { generateWebhookSecret, signDelivery } from '../signing/signing';
import { ApiError } from './api-error';
import { requireGatewaySignature } from './gateway-signature';

const secret = generateWebhookSecret();
const rawBody = JSON.stringify({ session_id: 'ses_1', seq: 1, signal: { kind: 'answered' } });

function signed(overrides: { secret?: string; body?: string; timestampSeconds?: number } = {}) {
  const headers = signDelivery({
    secret: overrides.secret ?? secret,
    eventId: 'sig_1',
    eventType: 'media.signal',
    timestampSeconds: overrides.timestampSeconds ?? Math.floor(Date.now() / 1000),
    body: overrides.body ?? rawBody,
  });
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}

function refusal(run: () => void): { status: number; type: string; message: string } | null {
  try {
    run();
    return null;
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return { status: err.status, type: err.type, message: err.message };
  }
}

describe('requireGatewaySignature', () => {
  it('lets through a request signed with the gateway secret over the raw body', () => {
    expect(refusal(() => requireGatewaySignature({ headers: signed(), rawBody }, secret))).toBeNull();
  });

  it('answers 404 when no gateway secret is configured: the route does not exist', () => {
    for (const none of [null, undefined, ''])
      expect(refusal(() => requireGatewaySignature({ headers: signed(), rawBody }, none))).toEqual({
        status: 404,
        type: 'not_found',
        message: 'No such route.',
      });
  });

  it.each([
    ['missing_signature', () => ({ headers: {}, rawBody })],
    ['signature_mismatch', () => ({ headers: signed({ secret: generateWebhookSecret() }), rawBody })],
    ['signature_mismatch', () => ({ headers: signed(), rawBody: rawBody.replace('1', '2') })],
    ['signature_mismatch', () => ({ headers: signed() })],
    [
      'timestamp_too_old',
      () => ({ headers: signed({ timestampSeconds: Math.floor(Date.now() / 1000) - 301 }), rawBody }),
    ],
  ])('answers 401 naming the reason: %s', (reason, request) => {
    expect(refusal(() => requireGatewaySignature(request(), secret))).toEqual({
      status: 401,
      type: 'authentication',
      message: `Signature check failed: ${reason}.`,
    });
  });
});
