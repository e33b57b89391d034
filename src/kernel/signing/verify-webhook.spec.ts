import { createHmac } from 'node:crypto';
import { generateWebhookSecret, signDelivery } from './signing';
import {
  verifyWebhook,
  verifyWebhookOrThrow,
  WebhookVerificationError,
  type VerifyWebhookOptions,
  type WebhookHeaders,
} from './verify-webhook';

const NOW_MS = 1_767_225_600_000;
const TS = NOW_MS / 1000;
const now = (): number => NOW_MS;
const secret = generateWebhookSecret();
const event = {
  id: '0194f3c2-1111-7000-8000-000000000001',
  type: 'session.ended',
  tenant_id: 'ten_1',
  created_at: '2026-01-01T00:00:00.000Z',
  data: { session_id: 'ses_1', note: 'Zoë 🎧' },
};
const body = JSON.stringify(event, null, 2);

function delivery(
  overrides: { timestampSeconds?: number; body?: string; secret?: string } = {},
): Record<string, string> {
  return signDelivery({
    secret: overrides.secret ?? secret,
    eventId: event.id,
    eventType: event.type,
    timestampSeconds: overrides.timestampSeconds ?? TS,
    body: overrides.body ?? body,
  });
}

/** Node lower-cases incoming header names. */
function asIncoming(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}

function only(headers: Record<string, string>, names: string[]): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([k]) => names.includes(k)));
}

const X_ONLY = ['Content-Type', 'X-Webhook-Signature', 'X-Webhook-Timestamp', 'X-Webhook-Id', 'X-Webhook-Event'];
const STD_ONLY = ['Content-Type', 'webhook-id', 'webhook-timestamp', 'webhook-signature'];

function verify(headers: WebhookHeaders, extra: Partial<VerifyWebhookOptions> = {}): ReturnType<typeof verifyWebhook> {
  return verifyWebhook({ secret, headers, rawBody: body, now, ...extra });
}

describe('verifyWebhook round trip with signDelivery', () => {
  it('accepts a delivery with both schemes, preferring X-Webhook', () => {
    expect(verify(asIncoming(delivery()))).toEqual({ ok: true, scheme: 'x-webhook', event });
  });

  it('accepts the X-Webhook scheme alone', () => {
    expect(verify(only(delivery(), X_ONLY))).toEqual({ ok: true, scheme: 'x-webhook', event });
  });

  it('accepts the Standard Webhooks scheme alone', () => {
    expect(verify(only(delivery(), STD_ONLY))).toEqual({ ok: true, scheme: 'standard', event });
  });

  it('takes the raw body as a Buffer or a Uint8Array view', () => {
    const bytes = Buffer.from(body, 'utf8');
    expect(verify(delivery(), { rawBody: bytes }).ok).toBe(true);
    const padded = new Uint8Array(bytes.length + 8);
    padded.set(bytes, 4);
    expect(verify(delivery(), { rawBody: padded.subarray(4, 4 + bytes.length) }).ok).toBe(true);
  });

  it('matches header names case-insensitively, including fetch Headers', () => {
    const mixed = Object.fromEntries(Object.entries(delivery()).map(([k, v]) => [k.toUpperCase(), v]));
    expect(verify(mixed).ok).toBe(true);
    expect(verify(new Headers(only(delivery(), STD_ONLY)))).toMatchObject({ ok: true, scheme: 'standard' });
  });

  it('works with the default clock', () => {
    const ts = Math.floor(Date.now() / 1000);
    expect(verifyWebhook({ secret, headers: delivery({ timestampSeconds: ts }), rawBody: body }).ok).toBe(true);
  });
});

describe('verifyWebhook failures', () => {
  it('missing_signature when no scheme is complete', () => {
    const h = delivery();
    expect(verify({})).toEqual({ ok: false, reason: 'missing_signature' });
    expect(verify(only(h, ['X-Webhook-Timestamp', 'webhook-timestamp', 'webhook-id']))).toEqual({
      ok: false,
      reason: 'missing_signature',
    });
    // A Standard Webhooks signature cannot be checked without the id it covers.
    expect(verify(only(h, ['webhook-signature', 'webhook-timestamp']))).toEqual({
      ok: false,
      reason: 'missing_signature',
    });
    expect(verify({ ...only(h, X_ONLY), 'X-Webhook-Signature': '  ' })).toEqual({
      ok: false,
      reason: 'missing_signature',
    });
  });

  it('missing_timestamp for either scheme', () => {
    const h = delivery();
    expect(verify(only(h, ['X-Webhook-Signature']))).toEqual({ ok: false, reason: 'missing_timestamp' });
    expect(verify(only(h, ['webhook-signature', 'webhook-id']))).toEqual({ ok: false, reason: 'missing_timestamp' });
    // X-Webhook is preferred, so its own timestamp header is required even when the standard one is there.
    expect(verify(only(h, ['X-Webhook-Signature', 'webhook-timestamp']))).toEqual({
      ok: false,
      reason: 'missing_timestamp',
    });
  });

  it.each(['abc', '1767225600.5', '-1767225600', '1e9', '0x69557C00', '12345678901234567890'])(
    'invalid_timestamp for %p',
    (ts) => {
      expect(verify({ ...only(delivery(), X_ONLY), 'X-Webhook-Timestamp': ts })).toEqual({
        ok: false,
        reason: 'invalid_timestamp',
      });
    },
  );

  it('tolerates 300 s of skew in both directions and no more', () => {
    for (const scheme of [X_ONLY, STD_ONLY]) {
      expect(verify(only(delivery({ timestampSeconds: TS - 300 }), scheme)).ok).toBe(true);
      expect(verify(only(delivery({ timestampSeconds: TS + 300 }), scheme)).ok).toBe(true);
      expect(verify(only(delivery({ timestampSeconds: TS - 301 }), scheme))).toEqual({
        ok: false,
        reason: 'timestamp_too_old',
      });
      expect(verify(only(delivery({ timestampSeconds: TS + 301 }), scheme))).toEqual({
        ok: false,
        reason: 'timestamp_too_new',
      });
    }
  });

  it('honours a custom tolerance', () => {
    const h = delivery({ timestampSeconds: TS - 60 });
    expect(verify(h, { toleranceSeconds: 60 }).ok).toBe(true);
    expect(verify(h, { toleranceSeconds: 59 })).toEqual({ ok: false, reason: 'timestamp_too_old' });
    expect(verify(delivery({ timestampSeconds: TS + 1 }), { toleranceSeconds: 0 })).toEqual({
      ok: false,
      reason: 'timestamp_too_new',
    });
  });

  it('signature_mismatch with another secret', () => {
    const h = delivery({ secret: generateWebhookSecret() });
    expect(verify(only(h, X_ONLY))).toEqual({ ok: false, reason: 'signature_mismatch' });
    expect(verify(only(h, STD_ONLY))).toEqual({ ok: false, reason: 'signature_mismatch' });
  });

  it('signature_mismatch when the body was parsed and serialised again', () => {
    const reserialised = JSON.stringify(JSON.parse(body));
    expect(reserialised).not.toBe(body);
    expect(verify(delivery(), { rawBody: reserialised })).toEqual({ ok: false, reason: 'signature_mismatch' });
    expect(verify(only(delivery(), STD_ONLY), { rawBody: reserialised })).toEqual({
      ok: false,
      reason: 'signature_mismatch',
    });
  });

  it('signature_mismatch when the timestamp header was changed after signing', () => {
    const h = { ...only(delivery(), X_ONLY), 'X-Webhook-Timestamp': String(TS - 1) };
    expect(verify(h)).toEqual({ ok: false, reason: 'signature_mismatch' });
    const s = { ...only(delivery(), STD_ONLY), 'webhook-timestamp': String(TS - 1) };
    expect(verify(s)).toEqual({ ok: false, reason: 'signature_mismatch' });
  });

  it('signature_mismatch when webhook-id was swapped (the id is signed in the standard scheme)', () => {
    const s = { ...only(delivery(), STD_ONLY), 'webhook-id': 'another-id' };
    expect(verify(s)).toEqual({ ok: false, reason: 'signature_mismatch' });
  });

  it('compares the full sha256= string: a bare hex digest or other case does not pass', () => {
    const h = only(delivery(), X_ONLY);
    const sig = h['X-Webhook-Signature'] ?? '';
    expect(verify({ ...h, 'X-Webhook-Signature': sig.slice('sha256='.length) })).toEqual({
      ok: false,
      reason: 'signature_mismatch',
    });
    expect(verify({ ...h, 'X-Webhook-Signature': sig.toUpperCase() })).toEqual({
      ok: false,
      reason: 'signature_mismatch',
    });
    expect(verify({ ...h, 'X-Webhook-Signature': `${sig}00` })).toEqual({ ok: false, reason: 'signature_mismatch' });
  });

  it('does not fall back to the standard scheme when the preferred X-Webhook signature is wrong', () => {
    const h = { ...delivery(), 'X-Webhook-Signature': 'sha256=' + '0'.repeat(64) };
    expect(verify(h)).toEqual({ ok: false, reason: 'signature_mismatch' });
  });

  it('invalid_body when a correctly signed body is not JSON', () => {
    const text = 'not json';
    expect(verify(delivery({ body: text }), { rawBody: text })).toEqual({ ok: false, reason: 'invalid_body' });
  });

  it('throws on a missing secret, which is a configuration error rather than a bad delivery', () => {
    expect(() => verify(delivery(), { secret: '' })).toThrow(TypeError);
    expect(() => verify(delivery(), { toleranceSeconds: -1 })).toThrow(TypeError);
  });
});

describe('Standard Webhooks scheme', () => {
  /** Written from the Standard Webhooks spec, independently of signing.ts. */
  function referenceSignature(secretText: string, id: string, ts: number, payload: string): string {
    const key = Buffer.from(secretText.split('_')[1] ?? '', 'base64');
    return 'v1,' + createHmac('sha256', key).update(`${id}.${ts}.${payload}`, 'utf8').digest('base64');
  }

  it('signDelivery agrees with an independent reference computation', () => {
    expect(delivery()['webhook-signature']).toBe(referenceSignature(secret, event.id, TS, body));
  });

  it('accepts a reference-signed delivery', () => {
    const headers = {
      'webhook-id': event.id,
      'webhook-timestamp': String(TS),
      'webhook-signature': referenceSignature(secret, event.id, TS, body),
    };
    expect(verify(headers)).toEqual({ ok: true, scheme: 'standard', event });
  });

  it('accepts the published test vector', () => {
    const result = verifyWebhook({
      secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      headers: {
        'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek',
        'webhook-timestamp': '1614265330',
        'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
      },
      rawBody: '{"test": 2432232314}',
      now: () => 1614265330_000,
    });
    expect(result).toEqual({ ok: true, scheme: 'standard', event: { test: 2432232314 } });
  });

  it('accepts any one matching signature among several, ignoring other versions', () => {
    const good = delivery()['webhook-signature'] ?? '';
    const wrong = referenceSignature(generateWebhookSecret(), event.id, TS, body);
    const list = `v1a,${good.slice(3)} ${wrong}  ${good}`;
    expect(verify({ ...only(delivery(), STD_ONLY), 'webhook-signature': list })).toMatchObject({ ok: true });
    expect(verify({ ...only(delivery(), STD_ONLY), 'webhook-signature': [wrong, good] })).toMatchObject({ ok: true });
    expect(verify({ ...only(delivery(), STD_ONLY), 'webhook-signature': `${wrong} v2,${good.slice(3)}` })).toEqual({
      ok: false,
      reason: 'signature_mismatch',
    });
  });
});

describe('verifyWebhookOrThrow', () => {
  it('returns the parsed event', () => {
    expect(verifyWebhookOrThrow<typeof event>({ secret, headers: delivery(), rawBody: body, now })).toEqual(event);
  });

  it('throws a WebhookVerificationError carrying the reason', () => {
    let caught: unknown;
    try {
      verifyWebhookOrThrow({ secret, headers: delivery({ timestampSeconds: TS - 3600 }), rawBody: body, now });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(WebhookVerificationError);
    expect(caught).toBeInstanceOf(Error);
    expect((caught as WebhookVerificationError).reason).toBe('timestamp_too_old');
    expect((caught as WebhookVerificationError).name).toBe('WebhookVerificationError');
    expect((caught as WebhookVerificationError).message).toMatch(/too far in the past/);
  });
});
