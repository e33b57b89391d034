/**
 * Caller ID (decision 178): a production call's `from`, and a production campaign's `from_number`,
 * must be an `active` phone number the tenant owns (assigned by the operator or verified); else
 * `422 from_number_not_owned` naming the field, and nothing is stored or dialled. Test-mode calls and
 * campaigns may show any number. The real service (node dist/main.js) with a media gateway stand-in,
 * so that "nothing is dialled" is what the gateway (the way to the trunk) receives.
 */
import { randomBytes } from 'node:crypto';
import { expectNoLeak } from '../../support/app';
import { CallsService, startCallsService, stopCallsSuite } from '../../support/calls-harness';
import { ALWAYS } from '../../support/campaigns-harness';
import { eventually } from '../../support/eventually';
import {
  ApiResponse,
  assignNumber,
  consistently,
  createTenant,
  Receiver,
  startReceiver,
  TenantInfo,
} from '../../support/webhooks-harness';

jest.setTimeout(120_000);

const A_NUMBER = '+14155550301';
const B_PENDING = '+14155550302';
const B_TEST_REGISTRATION = '+14155550303';
const UNKNOWN = '+14155550304';
const CALLEE = '+14155550399';
const AGENT = { prompt: 'Be brief.' };

let h: CallsService;
let gateway: Receiver;
let a: TenantInfo;
let b: TenantInfo;

beforeAll(async () => {
  gateway = await startReceiver(
    () => ({ status: 202, body: '{"accepted":true}', headers: { 'content-type': 'application/json' } }),
    '/gw',
  );
  h = await startCallsService({
    SIM_TIME_SCALE: '0.01',
    MEDIA_GATEWAY_URL: gateway.url,
    MEDIA_GATEWAY_SECRET: `whsec_${randomBytes(32).toString('base64')}`,
  });
  [a, b] = await Promise.all([
    createTenant(h.call, h.svc.adminToken, 'Caller A'),
    createTenant(h.call, h.svc.adminToken, 'Caller B'),
  ]);
  await assignNumber(h.call, h.svc.adminToken, a.tenant_id, A_NUMBER);
  // B's own registrations that are not owned: one pending verification, one active only as a test number.
  const pending = await h.call('POST', '/v1/phone_numbers', {
    token: b.api_key,
    body: { phone_number: B_PENDING, agent_config: AGENT },
  });
  expect(pending.body).toMatchObject({ status: 'pending_verification', test_mode: false });
  const testRegistration = await h.call('POST', '/v1/phone_numbers', {
    token: b.api_key,
    body: { phone_number: B_TEST_REGISTRATION, agent_config: AGENT, test_mode: true },
  });
  expect(testRegistration.body).toMatchObject({ status: 'active', test_mode: true });
});

afterAll(() => stopCallsSuite(h));

const call = (tenant: TenantInfo, body: Record<string, unknown>, headers?: Record<string, string>) =>
  h.call('POST', '/v1/calls', {
    token: tenant.api_key,
    body: { to: CALLEE, agent_config: AGENT, ...body },
    ...(headers ? { headers } : {}),
  });

function expectNotOwned(res: ApiResponse, param: string): void {
  expect({ status: res.status, body: res.body }).toEqual({
    status: 422,
    body: {
      error: { type: 'from_number_not_owned', message: expect.any(String), param, request_id: expect.any(String) },
    },
  });
  expectNoLeak(res.text);
}

async function sessionsOf(tenant: TenantInfo): Promise<unknown[]> {
  const res = await h.call('GET', '/v1/sessions?limit=100', { token: tenant.api_key });
  return res.body.data as unknown[];
}

async function campaignsOf(tenant: TenantInfo): Promise<unknown[]> {
  const res = await h.call('GET', '/v1/campaigns?limit=100', { token: tenant.api_key });
  return res.body.data as unknown[];
}

/** The gateway's dispatches that name the tenant (each is a call on its way to the trunk). */
const dispatchesOf = (tenant: TenantInfo) => gateway.requests.filter((r) => r.body.includes(tenant.tenant_id));

describe('POST /v1/calls, production: from must be an active number of the tenant', () => {
  it.each([
    ['another tenant’s active number', A_NUMBER],
    ['its own number pending verification', B_PENDING],
    ['its own test-mode registration (active, but not owned)', B_TEST_REGISTRATION],
    ['a number nobody registered', UNKNOWN],
  ])('%s → 422 from_number_not_owned, param from; nothing stored or dialled', async (_label, from) => {
    for (const testMode of [false, undefined]) {
      const res = await call(b, { from, ...(testMode === undefined ? {} : { test_mode: testMode }) });
      expectNotOwned(res, 'from');
    }
  });

  it('the answer is the same whoever holds the number: it tells nobody who does', async () => {
    const messages = await Promise.all(
      [A_NUMBER, B_PENDING, UNKNOWN].map(async (from) => {
        const res = await call(b, { from, test_mode: false });
        return (res.body.error.message as string).replace(from, '<number>');
      }),
    );
    expect(new Set(messages).size).toBe(1);
  });

  it('a number written another way (spaces, dashes) is checked as the number it is', async () => {
    expectNotOwned(await call(b, { from: '+1 415-555-0301', test_mode: false }), 'from');
  });

  it('a replay under the same Idempotency-Key is the same 422, and places nothing', async () => {
    const key = `caller-${randomBytes(4).toString('hex')}`;
    const first = await call(b, { from: A_NUMBER, test_mode: false }, { 'idempotency-key': key });
    expectNotOwned(first, 'from');
    const replay = await call(b, { from: A_NUMBER, test_mode: false }, { 'idempotency-key': key });
    expectNotOwned(replay, 'from');
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.error.message).toBe(first.body.error.message);
  });

  it('without from → 400 naming from (as before), also in test mode', async () => {
    for (const testMode of [false, true]) {
      const res = await h.call('POST', '/v1/calls', {
        token: b.api_key,
        body: { to: CALLEE, agent_config: AGENT, test_mode: testMode },
      });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ type: 'invalid_request', param: 'from' });
    }
  });

  it('none of the refused calls was stored or reached the gateway', async () => {
    expect(await sessionsOf(b)).toEqual([]);
    await consistently(() => expect(dispatchesOf(b)).toEqual([]), 500, 100);
  });

  it('the tenant’s own active number (assigned) → 201, and the call is dispatched from it', async () => {
    const res = await call(a, { from: A_NUMBER, test_mode: false });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'queued', test_mode: false, from_number: A_NUMBER });
    const dispatch = await eventually(
      () => {
        const r = gateway.requests.find((x) => x.body.includes(res.body.session_id));
        if (!r) throw new Error('no dispatch yet');
        return JSON.parse(r.body);
      },
      15_000,
      50,
    );
    expect(dispatch.request).toMatchObject({ from_number: A_NUMBER, test_mode: false });
  });

  it('test mode may use any number: another tenant’s, pending, unknown → 201, never dispatched', async () => {
    for (const from of [A_NUMBER, B_PENDING, UNKNOWN]) {
      const res = await call(b, { from, test_mode: true });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ test_mode: true, from_number: from });
    }
    await consistently(() => expect(dispatchesOf(b)).toEqual([]), 500, 100);
  });

  it('a number the operator moves to another tenant is no longer the first one’s caller ID', async () => {
    const moved = '+14155550306';
    await assignNumber(h.call, h.svc.adminToken, a.tenant_id, moved);
    expect((await call(a, { from: moved, test_mode: false })).status).toBe(201);
    await assignNumber(h.call, h.svc.adminToken, b.tenant_id, moved);
    expectNotOwned(await call(a, { from: moved, test_mode: false }), 'from');
    const placed = await call(b, { from: moved, test_mode: false });
    expect(placed.status).toBe(201);
    // Dispatched before the campaigns below count B's dispatches.
    await eventually(() => expect(gateway.requests.some((r) => r.body.includes(placed.body.session_id))).toBe(true));
  });
});

describe('campaigns, production: from_number must be an active number of the tenant', () => {
  let dispatchedBefore = 0;
  beforeAll(() => {
    dispatchedBefore = dispatchesOf(b).length;
  });
  const campaign = (from_number: string, extra: Record<string, unknown> = {}) => ({
    name: 'Caller ID',
    from_number,
    agent_config: AGENT,
    contacts: [{ phone_number: CALLEE }],
    settings: { quiet_hours: ALWAYS },
    ...extra,
  });

  it.each([
    ['another tenant’s active number', A_NUMBER],
    ['its own number pending verification', B_PENDING],
    ['its own test-mode registration', B_TEST_REGISTRATION],
    ['a number nobody registered', UNKNOWN],
  ])('%s → 422 from_number_not_owned, param from_number, on create and run; nothing created', async (_l, from) => {
    for (const path of ['/v1/campaigns', '/v1/campaigns/run']) {
      const res = await h.call('POST', path, { token: b.api_key, body: campaign(from, { test_mode: false }) });
      expectNotOwned(res, 'from_number');
    }
    expectNotOwned(await h.call('POST', '/v1/campaigns', { token: b.api_key, body: campaign(from) }), 'from_number');
  });

  it('none of the refused campaigns exists, and none dialled', async () => {
    expect(await campaignsOf(b)).toEqual([]);
    await consistently(() => expect(dispatchesOf(b)).toHaveLength(dispatchedBefore), 500, 100);
  });

  it('the tenant’s own active number → 201 (create and run)', async () => {
    const draft = await h.call('POST', '/v1/campaigns', { token: a.api_key, body: campaign(A_NUMBER) });
    expect(draft.status).toBe(201);
    expect(draft.body).toMatchObject({ status: 'draft', from_number: A_NUMBER, test_mode: false });
    const run = await h.call('POST', '/v1/campaigns/run', { token: a.api_key, body: campaign(A_NUMBER) });
    expect(run.status).toBe(201);
    expect(run.body).toMatchObject({ status: 'running', from_number: A_NUMBER });
  });

  it('a test-mode campaign may use any number → 201', async () => {
    for (const from of [A_NUMBER, B_PENDING, UNKNOWN]) {
      const res = await h.call('POST', '/v1/campaigns', {
        token: b.api_key,
        body: campaign(from, { test_mode: true }),
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ from_number: from, test_mode: true });
    }
  });

  it('starting a draft whose number was released since → 422 on from_number, and it stays a draft', async () => {
    const own = '+14155550307';
    await assignNumber(h.call, h.svc.adminToken, b.tenant_id, own);
    const draft = await h.call('POST', '/v1/campaigns', { token: b.api_key, body: campaign(own) });
    expect(draft.status).toBe(201);
    const numbers = await h.call('GET', '/v1/phone_numbers?limit=100', { token: b.api_key });
    const registration = (numbers.body.data as { phone_number: string; phone_number_id: string }[]).find(
      (n) => n.phone_number === own,
    );
    const released = await h.call('DELETE', `/v1/phone_numbers/${registration!.phone_number_id}`, {
      token: b.api_key,
    });
    expect(released.status).toBe(200);
    const id = draft.body.campaign_id as string;
    expectNotOwned(await h.call('POST', `/v1/campaigns/${id}/start`, { token: b.api_key }), 'from_number');
    expect((await h.call('GET', `/v1/campaigns/${id}`, { token: b.api_key })).body.status).toBe('draft');
    // Assigned again, the draft starts.
    await assignNumber(h.call, h.svc.adminToken, b.tenant_id, own);
    const started = await h.call('POST', `/v1/campaigns/${id}/start`, { token: b.api_key });
    expect(started.status).toBe(200);
    expect(started.body.status).toBe('running');
  });
});
