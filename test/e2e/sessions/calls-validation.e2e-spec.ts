/**
 * Bad input on POST /v1/calls and the DNC API gets the error body of docs/api.md, never a 5xx; the
 * Idempotency-Key contract; and the signed media-gateway ingest route (docs/media-gateway.md), with a
 * real loopback gateway receiving the signed dispatches. Two real service processes: one without a
 * gateway, one with MEDIA_GATEWAY_URL and MEDIA_GATEWAY_SECRET.
 *
 * Unknown-field policy (docs/decisions/0006-unknown-body-fields-are-a-400.md): an unknown top-level
 * or nested body field is a 400 invalid_request whose `param` names the field.
 */
import { randomBytes } from 'node:crypto';
import { eventCatalog } from '../../../src/app.module';
import { verifyWebhook } from '../../../src/kernel/signing/verify-webhook';
import { expectNoLeak } from '../../support/app';
import {
  allEvents,
  CallsService,
  FROM_NUMBER,
  placeCall,
  rawPost,
  sessionEvents,
  signedHeaders,
  startCallsService,
  TERMINAL_TYPES,
} from '../../support/calls-harness';
import { eventually } from '../../support/eventually';
import { killAllServices } from '../../support/process';
import {
  assignNumber,
  closeAllReceivers,
  consistently,
  createTenant,
  envelopeOf,
  header,
  ISO_MS,
  Receiver,
  startReceiver,
  TenantInfo,
} from '../../support/webhooks-harness';

const { validatePayload } = eventCatalog;

jest.setTimeout(120_000);

const GATEWAY_SECRET = `whsec_${randomBytes(32).toString('base64')}`;
const VALID = { to: '+14155550100', from: FROM_NUMBER, agent_config: { prompt: 'Be brief.' }, test_mode: true };

let plain: CallsService;
let gw: CallsService;
let gateway: Receiver;
let tenant: TenantInfo;
let gwTenant: TenantInfo;

beforeAll(async () => {
  gateway = await startReceiver(
    () => ({ status: 202, body: '{"accepted":true}', headers: { 'content-type': 'application/json' } }),
    '/gw',
  );
  [plain, gw] = await Promise.all([
    startCallsService({ SIM_TIME_SCALE: '0.01' }),
    startCallsService({
      SIM_TIME_SCALE: '0.01',
      MEDIA_GATEWAY_URL: gateway.url,
      MEDIA_GATEWAY_SECRET: GATEWAY_SECRET,
      CALL_RATE_CENTS_PER_MINUTE: '10',
    }),
  ]);
  tenant = await createTenant(plain.call, plain.svc.adminToken, 'Validation Co');
  gwTenant = await createTenant(gw.call, gw.svc.adminToken, 'Gateway Co');
  // Its production calls come from FROM_NUMBER, which it must own (decision 178).
  await assignNumber(gw.call, gw.svc.adminToken, gwTenant.tenant_id, FROM_NUMBER);
});

afterAll(async () => {
  await closeAllReceivers();
  await Promise.all([plain?.destroy(), gw?.destroy()]);
  await killAllServices();
});

type Raw = Awaited<ReturnType<typeof rawPost>>;

/** POST /v1/calls with a raw body and headers, authenticated as the tenant. */
function postCall(
  body: string | Buffer | undefined,
  headers: Record<string, string> = { 'content-type': 'application/json' },
): Promise<Raw> {
  return rawPost(plain.svc.baseUrl, '/v1/calls', body, { authorization: `Bearer ${tenant.api_key}`, ...headers });
}

function expectError(res: Raw, status: number, type: string, param?: string): void {
  expect({ status: res.status, body: res.body }).toEqual({
    status,
    body: { error: { type, message: expect.any(String), ...(param ? { param } : {}), request_id: expect.any(String) } },
  });
  expect(res.headers.get('request-id')).toBe(res.body.error.request_id);
  expectNoLeak(res.text);
}

async function sessionCount(): Promise<number> {
  const res = await plain.call('GET', '/v1/sessions?limit=100', { token: tenant.api_key });
  return (res.body.data as unknown[]).length;
}

describe('POST /v1/calls: invalid bodies are a 400 with the error body', () => {
  const cases: [string, unknown, string][] = [
    ['missing to', { from: FROM_NUMBER, agent_config: { prompt: 'x' } }, 'to'],
    ['missing from', { to: '+14155550100', agent_config: { prompt: 'x' } }, 'from'],
    ['missing agent_config', { to: '+14155550100', from: FROM_NUMBER }, 'agent_config'],
    ['missing agent_config.prompt', { ...VALID, agent_config: { voice_id: 'voice_default' } }, 'agent_config.prompt'],
    ['empty agent_config', { ...VALID, agent_config: {} }, 'agent_config.prompt'],
    ['empty prompt', { ...VALID, agent_config: { prompt: '' } }, 'agent_config.prompt'],
    ['prompt over 20000 characters', { ...VALID, agent_config: { prompt: 'x'.repeat(20001) } }, 'agent_config.prompt'],
    ['to without +', { ...VALID, to: '4155550100' }, 'to'],
    ['to too short', { ...VALID, to: '+1415555' }, 'to'],
    ['to not a number', { ...VALID, to: 'abc' }, 'to'],
    ['to empty', { ...VALID, to: '' }, 'to'],
    ['to as a JSON number', { ...VALID, to: 14155550100 }, 'to'],
    ['to null', { ...VALID, to: null }, 'to'],
    ['from invalid', { ...VALID, from: '+1' }, 'from'],
    ['from without +', { ...VALID, from: '14155550000' }, 'from'],
    ['test_mode "yes"', { ...VALID, test_mode: 'yes' }, 'test_mode'],
    ['test_mode 1', { ...VALID, test_mode: 1 }, 'test_mode'],
    ['agent_config a string', { ...VALID, agent_config: 'be nice' }, 'agent_config'],
    ['agent_config an array', { ...VALID, agent_config: [{ prompt: 'x' }] }, 'agent_config'],
    ['agent_config null', { ...VALID, agent_config: null }, 'agent_config'],
    ['prompt a number', { ...VALID, agent_config: { prompt: 42 } }, 'agent_config.prompt'],
    ['voice_id a number', { ...VALID, agent_config: { prompt: 'x', voice_id: 7 } }, 'agent_config.voice_id'],
    ['unknown top-level field', { ...VALID, callback_url: 'https://example.com' }, 'callback_url'],
    ['unknown nested field', { ...VALID, agent_config: { prompt: 'x', temperature: 0.2 } }, 'agent_config.temperature'],
  ];

  it.each(cases.map(([name, body, param]) => ({ name, body, param })))(
    '$name → 400 param $param',
    async ({ body, param }) => {
      const res = await postCall(JSON.stringify(body));
      expectError(res, 400, 'invalid_request', param);
    },
  );

  it('names the unknown field in the message', async () => {
    const res = await postCall(JSON.stringify({ ...VALID, callback_url: 'https://example.com' }));
    expect(res.body.error.message).toContain('callback_url');
  });

  it('a bad disposition inside agent_config → 400 naming its path', async () => {
    const res = await postCall(
      JSON.stringify({
        ...VALID,
        agent_config: { prompt: 'x', dispositions: [{ code: 'Bad Code!', description: 'd' }] },
      }),
    );
    expect(res.status).toBe(400);
    expect(res.body.error.type).toBe('invalid_request');
    expect(res.body.error.param).toMatch(/^agent_config\.dispositions/);
  });

  it.each([
    ['a JSON array', '[]'],
    ['an array of a valid call', JSON.stringify([VALID])],
    ['JSON null', 'null'],
    ['a JSON string', '"call me"'],
    ['a JSON number', '42'],
    ['malformed JSON', '{"to": "+14155550100",'],
    ['malformed JSON (single quotes)', "{'to': '+14155550100'}"],
    ['an empty body', ''],
    ['whitespace only', '   '],
  ])('%s → 400 invalid_request', async (_, body) => {
    const res = await postCall(body);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      type: 'invalid_request',
      message: expect.any(String),
      request_id: expect.any(String),
    });
    expectNoLeak(res.text);
  });

  it('no body and no content type → 400', async () => {
    const res = await postCall(undefined, {});
    expect(res.status).toBe(400);
    expect(res.body.error.type).toBe('invalid_request');
  });

  it('a body over 1 MiB → 413 payload_too_large', async () => {
    const big = JSON.stringify({ ...VALID, agent_config: { prompt: 'x'.repeat(1024 * 1024 + 10) } });
    const res = await postCall(big);
    expectError(res, 413, 'payload_too_large');
  });

  it('a non-JSON content type (form, XML) → 415 unsupported_media_type', async () => {
    expectError(
      await postCall('to=%2B14155550100', { 'content-type': 'application/x-www-form-urlencoded' }),
      415,
      'unsupported_media_type',
    );
    expectError(await postCall('<call/>', { 'content-type': 'application/xml' }), 415, 'unsupported_media_type');
  });

  it('content-type text/plain → 415 unsupported_media_type (an unsupported Content-Type is a 415)', async () => {
    expectError(await postCall(JSON.stringify(VALID), { 'content-type': 'text/plain' }), 415, 'unsupported_media_type');
    expectError(
      await postCall('hello', { 'content-type': 'text/plain; charset=utf-8' }),
      415,
      'unsupported_media_type',
    );
  });

  it('none of the bad requests above created a session', async () => {
    expect(await sessionCount()).toBe(0);
    expect(await allEvents(plain.call, tenant.api_key, 'session.created')).toEqual([]);
  });

  it('application/json with a charset, and spaces and dashes in numbers, are accepted (numbers normalised)', async () => {
    const res = await postCall(JSON.stringify({ ...VALID, to: '+1 (415) 555-0101', from: '+1 415 555 0000' }), {
      'content-type': 'application/json; charset=utf-8',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      status: 'queued',
      to_number: '+14155550101',
      from_number: '+14155550000',
      test_mode: true,
    });
    expect(res.body.created_at).toMatch(ISO_MS);
  });

  it('needs the bearer credential', async () => {
    const res = await rawPost(plain.svc.baseUrl, '/v1/calls', JSON.stringify(VALID), {
      'content-type': 'application/json',
    });
    expectError(res, 401, 'authentication');
    const bad = await rawPost(plain.svc.baseUrl, '/v1/calls', JSON.stringify(VALID), {
      'content-type': 'application/json',
      authorization: 'Bearer vap_not_a_key',
    });
    expectError(bad, 401, 'authentication');
  });
});

describe('POST /v1/calls: suspended tenant', () => {
  it('is refused with 403 forbidden, and no session is created', async () => {
    const t = await createTenant(plain.call, plain.svc.adminToken, 'Suspended Co');
    const suspend = await plain.call('POST', `/admin/v1/tenants/${t.tenant_id}/suspend`, {
      token: plain.svc.adminToken,
    });
    expect(suspend.status).toBeLessThan(300);
    const res = await rawPost(plain.svc.baseUrl, '/v1/calls', JSON.stringify(VALID), {
      'content-type': 'application/json',
      authorization: `Bearer ${t.api_key}`,
    });
    expectError(res, 403, 'forbidden');
    expect(await allEvents(plain.call, t.api_key, 'session.created')).toEqual([]);
  });
});

describe('POST /v1/calls: Idempotency-Key', () => {
  it('same key and body → the same session, created once', async () => {
    const key = `idem-${randomBytes(6).toString('hex')}`;
    const body = JSON.stringify({ ...VALID, to: '+14155550102' });
    const first = await postCall(body, { 'content-type': 'application/json', 'idempotency-key': key });
    expect(first.status).toBe(201);
    const second = await postCall(body, { 'content-type': 'application/json', 'idempotency-key': key });
    expect(second.status).toBe(201);
    expect(second.body.session_id).toBe(first.body.session_id);
    expect(second.body).toEqual(first.body);
    // The call still plays once (the events feed is a read model that POST /v1/calls does not wait for).
    await eventually(
      async () => {
        const evs = await sessionEvents(plain.call, tenant.api_key, first.body.session_id);
        expect(evs.map((e) => e.type)).toEqual(['session.created', 'session.failed']);
      },
      10_000,
      100,
    );
    const created = await allEvents(plain.call, tenant.api_key, 'session.created');
    expect(created.filter((e) => e.data.to_number === '+14155550102')).toHaveLength(1);
    const sessions = await plain.call('GET', '/v1/sessions?status=busy', { token: tenant.api_key });
    expect((sessions.body.data as unknown[]).length).toBe(1);
  });

  it('concurrent requests with one key place one call', async () => {
    const key = `idem-${randomBytes(6).toString('hex')}`;
    const body = JSON.stringify({ ...VALID, to: '+14155550103' });
    const results = await Promise.all(
      Array.from({ length: 5 }, () => postCall(body, { 'content-type': 'application/json', 'idempotency-key': key })),
    );
    for (const r of results) expect([201, 409]).toContain(r.status);
    const ids = new Set(results.filter((r) => r.status === 201).map((r) => r.body.session_id));
    expect(ids.size).toBe(1);
    // The events feed is a read model: POST /v1/calls does not wait for it (decision 16).
    const created = await eventually(async () => {
      const found = (await allEvents(plain.call, tenant.api_key, 'session.created')).filter(
        (e) => e.data.to_number === '+14155550103',
      );
      expect(found.length).toBeGreaterThan(0);
      return found;
    });
    expect(created).toHaveLength(1);
  });

  it('same key with another body → 422', async () => {
    const key = `idem-${randomBytes(6).toString('hex')}`;
    const first = await postCall(JSON.stringify({ ...VALID, to: '+14155550104' }), {
      'content-type': 'application/json',
      'idempotency-key': key,
    });
    expect(first.status).toBe(201);
    const other = await postCall(JSON.stringify({ ...VALID, to: '+14155550105' }), {
      'content-type': 'application/json',
      'idempotency-key': key,
    });
    expect(other.status).toBe(422);
    expect(other.body.error).toMatchObject({ message: expect.any(String), request_id: expect.any(String) });
    expectNoLeak(other.text);
    const created = await allEvents(plain.call, tenant.api_key, 'session.created');
    expect(created.filter((e) => e.data.to_number === '+14155550105')).toHaveLength(0);
  });
});

describe('DNC API', () => {
  const dnc = (method: string, path: string, body?: unknown) =>
    plain.call(method, `/v1/dnc${path}`, { token: tenant.api_key, ...(body !== undefined ? { body } : {}) });

  it('POST with an invalid number → 400 on phone_number; a missing or non-string one too', async () => {
    for (const body of [
      { phone_number: '4155550100' },
      { phone_number: 'abc' },
      { phone_number: '+1415555' },
      {},
      { phone_number: 14155550100 },
    ]) {
      const res = await dnc('POST', '', body);
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
      expect(res.body.error).toMatchObject({ type: 'invalid_request', param: 'phone_number' });
    }
    const unknown = await dnc('POST', '', { phone_number: '+14155550177', note: 'x' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.param).toBe('note');
  });

  it('DELETE of a number not on the list → 404; of garbage → 404', async () => {
    for (const n of ['%2B14155550188', 'not-a-number']) {
      const res = await dnc('DELETE', `/${n}`);
      expect(res.status).toBe(404);
      expect(res.body.error.type).toBe('not_found');
    }
  });

  it('POST, then GET lists it, then DELETE removes it', async () => {
    const added = await dnc('POST', '', { phone_number: '+1 415-555-0177' });
    expect(added.status).toBe(201);
    expect(added.body).toEqual({
      phone_number: '+14155550177',
      source: 'api',
      session_id: null,
      created_at: expect.stringMatching(ISO_MS),
    });
    const again = await dnc('POST', '', { phone_number: '+14155550177' });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(added.body);
    const list = await dnc('GET', '');
    expect(list.status).toBe(200);
    expect((list.body.data as { phone_number: string }[]).filter((r) => r.phone_number === '+14155550177')).toEqual([
      added.body,
    ]);
    const removed = await dnc('DELETE', `/${encodeURIComponent('+14155550177')}`);
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({ phone_number: '+14155550177', deleted: true });
    const after = await dnc('GET', '');
    expect((after.body.data as { phone_number: string }[]).some((r) => r.phone_number === '+14155550177')).toBe(false);
    expect((await dnc('DELETE', `/${encodeURIComponent('+14155550177')}`)).status).toBe(404);
  });

  it('is per tenant: another tenant neither sees nor deletes it', async () => {
    await dnc('POST', '', { phone_number: '+14155550166' });
    const other = await createTenant(plain.call, plain.svc.adminToken, 'Other DNC');
    const list = await plain.call('GET', '/v1/dnc', { token: other.api_key });
    expect(list.body).toEqual({ data: [] });
    const del = await plain.call('DELETE', `/v1/dnc/${encodeURIComponent('+14155550166')}`, { token: other.api_key });
    expect(del.status).toBe(404);
  });
});

describe('media ingest without MEDIA_GATEWAY_SECRET', () => {
  it('POST /media/v1/sessions/:id/signals → 404, even signed', async () => {
    const session = await placeCall(plain.call, tenant.api_key, '+14155550100', { testMode: true });
    const body = JSON.stringify({ seq: 1, signal: { kind: 'answered' } });
    for (const headers of [{ 'content-type': 'application/json' }, signedHeaders(GATEWAY_SECRET, body)]) {
      const res = await rawPost(plain.svc.baseUrl, `/media/v1/sessions/${session.session_id}/signals`, body, headers);
      expectError(res, 404, 'not_found');
    }
  });
});

describe('media gateway: signed dispatch and signed ingest', () => {
  let sessionId: string;
  const ingest = (id: string, body: string, headers: Record<string, string>) =>
    rawPost(gw.svc.baseUrl, `/media/v1/sessions/${id}/signals`, body, headers);
  // The signed body names its session (docs/media-gateway.md); tests that probe it build bodies by hand.
  const signed = (id: string, payload: object, secret = GATEWAY_SECRET, ts?: number) => {
    const body = JSON.stringify({ session_id: id, ...payload });
    return ingest(id, body, signedHeaders(secret, body, ts));
  };

  it('a production call is dispatched to MEDIA_GATEWAY_URL/calls, signed with the gateway secret', async () => {
    const session = await placeCall(gw.call, gwTenant.api_key, '+14155550100', { testMode: false });
    sessionId = session.session_id;
    expect(session).toMatchObject({ status: 'queued', test_mode: false });
    const req = await eventually(
      () => {
        const r = gateway.requests.find((x) => x.body.includes(sessionId));
        if (!r) throw new Error('no dispatch yet');
        return r;
      },
      15_000,
      50,
    );
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/gw/calls');
    expect(header(req.headers, 'content-type')).toMatch(/^application\/json/);
    const verified = verifyWebhook({ secret: GATEWAY_SECRET, headers: req.headers, rawBody: req.rawBody });
    expect(verified.ok).toBe(true);
    const body = JSON.parse(req.body);
    expect(body).toMatchObject({
      session_id: sessionId,
      tenant_id: gwTenant.tenant_id,
      request: {
        session_id: sessionId,
        to_number: '+14155550100',
        from_number: FROM_NUMBER,
        test_mode: false,
        agent_config: { prompt: expect.any(String) },
      },
    });
    // Not played by the simulator: still queued.
    await consistently(
      async () => {
        const evs = await sessionEvents(gw.call, gwTenant.api_key, sessionId);
        expect(evs.map((e) => e.type)).toEqual(['session.created']);
      },
      600,
      100,
    );
  });

  it('a test-mode call on the same service plays on the simulator and is never dispatched', async () => {
    const session = await placeCall(gw.call, gwTenant.api_key, '+14155550102', { testMode: true });
    await eventually(
      async () => {
        const evs = await sessionEvents(gw.call, gwTenant.api_key, session.session_id);
        expect(evs.map((e) => e.type)).toEqual(['session.created', 'session.failed']);
      },
      10_000,
      100,
    );
    expect(gateway.requests.some((r) => r.body.includes(session.session_id))).toBe(false);
  });

  it('unsigned, wrongly signed or stale ingest requests → 401 and change nothing', async () => {
    const body = JSON.stringify({ seq: 1, signal: { kind: 'answered' } });
    expectError(await ingest(sessionId, body, { 'content-type': 'application/json' }), 401, 'authentication');
    const otherSecret = `whsec_${randomBytes(32).toString('base64')}`;
    expectError(await ingest(sessionId, body, signedHeaders(otherSecret, body)), 401, 'authentication');
    // Signature over another body.
    const tampered = signedHeaders(
      GATEWAY_SECRET,
      JSON.stringify({ seq: 1, signal: { kind: 'hangup', status: 'busy', end_reason: 'busy' } }),
    );
    expectError(await ingest(sessionId, body, tampered), 401, 'authentication');
    // Outside the 300 s tolerance.
    expectError(
      await ingest(sessionId, body, signedHeaders(GATEWAY_SECRET, body, Math.floor(Date.now() / 1000) - 600)),
      401,
      'authentication',
    );
    // Signature header without its timestamp.
    const { 'x-webhook-timestamp': _ts, ...noTs } = signedHeaders(GATEWAY_SECRET, body);
    expectError(await ingest(sessionId, body, noTs), 401, 'authentication');
    const evs = await sessionEvents(gw.call, gwTenant.api_key, sessionId);
    expect(evs.map((e) => e.type)).toEqual(['session.created']);
  });

  it('signed but malformed → 400; signed for an unknown session → 404', async () => {
    for (const [payload, param] of [
      [{ seq: 0, signal: { kind: 'answered' } }, 'seq'],
      [{ seq: '1', signal: { kind: 'answered' } }, 'seq'],
      [{ seq: 1.5, signal: { kind: 'answered' } }, 'seq'],
      [{ signal: { kind: 'answered' } }, 'seq'],
      [{ seq: 1 }, 'signal'],
      [{ seq: 1, signal: { kind: 'exploded' } }, 'signal'],
      [{ seq: 1, signal: { kind: 'hangup', status: 'weird', end_reason: 'x' } }, 'signal'],
    ] as const) {
      const res = await signed(sessionId, payload);
      expect({ payload, status: res.status }).toEqual({ payload, status: 400 });
      expect(res.body.error).toMatchObject({ type: 'invalid_request', param });
    }
    const unknown = await signed('ses_doesnotexist0000000000', { seq: 1, signal: { kind: 'answered' } });
    expectError(unknown, 404, 'not_found', 'session_id');
  });

  it('a signed `answered` starts the session; the same seq again is a no-op', async () => {
    const first = await signed(sessionId, { seq: 1, signal: { kind: 'answered' } });
    expect(first.status).toBe(202);
    expect(first.body).toEqual({ session_id: sessionId, seq: 1, applied: true });
    const again = await signed(sessionId, { seq: 1, signal: { kind: 'answered' } });
    expect(again.status).toBe(202);
    expect(again.body).toEqual({ session_id: sessionId, seq: 1, applied: false });
    // Even another signal under an old seq is ignored.
    const stale = await signed(sessionId, { seq: 1, signal: { kind: 'hangup', status: 'busy', end_reason: 'busy' } });
    expect(stale.body).toEqual({ session_id: sessionId, seq: 1, applied: false });
    await eventually(
      async () => {
        const evs = await sessionEvents(gw.call, gwTenant.api_key, sessionId);
        expect(evs.map((e) => e.type)).toEqual(['session.created', 'session.started']);
        const session = await gw.call('GET', `/v1/sessions/${sessionId}`, { token: gwTenant.api_key });
        expect(session.body.status).toBe('in_progress');
      },
      10_000,
      50,
    );
  });

  it('turns, then a signed `hangup` complete the session, billed per started minute', async () => {
    expect(
      (
        await signed(sessionId, {
          seq: 2,
          signal: { kind: 'turn', role: 'agent', content: 'Hello from the gateway.', t: 0.4 },
        })
      ).status,
    ).toBe(202);
    expect(
      (await signed(sessionId, { seq: 3, signal: { kind: 'turn', role: 'user', content: 'Hi!', t: 2 } })).status,
    ).toBe(202);
    const hangup = await signed(sessionId, {
      seq: 4,
      signal: { kind: 'hangup', status: 'completed', end_reason: 'completed', duration_seconds: 75 },
    });
    expect(hangup.body).toEqual({ session_id: sessionId, seq: 4, applied: true });
    // GET …/events is a read model: it catches up shortly after the 202.
    const evs = await eventually(
      async () => {
        const now = await sessionEvents(gw.call, gwTenant.api_key, sessionId);
        expect(now.map((e) => e.type)).toEqual(['session.created', 'session.started', 'session.ended']);
        return now;
      },
      10_000,
      50,
    );
    const ended = evs[2]!;
    expect(validatePayload(ended.type, ended.data)).toEqual([]);
    expect(ended.data).toMatchObject({
      session_id: sessionId,
      status: 'completed',
      end_reason: 'completed',
      duration_seconds: 75,
      actual_cost_cents: 20,
      started_at: evs[1]!.data.started_at,
      transcript: [
        { role: 'agent', content: 'Hello from the gateway.', t: 0.4 },
        { role: 'user', content: 'Hi!', t: 2 },
      ],
      transcript_url: `${gw.svc.baseUrl}/v1/sessions/${sessionId}/transcript.json`,
    });
    await eventually(
      async () => {
        const session = await gw.call('GET', `/v1/sessions/${sessionId}`, { token: gwTenant.api_key });
        expect(session.body).toMatchObject({
          status: 'completed',
          duration_seconds: 75,
          actual_cost_cents: 20,
          test_mode: false,
        });
      },
      10_000,
      50,
    );
  });

  it('the same hangup again, or another hangup with a new seq, adds no second terminal event', async () => {
    const same = await signed(sessionId, {
      seq: 4,
      signal: { kind: 'hangup', status: 'completed', end_reason: 'completed', duration_seconds: 75 },
    });
    expect(same.body).toMatchObject({ applied: false });
    await signed(sessionId, { seq: 5, signal: { kind: 'hangup', status: 'failed', end_reason: 'carrier_error' } });
    await consistently(
      async () => {
        const evs = await sessionEvents(gw.call, gwTenant.api_key, sessionId);
        expect(evs.filter((e) => TERMINAL_TYPES.has(e.type))).toHaveLength(1);
        const session = await gw.call('GET', `/v1/sessions/${sessionId}`, { token: gwTenant.api_key });
        expect(session.body.status).toBe('completed');
      },
      500,
      100,
    );
  });

  it('a signed `recording_ready` after the hang-up (documented in docs/media-gateway.md) records the call', async () => {
    const res = await signed(sessionId, {
      seq: 6,
      signal: {
        kind: 'recording_ready',
        recording_id: 'rec_gateway0000000001',
        duration_seconds: 75,
        channels: 'dual',
      },
    });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ session_id: sessionId, seq: 6, applied: true });
    const rec = await eventually(
      async () => {
        const evs = await sessionEvents(gw.call, gwTenant.api_key, sessionId);
        const found = evs.find((e) => e.type === 'session.recording_completed');
        if (!found) throw new Error('no recording_completed');
        return found;
      },
      10_000,
      50,
    );
    expect(rec.data).toMatchObject({
      recording_id: 'rec_gateway0000000001',
      duration_seconds: 75,
      channels: 'dual',
      recording_url: expect.stringMatching(
        new RegExp(`^${gw.svc.baseUrl}/recordings/rec_gateway0000000001\\.wav\\?expires=\\d+&signature=[\\w-]{43}$`),
      ),
    });
  });

  it('a signed request for one session cannot be replayed against another session', async () => {
    // The signature covers only the body; the session id is in the path. A body signed for one
    // session, re-posted to another session's path, must not be applied there.
    const victim = await placeCall(gw.call, gwTenant.api_key, '+14155550100', { testMode: false });
    const body = JSON.stringify({
      session_id: sessionId,
      seq: 1,
      signal: { kind: 'hangup', status: 'failed', end_reason: 'carrier_error' },
    });
    const headers = signedHeaders(GATEWAY_SECRET, body);
    const own = await ingest(sessionId, body, headers); // captured for `sessionId` (an old seq there: a no-op)
    expect(own.status).toBe(202);
    const replay = await ingest(victim.session_id, body, headers);
    const victimEvents = async () =>
      (await sessionEvents(gw.call, gwTenant.api_key, victim.session_id)).map((e) => e.type);
    // The session's events come from a read model that POST /v1/calls does not wait for (decision 16).
    await eventually(async () => expect(await victimEvents()).toEqual(['session.created']));
    await consistently(async () => expect(await victimEvents()).toEqual(['session.created']), 300, 100);
    expect(replay.status).toBe(401);
  });

  it('out-of-range numbers and over-long strings in a signed signal → 400 and reach nothing (regression, decision 23)', async () => {
    // A signed hang-up with duration_seconds beyond the integer range was accepted, stored in
    // session.ended, and overflowed the sessions read model's integer column: the sessions
    // projection then stopped for every tenant. Every number and string is bounded at the edge now.
    const session = await placeCall(gw.call, gwTenant.api_key, '+14155550100', { testMode: false });
    const id = session.session_id;
    // POST /v1/calls does not wait for the read model (decision 16); the ingest looks the session up
    // there and answers 404 until it has it. `answered` with seq 1 again is a no-op.
    await eventually(
      async () => expect((await signed(id, { seq: 1, signal: { kind: 'answered' } })).status).toBe(202),
      10_000,
      50,
    );
    const hangup = (duration_seconds: number) => ({
      kind: 'hangup',
      status: 'completed',
      end_reason: 'completed',
      duration_seconds,
    });
    const cases: [string, object, string][] = [
      ['duration beyond the integer range', { seq: 2, signal: hangup(2 ** 31) }, 'signal'],
      ['duration of 1e300', { seq: 2, signal: hangup(1e300) }, 'signal'],
      ['duration longer than a day', { seq: 2, signal: hangup(86_401) }, 'signal'],
      ['seq beyond the integer range', { seq: 2 ** 31, signal: { kind: 'answered' } }, 'seq'],
      ['seq beyond the safe integers', { seq: 2 ** 53 + 2, signal: { kind: 'answered' } }, 'seq'],
      ['turn t of 1e12 seconds', { seq: 2, signal: { kind: 'turn', role: 'agent', content: 'Hi', t: 1e12 } }, 'signal'],
      [
        'function duration beyond a day',
        { seq: 2, signal: { kind: 'function_invoked', name: 'f', status: 'ok', duration_ms: 2 ** 53 } },
        'signal',
      ],
      [
        'function timeout beyond a day',
        { seq: 2, signal: { kind: 'function_timeout', function_id: 'fn_1', name: 'f', timeout_ms: 1e10 } },
        'signal',
      ],
      [
        'recording duration beyond the integer range',
        {
          seq: 2,
          signal: {
            kind: 'recording_ready',
            recording_id: 'rec_gateway0000000002',
            duration_seconds: 2 ** 31,
            channels: 'dual',
          },
        },
        'signal',
      ],
      [
        'over-long transfer number',
        { seq: 2, signal: { kind: 'transfer', transfer_number: '1'.repeat(10_000) } },
        'signal',
      ],
      [
        'over-long disposition code',
        { seq: 2, signal: { kind: 'agent_disposition', code: 'c'.repeat(1000) } },
        'signal',
      ],
      [
        'over-long disposition note',
        { seq: 2, signal: { kind: 'agent_disposition', code: 'booked', note: 'n'.repeat(6000) } },
        'signal',
      ],
      [
        'over-long function name',
        { seq: 2, signal: { kind: 'function_invoked', name: 'n'.repeat(1000), status: 'ok', duration_ms: 5 } },
        'signal',
      ],
      [
        'over-long end_reason',
        { seq: 2, signal: { kind: 'hangup', status: 'completed', end_reason: 'r'.repeat(1000) } },
        'signal',
      ],
    ];
    for (const [what, payload, param] of cases) {
      const res = await signed(id, payload);
      expect({ what, status: res.status }).toEqual({ what, status: 400 });
      expectError(res, 400, 'invalid_request', param);
    }
    // Nothing of it reached the session's stream.
    await consistently(
      async () => {
        const evs = await sessionEvents(gw.call, gwTenant.api_key, id);
        expect(evs.map((e) => e.type)).toEqual(['session.created', 'session.started']);
      },
      300,
      100,
    );
    // A hang-up at the bound is accepted, and the sessions read model still follows.
    const ok = await signed(id, { seq: 2, signal: hangup(86_400) });
    expect(ok.body).toEqual({ session_id: id, seq: 2, applied: true });
    await eventually(
      async () => {
        const read = await gw.call('GET', `/v1/sessions/${id}`, { token: gwTenant.api_key });
        expect(read.body).toMatchObject({ status: 'completed', duration_seconds: 86_400, actual_cost_cents: 14_400 });
      },
      10_000,
      50,
    );
  });
});

describe('a production call held for credit, with a gateway', () => {
  it('says why it waits, is not dispatched while held, and no longer says so once it is', async () => {
    const held = await createTenant(gw.call, gw.svc.adminToken, 'Held Gateway Co');
    const grant = (amount: number) =>
      gw.call('POST', `/admin/v1/tenants/${held.tenant_id}/credits`, {
        token: gw.svc.adminToken,
        body: { amount_cents: amount },
      });
    expect((await grant(-1)).status).toBe(200);
    await eventually(async () => {
      const { rows } = await gw.db.pool.query('SELECT depleted FROM credit_balances WHERE tenant_id = $1', [
        held.tenant_id,
      ]);
      return rows[0]?.depleted === true;
    }, 20_000);
    await assignNumber(gw.call, gw.svc.adminToken, held.tenant_id, '+14155550009');
    const session = await placeCall(gw.call, held.api_key, '+14155550100', { testMode: false, from: '+14155550009' });
    expect(session).toMatchObject({ status: 'queued', test_mode: false, hold_reason: 'insufficient_credits' });
    const dispatched = () => gateway.requests.some((r) => r.body.includes(session.session_id));
    await consistently(() => expect(dispatched()).toBe(false), 1_000);
    expect((await grant(100)).status).toBe(200);
    await eventually(dispatched, 15_000, 50);
    // Gone out: the gateway has it (it reported nothing yet, so still queued), and it waits no more.
    await eventually(
      async () => {
        const read = await gw.call('GET', `/v1/sessions/${session.session_id}`, { token: held.api_key });
        expect(read.body).toMatchObject({ status: 'queued', hold_reason: null });
      },
      10_000,
      50,
    );
  });
});

describe('afterwards', () => {
  it('every receiver-side delivery of the gateway was a POST to /gw/calls', () => {
    for (const r of gateway.requests) {
      expect(r.path).toBe('/gw/calls');
      expect(envelopeOf(r)).toHaveProperty('session_id');
    }
  });

  it('neither service logged an internal error', () => {
    // HttpExceptionFilter logs "<METHOD> <url> failed (<request id>)" for every 5xx.
    for (const s of [plain, gw]) expect(s.svc.stdout() + s.svc.stderr()).not.toContain('failed (req_');
  });
});
