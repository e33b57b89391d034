/**
 * Payments (docs/credits.md, decision 53): top-ups settle only through a real processor once calls
 * cost real money. The whole application on real PostgreSQL, requests through Fastify's inject:
 *
 * - the original hole: with production telephony configured (MEDIA_GATEWAY_URL) and no processor
 *   chosen, the built-in test processor used to settle any top-up by itself. Now it is a 409
 *   `payments_not_configured`, the balance never moves, and the operator's grant still works;
 * - a test top-up scheduled before the operator configured production telephony settles nothing
 *   after the restart;
 * - PAYMENT_PROCESSOR=stripe: the official `stripe` library creates the PaymentIntent against a
 *   loopback HTTP server that stands in for api.stripe.com (idempotency key, metadata, amount), and
 *   only Stripe's signed webhook, signed here by the library's own `generateTestHeaderString`,
 *   settles it: once per event, for the payment and amount the top-up asked; a bad signature is a
 *   400; an unknown top-up is a 200 that changes nothing.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { CreatedTenant, startTestApp, TestApp } from '../../support/app';
import { createTestDatabase } from '../../support/database';
import { eventually } from '../../support/eventually';

jest.setTimeout(90_000);

const GATEWAY = {
  MEDIA_GATEWAY_URL: 'http://127.0.0.1:9/gateway', // never called: no production call is placed here
  MEDIA_GATEWAY_SECRET: `whsec_${randomBytes(24).toString('base64')}`,
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function balance(t: TestApp, tenant: CreatedTenant): Promise<number> {
  const res = await t.asTenant(tenant.api_key, { method: 'GET', url: '/v1/credits' });
  expect(res.statusCode).toBe(200);
  return res.json<{ balance_cents: number }>().balance_cents;
}

const topup = (t: TestApp, tenant: CreatedTenant, amount: number, headers: Record<string, string> = {}) =>
  t.asTenant(tenant.api_key, { method: 'POST', url: '/v1/credits/topups', payload: { amount_cents: amount }, headers });

describe('top-ups with production telephony and no payment processor', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { ...GATEWAY, TOPUP_SETTLE_DELAY: '100ms' } });
  });
  afterAll(() => t?.close());

  it('the attack: a tenant tops up 100000000 cents; it is a 409 payments_not_configured and the balance never rises', async () => {
    const tenant = await t.createTenant('Free credit');
    const res = await topup(t, tenant, 100_000_000);
    // Well past TOPUP_SETTLE_DELAY: the built-in processor used to settle it by itself by now.
    await sleep(1_500);
    expect(await balance(t, tenant)).toBe(0);
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatchObject({ type: 'payments_not_configured' });
    expect(res.json().error.request_id).toEqual(expect.any(String));
    const list = await t.asTenant(tenant.api_key, { method: 'GET', url: '/v1/credits/topups' });
    expect(list.json().data).toEqual([]);
  });

  it("the operator's grant still adds credit", async () => {
    const tenant = await t.createTenant('Granted');
    const res = await t.admin({
      method: 'POST',
      url: `/admin/v1/tenants/${tenant.tenant_id}/credits`,
      payload: { amount_cents: 2500 },
    });
    expect(res.statusCode).toBe(200);
    expect(await balance(t, tenant)).toBe(2500);
  });

  it('the Stripe webhook route is not there without PAYMENT_PROCESSOR=stripe', async () => {
    const res = await t.inject({ method: 'POST', url: '/payments/v1/stripe/webhook', payload: { id: 'evt_1' } });
    expect(res.statusCode).toBe(404);
  });
});

it('a test top-up still pending when production telephony is configured settles nothing after the restart', async () => {
  const db = await createTestDatabase();
  try {
    const before = await startTestApp({ database: db, env: { TOPUP_SETTLE_DELAY: '2s' } });
    const tenant = await before.createTenant('Switched');
    expect((await topup(before, tenant, 700)).statusCode).toBe(201);
    await before.close();
    const after = await startTestApp({ database: db, env: { ...GATEWAY, TOPUP_SETTLE_DELAY: '2s' } });
    try {
      // Its timer falls due (2 s after the request) and is run, and dropped.
      await eventually(async () => {
        const { rows } = await after.db.pool.query(
          `SELECT count(*)::int AS n FROM timers WHERE kind = 'credits.settle_topup'`,
        );
        expect(rows[0].n).toBe(0);
      }, 15_000);
      expect(await balance(after, tenant)).toBe(0);
    } finally {
      await after.close();
    }
  } finally {
    await db.drop();
  }
});

/** A loopback HTTP server standing in for api.stripe.com: it answers POST /v1/payment_intents like Stripe. */
interface StripeStandIn {
  url: string;
  requests: { path: string; headers: IncomingMessage['headers']; form: URLSearchParams }[];
  close(): Promise<void>;
}

async function startStripeStandIn(): Promise<StripeStandIn> {
  const requests: StripeStandIn['requests'] = [];
  const byKey = new Map<string, string>();
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      const form = new URLSearchParams(body);
      requests.push({ path: req.url ?? '', headers: req.headers, form });
      const amount = Number(form.get('amount'));
      if (req.method !== 'POST' || req.url !== '/v1/payment_intents' || amount === 13) {
        res.writeHead(401, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { type: 'invalid_request_error', message: 'Invalid API Key provided.' } }));
        return;
      }
      // Stripe's idempotency: the same key answers the same PaymentIntent.
      const key = String(req.headers['idempotency-key']);
      const id = byKey.get(key) ?? `pi_${randomBytes(12).toString('hex')}`;
      byKey.set(key, id);
      res.writeHead(200, { 'content-type': 'application/json', 'request-id': `req_${requests.length}` });
      res.end(
        JSON.stringify({
          id,
          object: 'payment_intent',
          amount,
          amount_received: 0,
          currency: form.get('currency'),
          status: 'requires_payment_method',
          client_secret: `${id}_secret_x`,
          metadata: { tenant_id: form.get('metadata[tenant_id]'), topup_id: form.get('metadata[topup_id]') },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('PAYMENT_PROCESSOR=stripe', () => {
  const WEBHOOK_SECRET = `whsec_${randomBytes(24).toString('base64')}`;
  const SECRET_KEY = `sk_test_${randomBytes(12).toString('hex')}`;
  // Only for its webhook helpers; it sends nothing.
  const stripe = new Stripe('sk_test_unused');
  let standIn: StripeStandIn;
  let t: TestApp;
  let tenant: CreatedTenant;

  beforeAll(async () => {
    standIn = await startStripeStandIn();
    t = await startTestApp({
      env: {
        ...GATEWAY,
        PAYMENT_PROCESSOR: 'stripe',
        STRIPE_SECRET_KEY: SECRET_KEY,
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        STRIPE_API_URL: standIn.url,
        TOPUP_SETTLE_DELAY: '100ms',
      },
    });
    tenant = await t.createTenant('Stripe payer');
  });
  afterAll(async () => {
    await t?.close();
    await standIn?.close();
  });

  interface Intent {
    id: string;
    amount?: number;
    amount_received?: number;
    currency?: string;
    metadata?: Record<string, string>;
    last_payment_error?: { code?: string; decline_code?: string };
  }
  const event = (type: string, intent: Intent, id = `evt_${randomBytes(8).toString('hex')}`) =>
    JSON.stringify({
      id,
      object: 'event',
      api_version: '2026-10-28.endive',
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      type,
      data: { object: { object: 'payment_intent', currency: 'usd', ...intent } },
    });
  const deliver = (payload: string, signature?: string) =>
    t.inject({
      method: 'POST',
      url: '/payments/v1/stripe/webhook',
      headers: {
        'content-type': 'application/json; charset=utf-8',
        ...(signature === undefined
          ? { 'stripe-signature': stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }) }
          : signature === ''
            ? {}
            : { 'stripe-signature': signature }),
      },
      payload,
    });
  const topupRow = async (id: string) =>
    (await t.asTenant(tenant.api_key, { method: 'GET', url: `/v1/credits/topups/${id}` })).json();

  async function newTopup(amount: number): Promise<{ topup_id: string; processor_payment_intent_id: string }> {
    const res = await topup(t, tenant, amount);
    expect(res.statusCode).toBe(201);
    return res.json();
  }
  const succeeded = (top: { topup_id: string; processor_payment_intent_id: string }, amount: number, over = {}) => ({
    id: top.processor_payment_intent_id,
    amount,
    amount_received: amount,
    metadata: { tenant_id: tenant.tenant_id, topup_id: top.topup_id },
    ...over,
  });

  it('creates one PaymentIntent per top-up through the library: amount, currency, metadata, an idempotency key from the top-up', async () => {
    const res = await topup(t, tenant, 5000, { 'idempotency-key': 'topup-retry-1' });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({ status: 'pending', amount_cents: 5000, currency: 'USD' });
    const sent = standIn.requests.filter((r) => r.form.get('metadata[topup_id]') === body.topup_id);
    expect(sent).toHaveLength(1);
    const [request] = sent;
    expect(request?.path).toBe('/v1/payment_intents');
    expect(request?.headers.authorization).toBe(`Bearer ${SECRET_KEY}`);
    expect(request?.headers['idempotency-key']).toBe(`vap-topup-${body.topup_id}`);
    expect([request?.form.get('amount'), request?.form.get('currency')]).toEqual(['5000', 'usd']);
    expect(request?.form.get('metadata[tenant_id]')).toBe(tenant.tenant_id);
    expect(body.processor_payment_intent_id).toMatch(/^pi_/);
    // The retry with the same Idempotency-Key is the same top-up: no second payment.
    const again = await topup(t, tenant, 5000, { 'idempotency-key': 'topup-retry-1' });
    expect(again.json().topup_id).toBe(body.topup_id);
    expect(standIn.requests.filter((r) => r.form.get('metadata[topup_id]') === body.topup_id)).toHaveLength(1);
    // Nothing settles by itself (TOPUP_SETTLE_DELAY is 100 ms).
    await sleep(800);
    expect((await topupRow(body.topup_id)).status).toBe('pending');
    expect(await balance(t, tenant)).toBe(0);
  });

  it('a refused or unreachable Stripe is a 503 and records no top-up', async () => {
    const before = (await t.asTenant(tenant.api_key, { method: 'GET', url: '/v1/credits/topups' })).json().data.length;
    const res = await topup(t, tenant, 13);
    expect(res.statusCode).toBe(503);
    expect(res.json().error.type).toBe('service_unavailable');
    expect(res.body).not.toContain(SECRET_KEY);
    const after = (await t.asTenant(tenant.api_key, { method: 'GET', url: '/v1/credits/topups' })).json().data.length;
    expect(after).toBe(before);
  });

  it('settles on the signed payment_intent.succeeded, once: a replayed event and a second success add nothing', async () => {
    const start = await balance(t, tenant);
    const top = await newTopup(2000);
    const payload = event('payment_intent.succeeded', succeeded(top, 2000), 'evt_settle_once');
    const res = await deliver(payload);
    expect(res.statusCode).toBe(200);
    await eventually(async () => expect(await balance(t, tenant)).toBe(start + 2000));
    expect((await topupRow(top.topup_id)).status).toBe('succeeded');

    expect((await deliver(payload)).statusCode).toBe(200);
    expect((await deliver(event('payment_intent.succeeded', succeeded(top, 2000)))).statusCode).toBe(200);
    await sleep(300);
    expect(await balance(t, tenant)).toBe(start + 2000);
    const succeededEvents = (
      await t.asTenant(tenant.api_key, { method: 'GET', url: '/v1/events?type=credits.topup_succeeded' })
    )
      .json()
      .data.filter(
        (e: { data: { processor_payment_intent_id: string } }) =>
          e.data.processor_payment_intent_id === top.processor_payment_intent_id,
      );
    expect(succeededEvents).toHaveLength(1);
  });

  it('a signed event the generic JSON checks would refuse (constructor key, deep nesting, NUL, lone surrogate) still settles; so does one over 1 MiB', async () => {
    const start = await balance(t, tenant);
    let deep: unknown = { end: true };
    for (let i = 0; i < 40; i++) deep = { level: deep };
    const odd = await newTopup(700);
    const oddEvent = event(
      'payment_intent.succeeded',
      succeeded(odd, 700, {
        metadata: {
          tenant_id: tenant.tenant_id,
          topup_id: odd.topup_id,
          constructor: 'a key like any other',
          prototype: 'another',
        },
        shipping: { nested: deep, note: 'NUL \u0000 and a lone \ud800' },
      }),
    );
    expect((await deliver(oddEvent)).statusCode).toBe(200);
    await eventually(async () => expect(await balance(t, tenant)).toBe(start + 700));
    expect((await topupRow(odd.topup_id)).status).toBe('succeeded');

    const large = await newTopup(600);
    const largeEvent = event('payment_intent.succeeded', succeeded(large, 600, { padding: 'x'.repeat(1100 * 1024) }));
    expect(largeEvent.length).toBeGreaterThan(1024 * 1024);
    expect((await deliver(largeEvent)).statusCode).toBe(200);
    await eventually(async () => expect(await balance(t, tenant)).toBe(start + 1300));
    // A decline whose message holds text PostgreSQL cannot store still fails the top-up.
    const declined = await newTopup(500);
    const declinedEvent = event('payment_intent.payment_failed', {
      ...succeeded(declined, 500),
      amount_received: 0,
      last_payment_error: { message: 'declined \u0000 at \ud800' } as { code?: string },
    });
    expect((await deliver(declinedEvent)).statusCode).toBe(200);
    await eventually(async () => expect((await topupRow(declined.topup_id)).status).toBe('failed'));
    expect((await topupRow(declined.topup_id)).failure_reason).toBe('declined \ufffd at \ufffd');
    // The webhook's own limit still holds: over 2 MiB is a 413, before anything is read.
    const huge = event('payment_intent.succeeded', succeeded(large, 600, { padding: 'x'.repeat(2 * 1024 * 1024) }));
    expect((await deliver(huge)).statusCode).toBe(413);
  });

  it('a bad, missing or foreign signature is a 400 and settles nothing', async () => {
    const start = await balance(t, tenant);
    const top = await newTopup(900);
    const payload = event('payment_intent.succeeded', succeeded(top, 900));
    const foreign = stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_someoneelse' });
    const stale = stripe.webhooks.generateTestHeaderString({
      payload,
      secret: WEBHOOK_SECRET,
      timestamp: Math.floor(Date.now() / 1000) - 3600,
    });
    const tampered = payload.replace('"amount":900', '"amount":9000');
    for (const [body, signature] of [
      [payload, foreign],
      [payload, stale],
      [payload, 't=1,v1=00'],
      [payload, ''],
      [tampered, stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET })],
      ['not json', stripe.webhooks.generateTestHeaderString({ payload: 'not json', secret: WEBHOOK_SECRET })],
    ] as const) {
      const res = await deliver(body, signature);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({ type: 'invalid_request' });
    }
    await sleep(300);
    expect(await balance(t, tenant)).toBe(start);
    expect((await topupRow(top.topup_id)).status).toBe('pending');
  });

  it('an unknown top-up, another payment than the top-up made, or another event type: 200, nothing changes', async () => {
    const start = await balance(t, tenant);
    const top = await newTopup(800);
    for (const payload of [
      event('payment_intent.succeeded', succeeded({ ...top, topup_id: 'top_unknown' }, 800)),
      event('payment_intent.succeeded', succeeded(top, 800, { id: 'pi_not_this_one' })),
      event('payment_intent.succeeded', { ...succeeded(top, 800), metadata: {} }),
      event(
        'payment_intent.succeeded',
        succeeded(top, 800, { metadata: { tenant_id: 'ten_nobody', topup_id: top.topup_id } }),
      ),
      event('payment_intent.created', succeeded(top, 800)),
      // Signed, yet not the shape of an event: still no 5xx.
      JSON.stringify({ id: 'evt_bare', object: 'event', type: 'payment_intent.succeeded' }),
      JSON.stringify({
        id: 'evt_odd',
        type: 'payment_intent.succeeded',
        data: { object: { ...succeeded(top, 800), currency: 7 } },
      }),
      '{}',
      '[]',
    ]) {
      const res = await deliver(payload);
      expect(res.statusCode).toBe(200);
    }
    await sleep(300);
    expect(await balance(t, tenant)).toBe(start);
    expect((await topupRow(top.topup_id)).status).toBe('pending');
  });

  it('another amount or currency than the top-up asked credits nothing: the top-up fails', async () => {
    const start = await balance(t, tenant);
    const more = await newTopup(100);
    expect((await deliver(event('payment_intent.succeeded', succeeded(more, 100_000_000)))).statusCode).toBe(200);
    const other = await newTopup(100);
    expect(
      (await deliver(event('payment_intent.succeeded', succeeded(other, 100, { currency: 'eur' })))).statusCode,
    ).toBe(200);
    await eventually(async () => expect((await topupRow(other.topup_id)).status).toBe('failed'));
    expect((await topupRow(more.topup_id)).failure_reason).toMatch(/^amount_mismatch/);
    expect(await balance(t, tenant)).toBe(start);
  });

  it('payment_intent.payment_failed fails the top-up; a later success of the same payment settles it', async () => {
    const start = await balance(t, tenant);
    const top = await newTopup(300);
    const declined = event('payment_intent.payment_failed', {
      ...succeeded(top, 300),
      amount_received: 0,
      last_payment_error: { code: 'card_declined', decline_code: 'insufficient_funds' },
    });
    expect((await deliver(declined)).statusCode).toBe(200);
    await eventually(async () => expect((await topupRow(top.topup_id)).status).toBe('failed'));
    expect((await topupRow(top.topup_id)).failure_reason).toBe('insufficient_funds');
    expect(await balance(t, tenant)).toBe(start);
    expect((await deliver(event('payment_intent.succeeded', succeeded(top, 300)))).statusCode).toBe(200);
    await eventually(async () => expect((await topupRow(top.topup_id)).status).toBe('succeeded'));
    expect(await balance(t, tenant)).toBe(start + 300);
  });
});
