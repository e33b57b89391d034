/**
 * Credits end to end: the real service (node dist/main.js, SIM_TIME_SCALE=0.01, the built-in test
 * payment processor settling after 300 ms) and a real loopback receiver. Test calls are free;
 * production calls are metered per started minute; the low-balance warning fires once per drop;
 * a depleted balance keeps a new production call queued until a top-up settles; the top-up's event
 * arrives after the balance read shows it.
 */
import { allEvents, CallsService, placeCall, startCallsService, stopCallsSuite } from '../../support/calls-harness';
import { eventually } from '../../support/eventually';
import { TenantEndpoints } from '../../support/tenant-endpoints';
import {
  assignNumber,
  Envelope,
  envelopeOf,
  Receiver,
  startReceiver,
  TenantInfo,
} from '../../support/webhooks-harness';

jest.setTimeout(120_000);

const ANSWERED = '+14155550100'; // 45 s: one started minute, 10 cents at the default rate
const NO_ANSWER = '+14155550101';

let h: CallsService;
let receiver: Receiver;
/** GET /v1/credits issued the moment each credits.topup_succeeded arrived, by event id. */
const readsOnArrival = new Map<string, Promise<{ balance_cents: number }>>();

beforeAll(async () => {
  receiver = await startReceiver((req) => {
    const envelope = envelopeOf(req);
    if (envelope.type === 'credits.topup_succeeded' && !readsOnArrival.has(envelope.id)) {
      const tenant = tenants.get(envelope.tenant_id);
      if (tenant) readsOnArrival.set(envelope.id, credits(tenant));
    }
    return { status: 200 };
  });
  h = await startCallsService({
    SIM_TIME_SCALE: '0.01',
    TOPUP_SETTLE_DELAY: '300ms',
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
  });
  endpoints = new TenantEndpoints(h, receiver, ['credits.*']);
});

afterAll(() => stopCallsSuite(h));

const tenants = new Map<string, TenantInfo>();
let endpoints: TenantEndpoints;

/** A tenant with its endpoint, owning +14155550000 (its production calls' number, decision 178; the tests run one at a time). */
async function newTenant(label: string): Promise<TenantInfo> {
  const tenant = await endpoints.add(label);
  await assignNumber(h.call, h.svc.adminToken, tenant.tenant_id, '+14155550000');
  tenants.set(tenant.tenant_id, tenant);
  return tenant;
}

const api = <T = any>(tenant: TenantInfo, method: string, path: string, body?: unknown) =>
  h.call<T>(method, path, { token: tenant.api_key, ...(body === undefined ? {} : { body }) });

async function credits(
  tenant: TenantInfo,
): Promise<{ balance_cents: number; threshold_cents: number; currency: string }> {
  const res = await api(tenant, 'GET', '/v1/credits');
  expect(res.status).toBe(200);
  return res.body;
}

async function grant(tenant: TenantInfo, cents: number): Promise<void> {
  const res = await h.call('POST', `/admin/v1/tenants/${tenant.tenant_id}/credits`, {
    token: h.svc.adminToken,
    body: { amount_cents: cents },
  });
  expect(res.status).toBe(200);
}

/** The tenant's credits events the receiver got, signed, in arrival order. */
function received(tenant: TenantInfo, type?: string): Envelope[] {
  return endpoints.received(tenant, (e) => type === undefined || e.type === type);
}

async function ended(tenant: TenantInfo, sessionId: string): Promise<void> {
  await eventually(async () => {
    const s = await api(tenant, 'GET', `/v1/sessions/${sessionId}`);
    return s.body.status !== 'queued' && s.body.status !== 'in_progress';
  }, 30_000);
}

async function balanceBecomes(tenant: TenantInfo, cents: number): Promise<void> {
  await eventually(async () => (await credits(tenant)).balance_cents === cents, 30_000, 50);
}

describe('metering', () => {
  it('a new tenant has 0 and a threshold of 0; test calls are free', async () => {
    const tenant = await newTenant('Free Calls Co');
    expect(await credits(tenant)).toEqual({ balance_cents: 0, threshold_cents: 0, currency: 'USD' });
    const call = await placeCall(h.call, tenant.api_key, ANSWERED, { testMode: true });
    await ended(tenant, call.session_id);
    await new Promise((r) => setTimeout(r, 300));
    expect((await credits(tenant)).balance_cents).toBe(0);
    expect(received(tenant)).toEqual([]);
  });

  it('production calls are debited per started minute, once each; unanswered ones cost nothing', async () => {
    const tenant = await newTenant('Metered Co');
    await grant(tenant, 1000);
    const calls = await Promise.all(
      [ANSWERED, ANSWERED, NO_ANSWER].map((to) => placeCall(h.call, tenant.api_key, to, { testMode: false })),
    );
    for (const c of calls) await ended(tenant, c.session_id);
    await balanceBecomes(tenant, 980);
    const costs = await Promise.all(
      calls.map(async (c) => (await api(tenant, 'GET', `/v1/sessions/${c.session_id}`)).body),
    );
    expect(costs.map((s) => [s.status, s.duration_seconds, s.actual_cost_cents])).toEqual([
      ['completed', 45, 10],
      ['completed', 45, 10],
      ['no_answer', 0, 0],
    ]);
    // Once each, in the ledger itself.
    const { rows } = await h.db.pool.query<{ session_id: string; n: number }>(
      `SELECT data->>'session_id' AS session_id, count(*)::int AS n FROM events
       WHERE stream_id = $1 AND type = 'credits.debited' GROUP BY 1 ORDER BY 1`,
      [`credits-${tenant.tenant_id}`],
    );
    expect(rows.map((r) => r.n)).toEqual([1, 1]);
  });
});

describe('warnings', () => {
  it('low_balance fires once per drop, and again after a top-up and a new drop', async () => {
    const tenant = await newTenant('Low Balance Co');
    await grant(tenant, 1000);
    const patched = await api(tenant, 'PATCH', '/v1/credits', { threshold_cents: 985 });
    expect(patched.status).toBe(200);
    expect(patched.body).toEqual({ balance_cents: 1000, threshold_cents: 985, currency: 'USD' });
    const call = async () =>
      ended(tenant, (await placeCall(h.call, tenant.api_key, ANSWERED, { testMode: false })).session_id);
    await call(); // 990: still above
    await call(); // 980: a drop
    await call(); // 970: no second warning
    await balanceBecomes(tenant, 970);
    await eventually(async () => received(tenant, 'credits.low_balance').length === 1);
    expect(received(tenant, 'credits.low_balance')[0]!.data).toEqual({
      balance_cents: 980,
      threshold_cents: 985,
      currency: 'USD',
    });
    const topup = await api(tenant, 'POST', '/v1/credits/topups', { amount_cents: 100 });
    expect(topup.status).toBe(201);
    await balanceBecomes(tenant, 1070);
    await grant(tenant, -90); // 980: the second drop
    await eventually(async () => received(tenant, 'credits.low_balance').length === 2);
    expect(received(tenant, 'credits.low_balance')[1]!.data).toMatchObject({ balance_cents: 980 });
    await new Promise((r) => setTimeout(r, 300));
    expect(received(tenant, 'credits.low_balance')).toHaveLength(2);
  });

  it('depleted holds a new production call in queued until a top-up settles; then it goes out', async () => {
    const tenant = await newTenant('Depleted Co');
    await grant(tenant, 10);
    const first = await placeCall(h.call, tenant.api_key, ANSWERED, { testMode: false });
    await ended(tenant, first.session_id);
    await eventually(async () => received(tenant, 'credits.depleted').length === 1);
    expect(received(tenant, 'credits.depleted')[0]!.data).toMatchObject({ balance_cents: 0, currency: 'USD' });

    const held = await placeCall(h.call, tenant.api_key, ANSWERED, { testMode: false });
    expect(held.status).toBe('queued');
    // An answered call would have started within ~0.1 s at this scale: it stays queued.
    await new Promise((r) => setTimeout(r, 1500));
    expect((await api(tenant, 'GET', `/v1/sessions/${held.session_id}`)).body.status).toBe('queued');
    // Test calls are never held.
    const free = await placeCall(h.call, tenant.api_key, ANSWERED, { testMode: true });
    await ended(tenant, free.session_id);

    const topup = await api(tenant, 'POST', '/v1/credits/topups', { amount_cents: 500 });
    expect(topup.status).toBe(201);
    expect(topup.body).toMatchObject({ status: 'pending', amount_cents: 500 });
    expect(topup.body.processor_payment_intent_id).toMatch(/^pi_test_/);
    await ended(tenant, held.session_id);
    const session = (await api(tenant, 'GET', `/v1/sessions/${held.session_id}`)).body;
    expect(session).toMatchObject({ status: 'completed', actual_cost_cents: 10 });
    await balanceBecomes(tenant, 490);
    const listed = await api(tenant, 'GET', '/v1/credits/topups');
    expect(listed.body.data).toEqual([expect.objectContaining({ topup_id: topup.body.topup_id, status: 'succeeded' })]);
  });
});

describe('a production campaign while depleted', () => {
  it('dispatches nothing until a top-up settles, then calls its contacts', async () => {
    const tenant = await newTenant('Depleted Campaign Co');
    await grant(tenant, -1); // below zero: depleted
    await eventually(async () => received(tenant, 'credits.depleted').length === 1);
    const created = await api(tenant, 'POST', '/v1/campaigns/run', {
      name: 'Held',
      from_number: '+14155550000',
      test_mode: false,
      agent_config: { prompt: 'Hi' },
      settings: { max_concurrency: 2, quiet_hours: { start: '00:00', end: '00:00' } },
      contacts: [{ phone_number: ANSWERED }, { phone_number: NO_ANSWER }],
    });
    expect(created.status).toBe(201);
    const id = created.body.campaign_id as string;
    await new Promise((r) => setTimeout(r, 1500));
    const held = await api(tenant, 'GET', `/v1/campaigns/${id}`);
    expect(held.body).toMatchObject({ status: 'running', contacts: { pending: 2, dispatched: 0 } });
    expect((await api(tenant, 'POST', '/v1/credits/topups', { amount_cents: 1000 })).status).toBe(201);
    await eventually(async () => (await api(tenant, 'GET', `/v1/campaigns/${id}`)).body.status === 'completed', 30_000);
    const done = await api(tenant, 'GET', `/v1/campaigns/${id}`);
    expect(done.body).toMatchObject({ completed_sessions: 1, failed_sessions: 1 });
    await balanceBecomes(tenant, 1000 - 1 - 10);
  });
});

describe('top-ups', () => {
  it('topup_succeeded is delivered after the balance read shows the new amount', async () => {
    const tenant = await newTenant('Top-up Co');
    await grant(tenant, 250);
    const created = await api(tenant, 'POST', '/v1/credits/topups', { amount_cents: 5000 });
    expect(created.status).toBe(201);
    await eventually(async () => received(tenant, 'credits.topup_succeeded').length === 1);
    const [event] = received(tenant, 'credits.topup_succeeded');
    expect(event!.data).toEqual({
      amount_cents: 5000,
      new_balance_cents: 5250,
      currency: 'USD',
      processor_payment_intent_id: created.body.processor_payment_intent_id,
    });
    expect((await readsOnArrival.get(event!.id))?.balance_cents).toBe(5250);
    // And the feed has it once.
    expect((await allEvents(h.call, tenant.api_key, 'credits.topup_succeeded')).map((e) => e.id)).toEqual([event!.id]);
  });

  it('refuses bad amounts and thresholds with 400 and the param', async () => {
    const tenant = await newTenant('Bad Amounts Co');
    for (const body of [
      {},
      { amount_cents: 0 },
      { amount_cents: -5 },
      { amount_cents: 1.5 },
      { amount_cents: '100' },
      { amount_cents: 1e12 },
    ]) {
      const res = await api(tenant, 'POST', '/v1/credits/topups', body);
      expect([JSON.stringify(body), res.status, res.body.error?.param]).toEqual([
        JSON.stringify(body),
        400,
        'amount_cents',
      ]);
    }
    for (const body of [
      {},
      { threshold_cents: -1 },
      { threshold_cents: 2.5 },
      { threshold_cents: null },
      { threshold_cents: 1e12 },
    ]) {
      const res = await api(tenant, 'PATCH', '/v1/credits', body);
      expect([JSON.stringify(body), res.status, res.body.error?.param]).toEqual([
        JSON.stringify(body),
        400,
        'threshold_cents',
      ]);
    }
    const unknown = await api(tenant, 'POST', '/v1/credits/topups', { amount_cents: 100, currency: 'EUR' });
    expect(unknown.status).toBe(400);
    expect((await api(tenant, 'GET', '/v1/credits/topups/top_nope')).status).toBe(404);
    const grantUnknown = await h.call('POST', '/admin/v1/tenants/ten_nope/credits', {
      token: h.svc.adminToken,
      body: { amount_cents: 100 },
    });
    expect(grantUnknown.status).toBe(404);
  });
});
