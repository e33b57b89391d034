import { createHmac } from 'node:crypto';
import { generateWebhookSecret, signDelivery, standardWebhookSignature, xWebhookSignature } from './signing';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const BODY =
  '{"id":"evt_1","type":"session.ended","tenant_id":"ten_1","created_at":"2026-01-01T00:00:00.000Z","data":{}}';
const input = {
  secret: SECRET,
  eventId: 'evt_1',
  eventType: 'session.ended',
  timestampSeconds: 1_767_225_600,
  body: BODY,
};

describe('generateWebhookSecret', () => {
  it('is whsec_ followed by base64 of 32 random bytes', () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
  });

  it('never repeats', () => {
    const seen = new Set(Array.from({ length: 100 }, () => generateWebhookSecret()));
    expect(seen.size).toBe(100);
  });
});

describe('signDelivery', () => {
  it('returns exactly the delivery headers, named as documented', () => {
    const headers = signDelivery(input);
    expect(Object.keys(headers).sort()).toEqual(
      [
        'Content-Type',
        'X-Webhook-Signature',
        'X-Webhook-Timestamp',
        'X-Webhook-Id',
        'X-Webhook-Event',
        'webhook-id',
        'webhook-timestamp',
        'webhook-signature',
      ].sort(),
    );
    expect(headers['Content-Type']).toBe('application/json');
    expect(headers['X-Webhook-Timestamp']).toBe('1767225600');
    expect(headers['webhook-timestamp']).toBe('1767225600');
    expect(headers['X-Webhook-Id']).toBe('evt_1');
    expect(headers['webhook-id']).toBe('evt_1');
    expect(headers['X-Webhook-Event']).toBe('session.ended');
  });

  it('signs "<ts>.<body>" with the whole whsec_ string as key, lower-case hex, sha256= prefix', () => {
    const expected = createHmac('sha256', SECRET).update(`1767225600.${BODY}`).digest('hex');
    expect(signDelivery(input)['X-Webhook-Signature']).toBe(`sha256=${expected}`);
    expect(signDelivery(input)['X-Webhook-Signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
  });

  it('signs "<id>.<ts>.<body>" with the decoded secret for Standard Webhooks', () => {
    const key = Buffer.from('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'base64');
    const expected = createHmac('sha256', key).update(`evt_1.1767225600.${BODY}`).digest('base64');
    expect(signDelivery(input)['webhook-signature']).toBe(`v1,${expected}`);
  });

  it('matches the Standard Webhooks reference test vector', () => {
    // From the standard-webhooks specification's reference libraries.
    const sig = standardWebhookSignature(
      'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      'msg_p5jXN8AQM9LWM0D4loKWxJek',
      1614265330,
      '{"test": 2432232314}',
    );
    expect(sig).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('signs multi-byte UTF-8 bodies over their bytes', () => {
    const body = '{"name":"Zoë 🎧"}';
    const expected = createHmac('sha256', SECRET)
      .update(Buffer.from(`42.${body}`, 'utf8'))
      .digest('hex');
    expect(xWebhookSignature(SECRET, 42, body)).toBe(`sha256=${expected}`);
  });

  it('changes with the body, the timestamp, the id and the secret', () => {
    const base = signDelivery(input);
    const other = [
      signDelivery({ ...input, body: BODY.replace('{}', '{ }') }),
      signDelivery({ ...input, timestampSeconds: input.timestampSeconds + 1 }),
      signDelivery({ ...input, secret: generateWebhookSecret() }),
    ];
    for (const h of other) {
      expect(h['X-Webhook-Signature']).not.toBe(base['X-Webhook-Signature']);
      expect(h['webhook-signature']).not.toBe(base['webhook-signature']);
    }
    const otherId = signDelivery({ ...input, eventId: 'evt_2' });
    expect(otherId['webhook-signature']).not.toBe(base['webhook-signature']);
    // The X-Webhook scheme does not cover the id (docs/events.md); only Standard Webhooks does.
    expect(otherId['X-Webhook-Signature']).toBe(base['X-Webhook-Signature']);
  });

  it('refuses inputs that would produce unusable headers', () => {
    expect(() => signDelivery({ ...input, timestampSeconds: 1.5 })).toThrow(RangeError);
    expect(() => signDelivery({ ...input, timestampSeconds: -1 })).toThrow(RangeError);
    expect(() => signDelivery({ ...input, secret: 'not-a-secret' })).toThrow(RangeError);
    expect(() => signDelivery({ ...input, secret: 'whsec_' })).toThrow(RangeError);
    expect(() => signDelivery({ ...input, eventType: 'a\r\nX-Evil: 1' })).toThrow(RangeError);
    expect(() => signDelivery({ ...input, eventId: '' })).toThrow(RangeError);
  });
});
