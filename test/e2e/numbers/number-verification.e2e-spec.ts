/**
 * Showing ownership of a phone number, end to end: the real service (node dist/main.js) with
 * MEDIA_GATEWAY_URL pointing at a loopback stand-in of the media gateway, and a loopback webhook
 * receiver. The test learns a verification code only as a real user would: the verification call's
 * dispatch reaches the gateway stand-in, whose agent would speak the prompt, and the test reads the
 * digits from it. Nowhere else may the code appear: not in the events, the webhooks, the session as
 * the tenant reads it, nor the service's logs.
 */
import { randomBytes } from 'node:crypto';
import { verifyWebhook } from '../../../src/kernel/signing/verify-webhook';
import { CallsService, rawPost, signedHeaders, startCallsService, stopCallsSuite } from '../../support/calls-harness';
import { eventually } from '../../support/eventually';
import { createEndpoint, createTenant, Receiver, startReceiver, TenantInfo } from '../../support/webhooks-harness';

jest.setTimeout(120_000);

const GATEWAY_SECRET = `whsec_${randomBytes(32).toString('base64')}`;
const CALLER = '+14155550123';

let h: CallsService;
let gateway: Receiver;
let webhooks: Receiver;

beforeAll(async () => {
  gateway = await startReceiver(
    () => ({ status: 202, body: '{"accepted":true}', headers: { 'content-type': 'application/json' } }),
    '/gw',
  );
  webhooks = await startReceiver();
  h = await startCallsService({
    SIM_TIME_SCALE: '0.01',
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    MEDIA_GATEWAY_URL: gateway.url,
    MEDIA_GATEWAY_SECRET: GATEWAY_SECRET,
    LOG_LEVEL: 'info',
  });
});

afterAll(() => stopCallsSuite(h));

async function newTenant(label: string): Promise<TenantInfo> {
  const tenant = await createTenant(h.call, h.svc.adminToken, label);
  await createEndpoint(h.call, tenant.api_key, { url: webhooks.url });
  return tenant;
}

const api = <T = any>(tenant: TenantInfo, method: string, path: string, body?: unknown) =>
  h.call<T>(method, path, { token: tenant.api_key, ...(body === undefined ? {} : { body }) });

const admin = (tenantId: string, body: unknown) =>
  h.call('POST', `/admin/v1/tenants/${tenantId}/phone_numbers`, { token: h.svc.adminToken, body });

async function register(tenant: TenantInfo, phoneNumber: string) {
  const res = await api(tenant, 'POST', '/v1/phone_numbers', {
    phone_number: phoneNumber,
    agent_config: { prompt: `Answer for ${tenant.tenant_id}.` },
  });
  expect(res.status).toBe(201);
  return res.body as { phone_number_id: string; phone_number: string; status: string };
}

/** The media gateway's report of an inbound call to `to`, signed. */
function inboundCall(to: string, callId: string) {
  const raw = JSON.stringify({ to_number: to, from_number: CALLER, call_id: callId });
  return rawPost(h.svc.baseUrl, '/media/v1/inbound_calls', raw, signedHeaders(GATEWAY_SECRET, raw));
}

/** Asks for a verification call; returns its session id. */
async function requestCall(tenant: TenantInfo, phoneNumberId: string): Promise<string> {
  const res = await api(tenant, 'POST', `/v1/phone_numbers/${phoneNumberId}/verification`);
  expect(res.status).toBe(201);
  expect(res.body).toEqual({
    phone_number_id: phoneNumberId,
    session_id: expect.stringMatching(/^ses_/),
    expires_at: expect.any(String),
    tries_left: 5,
  });
  const ttl = Date.parse(res.body.expires_at) - Date.now();
  expect(ttl).toBeGreaterThan(9 * 60_000);
  expect(ttl).toBeLessThanOrEqual(10 * 60_000);
  return res.body.session_id as string;
}

/** What the gateway stand-in was asked to say on the call `sessionId`: the code, read from the agent's prompt. */
async function heardCode(sessionId: string, to: string): Promise<string> {
  const dispatch = await eventually(
    () => gateway.requests.find((r) => r.path === '/gw/calls' && r.body.includes(sessionId)) ?? false,
    20_000,
    50,
  );
  expect(verifyWebhook({ secret: GATEWAY_SECRET, headers: dispatch.headers, rawBody: dispatch.rawBody }).ok).toBe(true);
  const { request } = JSON.parse(dispatch.body) as {
    request: { to_number: string; test_mode: boolean; agent_config: { prompt: string }; sealed_prompt?: string };
  };
  expect(request).toMatchObject({ to_number: to, test_mode: false });
  expect(request.sealed_prompt).toBeUndefined();
  const spoken = /Your verification code is ((?:\d ){5}\d)/.exec(request.agent_config.prompt);
  expect(spoken).not.toBeNull();
  return spoken![1]!.replace(/ /g, '');
}

const confirm = (tenant: TenantInfo, phoneNumberId: string, code: unknown) =>
  api(tenant, 'POST', `/v1/phone_numbers/${phoneNumberId}/verification/confirm`, { code });

const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

/** The error body of a failed confirmation, as every wrong code gets it. */
const failure = (triesLeft: number) => ({
  status: 422,
  body: {
    error: {
      type: 'verification_failed',
      message:
        triesLeft > 0
          ? `That is not the code spoken on the verification call; ${triesLeft} ${triesLeft === 1 ? 'try' : 'tries'} left.`
          : 'That is not the code spoken on the verification call, and no tries are left: place a new verification call.',
      param: 'code',
      request_id: expect.any(String),
    },
  },
});

describe('a production number takes calls once its ownership is shown', () => {
  it('pending until the code spoken on the verification call is confirmed; then the gateway routes its calls; the code shows nowhere else', async () => {
    const owner = await newTenant('Verified Owner Co');
    const number = await register(owner, '+14155550171');
    expect(number.status).toBe('pending_verification');
    expect((await inboundCall(number.phone_number, 'vf-1')).status).toBe(404);

    const sessionId = await requestCall(owner, number.phone_number_id);
    const code = await heardCode(sessionId, number.phone_number);
    // At most one verification call a minute.
    const again = await api(owner, 'POST', `/v1/phone_numbers/${number.phone_number_id}/verification`);
    expect(again.status).toBe(429);
    expect(again.body.error.type).toBe('rate_limited');

    // The gateway plays the call and reports what its agent said: the session keeps no words.
    const signals = [
      { kind: 'answered' },
      { kind: 'turn', role: 'agent', content: `Your verification code is ${code.split('').join(' ')}.`, t: 0.5 },
      { kind: 'hangup', status: 'completed', end_reason: 'completed', duration_seconds: 9 },
      { kind: 'recording_ready', recording_id: 'rec_0123456789abcdef', duration_seconds: 9, channels: 'dual' },
    ];
    for (const [i, signal] of signals.entries()) {
      const raw = JSON.stringify({ session_id: sessionId, seq: i + 1, signal });
      const res = await rawPost(
        h.svc.baseUrl,
        `/media/v1/sessions/${sessionId}/signals`,
        raw,
        signedHeaders(GATEWAY_SECRET, raw),
      );
      expect(res.status).toBe(202);
    }
    const session = await eventually(async () => {
      const s = await api(owner, 'GET', `/v1/sessions/${sessionId}`);
      return s.body.status === 'completed' ? s.body : false;
    });
    expect(session).toMatchObject({ to_number: number.phone_number, test_mode: false, direction: 'outbound' });
    expect(session.transcript).toEqual([{ role: 'agent', t: 0.5 }]);

    // One wrong try, then the right code: active, and the gateway's calls reach the owner.
    expect(await confirm(owner, number.phone_number_id, wrongCode(code))).toMatchObject(failure(4));
    const confirmed = await confirm(owner, number.phone_number_id, code);
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({ phone_number_id: number.phone_number_id, status: 'active' });
    const routed = await inboundCall(number.phone_number, 'vf-2');
    expect(routed.status).toBe(201);
    const inbound = await api(owner, 'GET', `/v1/sessions/${routed.body.session_id}`);
    expect(inbound.body).toMatchObject({ direction: 'inbound', to_number: number.phone_number });
    // A repeated confirmation answers with the number; no verification is needed any more.
    expect((await confirm(owner, number.phone_number_id, code)).status).toBe(200);
    expect((await api(owner, 'POST', `/v1/phone_numbers/${number.phone_number_id}/verification`)).status).toBe(409);

    // The code in the clear, or spoken digit by digit, is nowhere but in the gateway's dispatch.
    await eventually(() =>
      webhooks.requests.some((r) => r.body.includes(sessionId) && r.body.includes('session.ended')),
    );
    const spaced = code.split('').join(' ');
    const tables = ['events', 'audit_events', 'sessions', 'webhook_deliveries', 'timers', 'idempotency_keys'];
    const { rows } = await h.db.pool.query<{ text: string }>(
      tables.map((t) => `SELECT row_to_json(r)::text AS text FROM ${t} r`).join(' UNION ALL '),
    );
    expect(rows.length).toBeGreaterThan(10);
    const leaks = rows.filter((r) => r.text.includes(spaced) || r.text.includes(`code is ${code}`));
    expect(leaks).toEqual([]);
    expect(webhooks.requests.filter((r) => r.body.includes(spaced))).toEqual([]);
    const logs = h.svc.stdout() + h.svc.stderr();
    expect(logs.length).toBeGreaterThan(0);
    expect(logs).not.toContain(spaced);
    expect(logs).not.toContain(`"${code}"`);
    const { rows: hashes } = await h.db.pool.query<{ data: { code_hash: string } }>(
      "SELECT data FROM events WHERE type = 'phone_number.verification_requested' AND data->>'session_id' = $1",
      [sessionId],
    );
    expect(hashes[0]?.data.code_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('5 wrong tries void the code: then even the right one is refused until a new verification call', async () => {
    const tenant = await newTenant('Wrong Code Co');
    const number = await register(tenant, '+14155550172');
    const code = await heardCode(await requestCall(tenant, number.phone_number_id), number.phone_number);
    for (const left of [4, 3, 2, 1, 0])
      expect(await confirm(tenant, number.phone_number_id, wrongCode(code))).toMatchObject(failure(left));
    const voided = await confirm(tenant, number.phone_number_id, code);
    expect(voided.status).toBe(409);
    expect(voided.body.error.type).toBe('verification_required');
    expect((await api(tenant, 'GET', `/v1/phone_numbers/${number.phone_number_id}`)).body.status).toBe(
      'pending_verification',
    );
    expect((await inboundCall(number.phone_number, 'vf-void')).status).toBe(404);
  });

  it('malformed or foreign requests: bad code 400, unknown id 404, another tenant’s id 404, no code asked 409', async () => {
    const tenant = await newTenant('Malformed Co');
    const other = await newTenant('Other Malformed Co');
    const number = await register(tenant, '+14155550173');
    const none = await confirm(tenant, number.phone_number_id, '123456');
    expect(none.status).toBe(409);
    expect(none.body.error.type).toBe('verification_required');
    for (const bad of ['12345', '1234567', 'abcdef', 123456, '', null]) {
      const res = await confirm(tenant, number.phone_number_id, bad);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ type: 'invalid_request', param: 'code' });
    }
    const extra = await api(tenant, 'POST', `/v1/phone_numbers/${number.phone_number_id}/verification/confirm`, {
      code: '123456',
      phone_number: '+14155550173',
    });
    expect(extra.status).toBe(400);
    for (const [who, id] of [
      [tenant, 'pn_00000000000000000000'],
      [other, number.phone_number_id],
    ] as const) {
      expect((await api(who, 'POST', `/v1/phone_numbers/${id}/verification`)).status).toBe(404);
      expect((await confirm(who, id, '123456')).status).toBe(404);
    }
  });
});

describe('who holds a number is nobody else’s business', () => {
  it('a second tenant registers a verified number as if it were free; its verification never completes, even with the code spoken', async () => {
    const owner = await newTenant('Holder Co');
    const squatter = await newTenant('Squatter Co');
    const held = await register(owner, '+14155550174');
    await confirm(
      owner,
      held.phone_number_id,
      await heardCode(await requestCall(owner, held.phone_number_id), held.phone_number),
    );
    expect((await api(owner, 'GET', `/v1/phone_numbers/${held.phone_number_id}`)).body.status).toBe('active');

    // The same answer as for a number nobody holds.
    const free = await register(squatter, '+14155550175');
    const taken = await register(squatter, '+14155550174');
    expect(Object.keys(taken).sort()).toEqual(Object.keys(free).sort());
    expect(taken).toMatchObject({ status: 'pending_verification', test_mode: false });
    expect(JSON.stringify(taken)).not.toContain(owner.tenant_id);

    // Even the right code (had the squatter heard the owner's line) answers as a wrong one.
    const code = await heardCode(await requestCall(squatter, taken.phone_number_id), held.phone_number);
    expect(await confirm(squatter, taken.phone_number_id, code)).toMatchObject(failure(4));
    expect(await confirm(squatter, taken.phone_number_id, wrongCode(code))).toMatchObject(failure(3));
    const routed = await inboundCall(held.phone_number, 'vf-held');
    expect(routed.status).toBe(201);
    expect((await api(owner, 'GET', `/v1/sessions/${routed.body.session_id}`)).status).toBe(200);
    expect((await api(squatter, 'GET', `/v1/sessions/${routed.body.session_id}`)).status).toBe(404);
  });

  it('a squatter’s pending registration does not block the real holder', async () => {
    const squatter = await newTenant('Early Squatter Co');
    const holder = await newTenant('Late Holder Co');
    const squat = await register(squatter, '+14155550176');
    await requestCall(squatter, squat.phone_number_id);
    const mine = await register(holder, '+14155550176');
    const code = await heardCode(await requestCall(holder, mine.phone_number_id), mine.phone_number);
    expect((await confirm(holder, mine.phone_number_id, code)).body.status).toBe('active');
    const routed = await inboundCall(mine.phone_number, 'vf-late');
    expect(routed.status).toBe(201);
    expect((await api(holder, 'GET', `/v1/sessions/${routed.body.session_id}`)).status).toBe(200);
  });
});

describe('verification calls are limited per number, whatever its registrations, and per tenant', () => {
  const refused = (res: { status: number; body: any }, message: RegExp) => {
    expect(res.status).toBe(429);
    expect(res.body.error).toMatchObject({ type: 'rate_limited', message: expect.stringMatching(message) });
  };

  it('releasing and registering the number again does not start a new count', async () => {
    const tenant = await newTenant('Release Loop Co');
    const first = await register(tenant, '+14155550181');
    await requestCall(tenant, first.phone_number_id);
    expect((await api(tenant, 'DELETE', `/v1/phone_numbers/${first.phone_number_id}`)).status).toBe(200);
    const again = await register(tenant, '+14155550181');
    expect(again.phone_number_id).not.toBe(first.phone_number_id);
    refused(await api(tenant, 'POST', `/v1/phone_numbers/${again.phone_number_id}/verification`), /per minute/);
  });

  it('a tenant places at most 20 verification calls in 24 hours over all its numbers', async () => {
    const tenant = await newTenant('Many Numbers Co');
    const numbers = [];
    for (let i = 0; i < 21; i++) numbers.push(await register(tenant, `+1415555${String(1000 + i)}`));
    for (const n of numbers.slice(0, 20)) await requestCall(tenant, n.phone_number_id);
    refused(
      await api(tenant, 'POST', `/v1/phone_numbers/${numbers[20]!.phone_number_id}/verification`),
      /20 verification calls per 24 hours for a tenant/,
    );
    // A refusal by the number itself (its minute) is not counted against the tenant's 20.
    const other = await newTenant('Few Numbers Co');
    const one = await register(other, '+14155550182');
    await requestCall(other, one.phone_number_id);
    for (let i = 0; i < 25; i++)
      refused(await api(other, 'POST', `/v1/phone_numbers/${one.phone_number_id}/verification`), /per minute/);
    await requestCall(other, (await register(other, '+14155550183')).phone_number_id);
  });
});

describe('the operator assigns numbers it holds on the trunk', () => {
  it('active at once, taking calls; it may move a number, whose former holder is pending again', async () => {
    const first = await newTenant('Assigned First Co');
    const second = await newTenant('Assigned Second Co');
    const res = await admin(first.tenant_id, { phone_number: '+1 415 555 0177' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      phone_number_id: expect.stringMatching(/^pn_/),
      phone_number: '+14155550177',
      agent_config: { prompt: expect.any(String) },
      test_mode: false,
      status: 'active',
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const firstCall = await inboundCall('+14155550177', 'op-1');
    expect(firstCall.status).toBe(201);
    expect((await api(first, 'GET', `/v1/sessions/${firstCall.body.session_id}`)).status).toBe(200);

    const moved = await admin(second.tenant_id, { phone_number: '+14155550177', agent_config: { prompt: 'Second.' } });
    expect(moved.status).toBe(201);
    expect(moved.body).toMatchObject({ status: 'active', agent_config: { prompt: 'Second.' } });
    expect((await api(first, 'GET', `/v1/phone_numbers/${res.body.phone_number_id}`)).body.status).toBe(
      'pending_verification',
    );
    const secondCall = await inboundCall('+14155550177', 'op-2');
    expect(secondCall.status).toBe(201);
    expect(secondCall.body.agent_config).toEqual({ prompt: 'Second.' });
    expect((await api(second, 'GET', `/v1/sessions/${secondCall.body.session_id}`)).status).toBe(200);
  });

  it('refuses an unknown tenant (404), a bad number (400), and a caller without the admin token (401)', async () => {
    const tenant = await newTenant('Assign Errors Co');
    expect((await admin('ten_00000000000000000000', { phone_number: '+14155550178' })).status).toBe(404);
    const bad = await admin(tenant.tenant_id, { phone_number: '12345' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.param).toBe('phone_number');
    const asTenant = await h.call('POST', `/admin/v1/tenants/${tenant.tenant_id}/phone_numbers`, {
      token: tenant.api_key,
      body: { phone_number: '+14155550178' },
    });
    expect(asTenant.status).toBe(401);
  });
});

describe('test-mode numbers', () => {
  it('are active at once and play test inbound calls, as before', async () => {
    const tenant = await newTenant('Test Mode Co');
    const res = await api(tenant, 'POST', '/v1/phone_numbers', {
      phone_number: '+14155550179',
      agent_config: { prompt: 'Test line.' },
      test_mode: true,
    });
    expect(res.body).toMatchObject({ status: 'active', test_mode: true });
    const call = await api(tenant, 'POST', `/v1/phone_numbers/${res.body.phone_number_id}/test_inbound_calls`, {
      from_number: CALLER,
    });
    expect(call.status).toBe(201);
    // Switched to production without showing ownership, it is pending again.
    const patched = await api(tenant, 'PATCH', `/v1/phone_numbers/${res.body.phone_number_id}`, { test_mode: false });
    expect(patched.body.status).toBe('pending_verification');
    expect((await inboundCall('+14155550179', 'tm-1')).status).toBe(404);
  });
});
