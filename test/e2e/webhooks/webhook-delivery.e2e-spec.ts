/**
 * Webhook delivery end to end: the real application (in-process, listening on loopback, workers
 * running) delivering to real loopback HTTP receivers, with a real SMTP server for the suspension
 * notice. Signatures are recomputed here with node:crypto, independently of src/.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { eventCatalog } from '../../../src/app.module';
import { EVENT_STORE, EventStore } from '../../../src/event-store/event-store.port';
import { newEventId } from '../../../src/kernel/ids';
import { verifyWebhook } from '../../../src/kernel/signing/verify-webhook';
import { eventually } from '../../support/eventually';
import { startListeningApp, ListeningApp } from '../../support/webhooks-app';
import {
  closeAllReceivers,
  consistently,
  createEndpoint,
  createTenant,
  CreatedEndpoint,
  decodeMailText,
  deliveries,
  DeliveryRow,
  envelopeOf,
  expectedStandardSignature,
  expectedXSignature,
  header,
  ISO_MS,
  ReceivedRequest,
  Receiver,
  ReceiverAction,
  sendTest,
  SmtpSink,
  startReceiver,
  startSmtp,
  TenantInfo,
  UUID_V7,
  verifiesStandard,
  verifiesX,
} from '../../support/webhooks-harness';

const { entries: EVENT_CATALOG, isCatalogType, validatePayload } = eventCatalog;

jest.setTimeout(60_000);

const TIMEOUT_MS = 1_500;
const SUSPEND_AFTER = 3;

let app: ListeningApp;
let smtp: SmtpSink;
let store: EventStore;

beforeAll(async () => {
  smtp = await startSmtp();
  app = await startListeningApp({
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    WEBHOOK_RETRY_SCHEDULE: '100ms,200ms,300ms,400ms',
    WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS),
    WEBHOOK_SUSPEND_AFTER: String(SUSPEND_AFTER),
    SMTP_URL: smtp.url,
    MAIL_FROM: 'Platform Notices <notices@platform.example>',
    SIM_TIME_SCALE: '0.01',
  });
  store = app.t.app.get<EventStore>(EVENT_STORE);
});

afterAll(async () => {
  await closeAllReceivers();
  await app?.close();
  await smtp?.close();
});

// ------------------------------------------------------------------------------------------
// helpers
// ------------------------------------------------------------------------------------------

const tenant = (label: string): Promise<TenantInfo> => createTenant(app.call, app.t.adminToken, label);

/** Appends one event straight into the app's event store, as a producer would. */
async function appendEvent(
  tenantId: string,
  type: string,
  data: Record<string, unknown>,
): Promise<{ id: string; created_at: string }> {
  const id = newEventId();
  const created_at = new Date().toISOString();
  await store.append(
    `e2e_source-${id}`,
    [{ id, type, data, metadata: { tenant_id: tenantId, created_at } }],
    'no_stream',
  );
  return { id, created_at };
}

async function receivedOnce(receiver: Receiver, id: string, timeoutMs = 10_000): Promise<ReceivedRequest> {
  return eventually(() => receiver.byId(id)[0] ?? false, timeoutMs);
}

async function deliveryOf(t: TenantInfo, endpointId: string, eventId: string): Promise<DeliveryRow | undefined> {
  return (await deliveries(app.call, t.api_key, endpointId)).find((d) => d.event_id === eventId);
}

/** Waits until the delivery of `eventId` reached `status` and has `attempts` attempts recorded. */
async function settledDelivery(
  t: TenantInfo,
  endpointId: string,
  eventId: string,
  status: DeliveryRow['status'],
  attempts: number,
) {
  return eventually(async () => {
    const d = await deliveryOf(t, endpointId, eventId);
    if (!d || d.status !== status || d.attempts.length !== attempts) {
      throw new Error(`delivery now ${JSON.stringify(d)}`);
    }
    return d;
  }, 15_000);
}

/** Every rule of docs/events.md "Delivery headers" for one received delivery, checked with independently computed HMACs. */
function expectSignedDelivery(
  req: ReceivedRequest,
  secret: string,
  expected: { tenantId: string; id?: string; type?: string },
) {
  expect(req.method).toBe('POST');
  expect(header(req.headers, 'content-type')).toBe('application/json');

  const ts = header(req.headers, 'x-webhook-timestamp');
  expect(ts).toMatch(/^\d{10}$/);
  expect(Math.abs(Number(ts) - req.receivedAt / 1000)).toBeLessThanOrEqual(5);
  const sig = header(req.headers, 'x-webhook-signature');
  expect(sig).toMatch(/^sha256=[0-9a-f]{64}$/);
  expect(sig).toBe(expectedXSignature(secret, ts!, req.rawBody));

  const env = envelopeOf(req);
  expect(Object.keys(env)).toEqual(['id', 'type', 'tenant_id', 'created_at', 'data']);
  expect(header(req.headers, 'x-webhook-id')).toBe(env.id);
  expect(header(req.headers, 'x-webhook-event')).toBe(env.type);
  expect(env.id).toMatch(UUID_V7);
  expect(env.created_at).toMatch(ISO_MS);
  expect(new Date(env.created_at).toISOString()).toBe(env.created_at);
  expect(env.tenant_id).toBe(expected.tenantId);
  if (expected.id !== undefined) expect(env.id).toBe(expected.id);
  if (expected.type !== undefined) expect(env.type).toBe(expected.type);
  expect(isCatalogType(env.type)).toBe(true);
  expect(typeof env.data).toBe('object');
  expect({ type: env.type, errors: validatePayload(env.type, env.data) }).toEqual({ type: env.type, errors: [] });

  // Standard Webhooks trio: the event id is signed too.
  expect(header(req.headers, 'webhook-id')).toBe(env.id);
  expect(header(req.headers, 'webhook-timestamp')).toBe(ts);
  expect(header(req.headers, 'webhook-signature')).toBe(expectedStandardSignature(secret, env.id, ts!, req.rawBody));

  // The project's own receiver helper agrees.
  expect(verifyWebhook({ secret, headers: req.headers, rawBody: req.rawBody })).toMatchObject({
    ok: true,
    scheme: 'x-webhook',
  });
  return env;
}

// ------------------------------------------------------------------------------------------
// (a) signature, headers and envelope
// ------------------------------------------------------------------------------------------

describe('a delivery: headers, signatures and envelope', () => {
  it('webhook.test is signed with both schemes, as docs/events.md says', async () => {
    const t = await tenant('Headers');
    const receiver = await startReceiver();
    const ep = await createEndpoint(app.call, t.api_key, { url: receiver.url });
    const before = Date.now();
    const eventId = await sendTest(app.call, t.api_key, ep.id);
    expect(eventId).toMatch(UUID_V7);
    const req = await receivedOnce(receiver, eventId);
    const env = expectSignedDelivery(req, ep.secret, { tenantId: t.tenant_id, id: eventId, type: 'webhook.test' });
    expect(env.data).toEqual({ endpoint_id: ep.id, emitted_at: expect.stringMatching(ISO_MS) });
    expect(Math.abs(new Date(env.created_at).getTime() - before)).toBeLessThan(5_000);
    expect(req.path).toBe('/hook');
    // UUIDv7: the first 48 bits are the creation time in ms.
    const v7ms = parseInt(env.id.replace(/-/g, '').slice(0, 12), 16);
    expect(Math.abs(v7ms - new Date(env.created_at).getTime())).toBeLessThan(5_000);

    // The stored event is the same event: same id, type and payload.
    const { rows } = await app.t.db.pool.query<{
      type: string;
      data: Record<string, unknown>;
      metadata: Record<string, unknown>;
    }>('SELECT type, data, metadata FROM events WHERE event_id = $1', [eventId]);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.type).toBe('webhook.test');
    expect(rows[0]!.data).toEqual(env.data);
    expect(rows[0]!.metadata.created_at).toBe(env.created_at);

    // A receiver-side check with a wrong secret, a tampered body or a re-serialised body fails.
    expect(verifiesX('whsec_' + Buffer.alloc(32, 1).toString('base64'), req)).toBe(false);
    const tampered = { ...req, rawBody: Buffer.from(req.body.replace('webhook.test', 'webhook.tesT')) };
    expect(verifiesX(ep.secret, tampered)).toBe(false);
    expect(verifiesStandard(ep.secret, tampered)).toBe(false);
    const reserialised = { ...req, rawBody: Buffer.from(JSON.stringify(JSON.parse(req.body), null, 1)) };
    expect(verifiesX(ep.secret, reserialised)).toBe(false);
  });
});

// ------------------------------------------------------------------------------------------
// (b) every catalog type
// ------------------------------------------------------------------------------------------

describe('every catalog type', () => {
  it('one event of every catalog type, appended to the event store, arrives signed with its stored id and validates', async () => {
    const t = await tenant('Catalog');
    const receiver = await startReceiver();
    const ep = await createEndpoint(app.call, t.api_key, { url: receiver.url, events: ['*'] });
    const appended = new Map<string, { type: string; created_at: string; data: Record<string, unknown> }>();
    for (const entry of EVENT_CATALOG) {
      const data: Record<string, unknown> = { ...entry.example };
      // A test event goes to the endpoint it names only, so it names ours.
      if (entry.type === 'webhook.test') data.endpoint_id = ep.id;
      expect({ type: entry.type, errors: validatePayload(entry.type, data) }).toEqual({ type: entry.type, errors: [] });
      const { id, created_at } = await appendEvent(t.tenant_id, entry.type, data);
      appended.set(id, { type: entry.type, created_at, data });
    }
    expect(appended.size).toBe(EVENT_CATALOG.length);

    await eventually(() => [...appended.keys()].every((id) => receiver.byId(id).length > 0), 20_000);
    for (const [id, want] of appended) {
      const [req] = receiver.byId(id);
      const env = expectSignedDelivery(req!, ep.secret, { tenantId: t.tenant_id, id, type: want.type });
      expect(env.created_at).toBe(want.created_at);
      expect(env.data).toEqual(want.data);
    }
    // Nothing else: no internal event (tenant.*, webhook_endpoint.*) and no duplicate.
    await consistently(() => expect(receiver.requests).toHaveLength(EVENT_CATALOG.length), 500);
    const types = receiver.requests.map((r) => header(r.headers, 'x-webhook-event'));
    expect(new Set(types)).toEqual(new Set(EVENT_CATALOG.map((e) => e.type)));
    await eventually(async () => {
      const log = await deliveries(app.call, t.api_key, ep.id);
      expect(log).toHaveLength(EVENT_CATALOG.length);
      expect(log.filter((d) => d.status !== 'succeeded')).toEqual([]);
      expect(new Set(log.map((d) => d.event_id))).toEqual(new Set(appended.keys()));
      return true;
    });
  });

  it('non-ASCII payloads are signed over the exact UTF-8 bytes sent', async () => {
    const t = await tenant('Unicode');
    const receiver = await startReceiver();
    const ep = await createEndpoint(app.call, t.api_key, { url: `${receiver.url}?source=voice&x=%C3%A9` });
    const data = {
      ...EVENT_CATALOG.find((e) => e.type === 'campaign.created')!.example,
      name: 'Zürich ☎ 日本語 \u2028 "quoted" </script> 😀',
    };
    const ev = await appendEvent(t.tenant_id, 'campaign.created', data);
    const req = await receivedOnce(receiver, ev.id);
    expect(req.path).toBe('/hook?source=voice&x=%C3%A9');
    expect(Number(header(req.headers, 'content-length'))).toBe(req.rawBody.length);
    const env = expectSignedDelivery(req, ep.secret, { tenantId: t.tenant_id, id: ev.id, type: 'campaign.created' });
    expect(env.data.name).toBe(data.name);
  });

  it('internal events and other tenants’ events never reach an endpoint subscribed to "*"', async () => {
    const t = await tenant('Isolated');
    const stranger = await tenant('Stranger');
    const receiver = await startReceiver();
    const ep = await createEndpoint(app.call, t.api_key, { url: receiver.url });
    await appendEvent(stranger.tenant_id, 'session.created', {
      ...EVENT_CATALOG.find((e) => e.type === 'session.created')!.example,
    });
    await appendEvent(t.tenant_id, 'tenant.internal_only', { x: 1 });
    // rotate, patch and a second endpoint: all internal webhook_endpoint.* events.
    await app.call('POST', `/v1/webhook_endpoints/${ep.id}/rotate_secret`, { token: t.api_key });
    await app.call('PATCH', `/v1/webhook_endpoints/${ep.id}`, { token: t.api_key, body: { description: 'x' } });
    await createEndpoint(app.call, stranger.api_key, { url: receiver.url });
    const marker = await appendEvent(t.tenant_id, 'campaign.created', {
      ...EVENT_CATALOG.find((e) => e.type === 'campaign.created')!.example,
    });
    await receivedOnce(receiver, marker.id);
    await consistently(
      () => expect(receiver.requests.map((r) => header(r.headers, 'x-webhook-id'))).toEqual([marker.id]),
      400,
    );
  });

  const callsAvailable = existsSync(join(__dirname, '..', '..', '..', 'src', 'sessions', 'api', 'calls.controller.ts'));
  (callsAvailable ? it : it.skip)(
    'session events of a test-pool call (POST /v1/calls, test_mode) arrive signed and valid',
    async () => {
      const t = await tenant('Caller');
      const receiver = await startReceiver();
      const ep = await createEndpoint(app.call, t.api_key, { url: receiver.url, events: ['session.*', 'function.*'] });
      const res = await app.call('POST', '/v1/calls', {
        token: t.api_key,
        body: {
          to: '+14155550100',
          from: '+14155550000',
          agent_config: { prompt: 'Confirm the appointment.' },
          test_mode: true,
        },
      });
      expect(res.status).toBe(201);
      const sessionId = res.body.session_id as string;
      const ofSession = () =>
        receiver.requests.filter((r) => (envelopeOf(r).data as { session_id?: string }).session_id === sessionId);
      const typesNow = () => ofSession().map((r) => header(r.headers, 'x-webhook-event'));
      await eventually(
        () =>
          ['session.created', 'session.started', 'session.ended', 'session.recording_completed'].every((x) =>
            typesNow().includes(x),
          ),
        30_000,
      );
      for (const req of ofSession()) expectSignedDelivery(req, ep.secret, { tenantId: t.tenant_id });
      // Every catalog event stored for the session was delivered with its stored id.
      const { rows } = await app.t.db.pool.query<{ event_id: string; type: string }>(
        `SELECT event_id, type FROM events WHERE metadata->>'tenant_id' = $1 AND data->>'session_id' = $2`,
        [t.tenant_id, sessionId],
      );
      const stored = rows.filter((r) => isCatalogType(r.type)).map((r) => r.event_id);
      await eventually(() => stored.every((id) => receiver.byId(id).length > 0), 10_000);
    },
  );
});

// ------------------------------------------------------------------------------------------
// (c) filters
// ------------------------------------------------------------------------------------------

describe('subscription filters', () => {
  it('session.* gets session events only; exact types and "*" as subscribed; webhook.test only to the endpoint tested', async () => {
    const t = await tenant('Filters');
    const [rs, ra, rc] = await Promise.all([startReceiver(), startReceiver(), startReceiver()]);
    const sessions = await createEndpoint(app.call, t.api_key, { url: rs.url, events: ['session.*'] });
    const all = await createEndpoint(app.call, t.api_key, { url: ra.url, events: ['*'] });
    const campaign = await createEndpoint(app.call, t.api_key, { url: rc.url, events: ['campaign.created'] });
    const example = (type: string) => ({ ...EVENT_CATALOG.find((e) => e.type === type)!.example });

    const sc = await appendEvent(t.tenant_id, 'session.created', example('session.created'));
    const se = await appendEvent(t.tenant_id, 'session.ended', example('session.ended'));
    const cc = await appendEvent(t.tenant_id, 'campaign.created', example('campaign.created'));
    const cs = await appendEvent(t.tenant_id, 'campaign.started', example('campaign.started'));
    const rm = await appendEvent(t.tenant_id, 'room.created', example('room.created'));
    const testToSessions = await sendTest(app.call, t.api_key, sessions.id);
    const testToAll = await sendTest(app.call, t.api_key, all.id);

    const ids = (r: Receiver) => r.requests.map((q) => header(q.headers, 'x-webhook-id')).sort();
    await eventually(() => ra.requests.length >= 6 && rs.requests.length >= 3 && rc.requests.length >= 1, 10_000);
    await consistently(() => {
      expect(ids(rs)).toEqual([sc.id, se.id, testToSessions].sort());
      expect(ids(ra)).toEqual([sc.id, se.id, cc.id, cs.id, rm.id, testToAll].sort());
      expect(ids(rc)).toEqual([cc.id]);
    }, 500);
    for (const r of rs.requests) {
      const type = header(r.headers, 'x-webhook-event')!;
      expect(
        type.startsWith('session.') || (type === 'webhook.test' && r.headers['x-webhook-id'] === testToSessions),
      ).toBe(true);
      expectSignedDelivery(r, sessions.secret, { tenantId: t.tenant_id });
    }
    for (const r of ra.requests) expectSignedDelivery(r, all.secret, { tenantId: t.tenant_id });
    expectSignedDelivery(rc.requests[0]!, campaign.secret, { tenantId: t.tenant_id, id: cc.id });
  });

  it('a PATCHed filter applies to events committed after the change', async () => {
    const t = await tenant('Refilter');
    const r = await startReceiver();
    const ep = await createEndpoint(app.call, t.api_key, { url: r.url, events: ['room.*'] });
    const example = (type: string) => ({ ...EVENT_CATALOG.find((e) => e.type === type)!.example });
    const room = await appendEvent(t.tenant_id, 'room.created', example('room.created'));
    await receivedOnce(r, room.id);
    const patched = await app.call('PATCH', `/v1/webhook_endpoints/${ep.id}`, {
      token: t.api_key,
      body: { events: ['credits.*'] },
    });
    expect(patched.status).toBe(200);
    const room2 = await appendEvent(t.tenant_id, 'room.expired', example('room.expired'));
    const credits = await appendEvent(t.tenant_id, 'credits.depleted', example('credits.depleted'));
    await receivedOnce(r, credits.id);
    await consistently(() => expect(r.byId(room2.id)).toHaveLength(0), 300);
  });
});

// ------------------------------------------------------------------------------------------
// (d) retries
// ------------------------------------------------------------------------------------------

describe('retries', () => {
  async function retryScenario(label: string, failures: ReceiverAction[]) {
    const t = await tenant(label);
    const receiver = await startReceiver();
    receiver.queue(...failures);
    const ep = await createEndpoint(app.call, t.api_key, { url: receiver.url });
    const eventId = await sendTest(app.call, t.api_key, ep.id);
    const attempts = failures.length + 1;
    await eventually(() => receiver.byId(eventId).length >= attempts, 20_000);
    const delivery = await settledDelivery(t, ep.id, eventId, 'succeeded', attempts);
    await consistently(() => expect(receiver.byId(eventId)).toHaveLength(attempts), 400);

    const reqs = receiver.byId(eventId);
    for (const req of reqs) {
      expectSignedDelivery(req, ep.secret, { tenantId: t.tenant_id, id: eventId, type: 'webhook.test' });
      // Byte-identical body on every attempt.
      expect(req.rawBody.equals(reqs[0]!.rawBody)).toBe(true);
    }
    expect(delivery.next_attempt_at).toBeNull();
    for (const a of delivery.attempts) {
      expect(Object.keys(a).sort()).toEqual(['at', 'duration_ms', 'error', 'http_status']);
      expect(a.at).toMatch(ISO_MS);
      expect(Number.isInteger(a.duration_ms) && a.duration_ms >= 0).toBe(true);
    }
    expect(delivery.attempts[attempts - 1]).toMatchObject({ http_status: 200, error: null });
    return { delivery, reqs, t, ep };
  }

  it('500, 500, then 200: three attempts, same id and body, log 500,500,200', async () => {
    const { delivery } = await retryScenario('R500', [{ status: 500 }, { status: 500 }]);
    expect(delivery.attempts.map((a) => a.http_status)).toEqual([500, 500, 200]);
  });

  it('502 and 503 are retried too', async () => {
    const { delivery } = await retryScenario('R50x', [{ status: 502 }, { status: 503 }]);
    expect(delivery.attempts.map((a) => a.http_status)).toEqual([502, 503, 200]);
  });

  it('408 twice then 200', async () => {
    const { delivery } = await retryScenario('R408', [{ status: 408 }, { status: 408 }]);
    expect(delivery.attempts.map((a) => a.http_status)).toEqual([408, 408, 200]);
  });

  it('429 with Retry-After: 60 then 0, then 200; Retry-After lifts the 100 ms delay (capped at twice it)', async () => {
    const { delivery, reqs } = await retryScenario('R429', [
      { status: 429, headers: { 'retry-after': '60' } },
      { status: 429, headers: { 'retry-after': '0' } },
    ]);
    expect(delivery.attempts.map((a) => a.http_status)).toEqual([429, 429, 200]);
    // Scheduled 100 ms (±10%), Retry-After 60 s, cap 2 × 100 ms: the retry waits 200 ms. At least
    // 190 ms shows the header lifted the delay; well under 60 s shows the cap (the bound is loose on
    // purpose: a loaded CI machine once took 4.7 s to send a retry due after 200 ms).
    const gap = reqs[1]!.receivedAt - reqs[0]!.receivedAt;
    expect(gap).toBeGreaterThanOrEqual(190);
    expect(gap).toBeLessThan(20_000);
  });

  // Regression: the worker was once poked *before* an attempt's result was written, so the loop saw
  // the row still leased, slept the 1 s maximum and nothing poked it when the write committed; every
  // retry left at the next 1 s poll. The recorder (src/webhooks/infra/attempt-recorder.ts) now pokes
  // the worker after each flush commits.
  it('retries leave on the schedule (100 ms, 200 ms), not at the next 1 s poll of the worker', async () => {
    const { delivery, reqs } = await retryScenario('ROnTime', [{ status: 500 }, { status: 500 }]);
    expect(delivery.attempts.map((a) => a.http_status)).toEqual([500, 500, 200]);
    const gaps = [reqs[1]!.receivedAt - reqs[0]!.receivedAt, reqs[2]!.receivedAt - reqs[1]!.receivedAt];
    // Scheduled 100 ms and 200 ms (±10% jitter); generous slack for a loaded machine.
    expect({ gaps, onSchedule: gaps[0]! >= 85 && gaps[0]! < 600 && gaps[1]! >= 175 && gaps[1]! < 700 }).toEqual({
      gaps,
      onSchedule: true,
    });
  });

  it('a huge Retry-After is capped at twice the scheduled delay', async () => {
    const { delivery, reqs } = await retryScenario('RHuge', [{ status: 503, headers: { 'retry-after': '3600' } }]);
    expect(delivery.attempts.map((a) => a.http_status)).toEqual([503, 200]);
    expect(reqs[1]!.receivedAt - reqs[0]!.receivedAt).toBeLessThan(20_000);
  });

  it('timeouts (receiver answers after WEBHOOK_TIMEOUT_MS) are retried', async () => {
    const { delivery } = await retryScenario('RTimeout', [
      { status: 200, delayMs: TIMEOUT_MS * 3 },
      { status: 200, delayMs: TIMEOUT_MS * 3 },
    ]);
    expect(delivery.attempts.map((a) => a.http_status)).toEqual([null, null, 200]);
    for (const a of delivery.attempts.slice(0, 2)) {
      expect(a.error).toMatch(/timeout/i);
      expect(a.duration_ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
      expect(a.duration_ms).toBeLessThan(TIMEOUT_MS * 3);
    }
  });

  it('a receiver that answers 200 but never finishes its body does not hold the delivery past the timeout', async () => {
    const t = await tenant('Trickle');
    const receiver = await startReceiver();
    receiver.queue({ status: 200, trickleMs: 100 });
    const ep = await createEndpoint(app.call, t.api_key, { url: receiver.url });
    const eventId = await sendTest(app.call, t.api_key, ep.id);
    const first = await eventually(
      async () => (await deliveryOf(t, ep.id, eventId))?.attempts[0] ?? false,
      // How long the attempt took is the assertion below; reaching the worker and being recorded may
      // take a while on a loaded machine (a clean-clone CI run once took over 6 s).
      20_000,
    );
    expect(first.duration_ms).toBeLessThan(TIMEOUT_MS * 2);
    await eventually(async () => (await deliveryOf(t, ep.id, eventId))?.status === 'succeeded', 10_000);
  });

  it('connection resets (socket destroyed) are retried', async () => {
    const { delivery } = await retryScenario('RReset', [{ destroy: true }, { destroy: true }]);
    expect(delivery.attempts.map((a) => a.http_status)).toEqual([null, null, 200]);
    for (const a of delivery.attempts.slice(0, 2)) expect(a.error).toEqual(expect.any(String));
  });

  it('a refused connection is retried and fails permanently once the schedule runs out', async () => {
    const t = await tenant('Refused');
    const gone = await startReceiver();
    const url = gone.url;
    await gone.close(); // nothing listens there any more
    const ep = await createEndpoint(app.call, t.api_key, { url });
    const eventId = await sendTest(app.call, t.api_key, ep.id);
    // 4 retries scheduled: 5 attempts in all, then failed.
    const d = await settledDelivery(t, ep.id, eventId, 'failed', 5);
    expect(d.attempts.every((a) => a.http_status === null && typeof a.error === 'string')).toBe(true);
    expect(d.next_attempt_at).toBeNull();
    const get = await app.call('GET', `/v1/webhook_endpoints/${ep.id}`, { token: t.api_key });
    expect(get.body.failure_streak).toBe(1);
  });
});

// ------------------------------------------------------------------------------------------
// (e) permanent failures
// ------------------------------------------------------------------------------------------

describe('permanent failures', () => {
  it.each([400, 401, 404, 422])('%i: one attempt, failed, never retried', async (status) => {
    const t = await tenant(`P${status}`);
    const receiver = await startReceiver(() => ({ status }));
    const ep = await createEndpoint(app.call, t.api_key, { url: receiver.url });
    const eventId = await sendTest(app.call, t.api_key, ep.id);
    await receivedOnce(receiver, eventId);
    const d = await settledDelivery(t, ep.id, eventId, 'failed', 1);
    expect(d.attempts[0]).toMatchObject({ http_status: status });
    expect(d.next_attempt_at).toBeNull();
    await consistently(() => expect(receiver.byId(eventId)).toHaveLength(1), 800);
    expect((await deliveryOf(t, ep.id, eventId))!.attempts).toHaveLength(1);
  });

  it.each([301, 302, 307, 308])('%i redirect: not followed (the target gets nothing), failed', async (status) => {
    const t = await tenant(`Redirect${status}`);
    const target = await startReceiver();
    const receiver = await startReceiver(() => ({ status, headers: { location: target.url } }));
    const ep = await createEndpoint(app.call, t.api_key, { url: receiver.url });
    const eventId = await sendTest(app.call, t.api_key, ep.id);
    await receivedOnce(receiver, eventId);
    const d = await settledDelivery(t, ep.id, eventId, 'failed', 1);
    expect(d.attempts[0]).toMatchObject({ http_status: status });
    await consistently(() => {
      expect(target.requests).toHaveLength(0);
      expect(receiver.byId(eventId)).toHaveLength(1);
    }, 800);
  });
});

// ------------------------------------------------------------------------------------------
// (f) suspension
// ------------------------------------------------------------------------------------------

describe('suspension', () => {
  it(`${SUSPEND_AFTER} permanently failed deliveries suspend the endpoint, notify the other endpoint and mail the tenant; enable releases the backlog`, async () => {
    const t = await tenant('Suspended');
    const failing = await startReceiver(() => ({ status: 400 }));
    const notices = await startReceiver();
    const bad = await createEndpoint(app.call, t.api_key, { url: failing.url, description: 'always 400' });
    const good = await createEndpoint(app.call, t.api_key, { url: notices.url, events: ['*'] });

    const failedIds: string[] = [];
    for (let i = 0; i < SUSPEND_AFTER; i++) {
      const id = await sendTest(app.call, t.api_key, bad.id);
      failedIds.push(id);
      await settledDelivery(t, bad.id, id, 'failed', 1);
      if (i < SUSPEND_AFTER - 1) {
        const get = await app.call('GET', `/v1/webhook_endpoints/${bad.id}`, { token: t.api_key });
        expect(get.body.status).toBe('active');
      }
    }

    await eventually(async () => {
      const get = await app.call('GET', `/v1/webhook_endpoints/${bad.id}`, { token: t.api_key });
      expect(get.body.status).toBe('suspended');
      return true;
    });
    const getSuspended = await app.call('GET', `/v1/webhook_endpoints/${bad.id}`, { token: t.api_key });
    expect(getSuspended.body.failure_streak).toBe(SUSPEND_AFTER);
    const list = await app.call('GET', '/v1/webhook_endpoints', { token: t.api_key });
    expect(list.body.data.find((e: { id: string }) => e.id === bad.id).status).toBe('suspended');
    expect(list.body.data.find((e: { id: string }) => e.id === good.id).status).toBe('active');

    // The notice goes to the tenant's other endpoint, signed with that endpoint's secret.
    const noticeReq = await eventually(
      () =>
        notices.requests.find((r) => header(r.headers, 'x-webhook-event') === 'webhook.endpoint_disabled_notice') ??
        false,
    );
    const notice = expectSignedDelivery(noticeReq, good.secret, {
      tenantId: t.tenant_id,
      type: 'webhook.endpoint_disabled_notice',
    });
    expect(notice.data).toEqual({
      endpoint_id: bad.id,
      url: failing.url,
      disabled_at: expect.stringMatching(ISO_MS),
      failure_streak: SUSPEND_AFTER,
      last_status: 400,
    });
    expect(Math.abs(new Date(notice.data.disabled_at as string).getTime() - Date.now())).toBeLessThan(30_000);
    // Not to the suspended endpoint itself; exactly one notice.
    expect(failing.requests.map((r) => header(r.headers, 'x-webhook-event'))).toEqual(
      Array(SUSPEND_AFTER).fill('webhook.test'),
    );
    await consistently(
      () =>
        expect(
          notices.requests.filter((r) => header(r.headers, 'x-webhook-event') === 'webhook.endpoint_disabled_notice'),
        ).toHaveLength(1),
      300,
    );

    // The e-mail, through the real SMTP server, at the tenant's address, naming the endpoint.
    const mail = await eventually(() => smtp.mails.find((m) => m.to.includes(t.email)) ?? false, 15_000);
    const text = decodeMailText(mail.raw);
    expect(mail.subject).toContain(bad.id);
    expect(text).toContain(failing.url);
    expect(text).toContain(bad.id);
    expect(mail.from).toBe('notices@platform.example');

    // While suspended: new events for it are kept pending and not sent.
    const countBefore = failing.requests.length;
    failing.setBehaviour(() => ({ status: 200 }));
    const heldId = await sendTest(app.call, t.api_key, bad.id);
    await eventually(async () => (await deliveryOf(t, bad.id, heldId))?.status === 'pending');
    await consistently(
      async () => {
        expect(failing.requests).toHaveLength(countBefore);
      },
      1_000,
      100,
    );
    const held = await deliveryOf(t, bad.id, heldId);
    expect(held).toMatchObject({ status: 'pending', attempts: [], event_type: 'webhook.test' });
    expect(held!.next_attempt_at).toEqual(expect.stringMatching(ISO_MS));

    // enable: active, streak reset, the backlog goes out.
    const enabled = await app.call('POST', `/v1/webhook_endpoints/${bad.id}/enable`, { token: t.api_key });
    expect(enabled.status).toBe(200);
    expect(enabled.body).toMatchObject({ id: bad.id, status: 'active', failure_streak: 0 });
    const released = await receivedOnce(failing, heldId);
    expectSignedDelivery(released, bad.secret, { tenantId: t.tenant_id, id: heldId, type: 'webhook.test' });
    await settledDelivery(t, bad.id, heldId, 'succeeded', 1);
    // The deliveries that failed before the suspension stay failed (recover is the way back).
    for (const id of failedIds) expect((await deliveryOf(t, bad.id, id))!.status).toBe('failed');
  });

  it('410 Gone suspends at once', async () => {
    const t = await tenant('Gone');
    const gone = await startReceiver(() => ({ status: 410 }));
    const other = await startReceiver();
    const ep = await createEndpoint(app.call, t.api_key, { url: gone.url });
    const otherEp = await createEndpoint(app.call, t.api_key, { url: other.url });
    const eventId = await sendTest(app.call, t.api_key, ep.id);
    const d = await settledDelivery(t, ep.id, eventId, 'failed', 1);
    expect(d.attempts[0]).toMatchObject({ http_status: 410 });
    await eventually(
      async () =>
        (await app.call('GET', `/v1/webhook_endpoints/${ep.id}`, { token: t.api_key })).body.status === 'suspended',
    );
    const noticeReq = await eventually(
      () =>
        other.requests.find((r) => header(r.headers, 'x-webhook-event') === 'webhook.endpoint_disabled_notice') ??
        false,
    );
    const notice = expectSignedDelivery(noticeReq, otherEp.secret, { tenantId: t.tenant_id });
    expect(notice.data).toMatchObject({ endpoint_id: ep.id, url: gone.url, failure_streak: 1, last_status: 410 });
    await consistently(() => expect(gone.byId(eventId)).toHaveLength(1), 500);
    await eventually(() => smtp.mails.some((m) => m.to.includes(t.email) && m.subject.includes(ep.id)), 15_000);
  });

  it('a success resets the streak: failures that are not consecutive never suspend', async () => {
    const t = await tenant('Flaky');
    const receiver = await startReceiver();
    const ep = await createEndpoint(app.call, t.api_key, { url: receiver.url });
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < SUSPEND_AFTER - 1; i++) {
        receiver.queue({ status: 400 });
        const id = await sendTest(app.call, t.api_key, ep.id);
        await settledDelivery(t, ep.id, id, 'failed', 1);
      }
      const ok = await sendTest(app.call, t.api_key, ep.id);
      await settledDelivery(t, ep.id, ok, 'succeeded', 1);
      const get = await app.call('GET', `/v1/webhook_endpoints/${ep.id}`, { token: t.api_key });
      expect(get.body).toMatchObject({ status: 'active', failure_streak: 0 });
    }
  });
});

// ------------------------------------------------------------------------------------------
// (g) recover and manual retry
// ------------------------------------------------------------------------------------------

describe('recover and manual retry', () => {
  it('recover {since} re-sends failed deliveries with their original ids; retry makes a new attempt with the same id', async () => {
    const t = await tenant('Recover');
    const receiver = await startReceiver(() => ({ status: 400 }));
    const ep = await createEndpoint(app.call, t.api_key, { url: receiver.url });
    const since = new Date(Date.now() - 1_000).toISOString();
    // Stay below WEBHOOK_SUSPEND_AFTER so the endpoint stays active.
    const failed: string[] = [];
    for (let i = 0; i < SUSPEND_AFTER - 1; i++) {
      const id = await sendTest(app.call, t.api_key, ep.id);
      await settledDelivery(t, ep.id, id, 'failed', 1);
      failed.push(id);
    }
    receiver.setBehaviour(() => ({ status: 200 }));
    const okId = await sendTest(app.call, t.api_key, ep.id);
    await settledDelivery(t, ep.id, okId, 'succeeded', 1);

    const rec = await app.call('POST', `/v1/webhook_endpoints/${ep.id}/recover`, { token: t.api_key, body: { since } });
    expect(rec.status).toBe(202);
    for (const id of failed) {
      await eventually(() => receiver.byId(id).length === 2);
      const [first, second] = receiver.byId(id);
      expectSignedDelivery(second!, ep.secret, { tenantId: t.tenant_id, id, type: 'webhook.test' });
      expect(second!.rawBody.equals(first!.rawBody)).toBe(true);
      const d = await settledDelivery(t, ep.id, id, 'succeeded', 2);
      expect(d.attempts.map((a) => a.http_status)).toEqual([400, 200]);
    }
    // The succeeded one is not re-sent.
    await consistently(() => expect(receiver.byId(okId)).toHaveLength(1), 400);

    // A recover from a later time picks nothing.
    const none = await app.call('POST', `/v1/webhook_endpoints/${ep.id}/recover`, {
      token: t.api_key,
      body: { since: new Date().toISOString() },
    });
    expect(none.status).toBe(202);

    // Manual retry of one (succeeded) delivery: a new attempt now, same event id and body.
    const row = (await deliveryOf(t, ep.id, okId))!;
    const retry = await app.call('POST', `/v1/webhook_endpoints/${ep.id}/deliveries/${row.delivery_id}/retry`, {
      token: t.api_key,
    });
    expect(retry.status).toBe(202);
    await eventually(() => receiver.byId(okId).length === 2);
    const [a, b] = receiver.byId(okId);
    expectSignedDelivery(b!, ep.secret, { tenantId: t.tenant_id, id: okId });
    expect(b!.rawBody.equals(a!.rawBody)).toBe(true);
    const after = await settledDelivery(t, ep.id, okId, 'succeeded', 2);
    expect(after.delivery_id).toBe(row.delivery_id);

    // Unknown delivery id: 404.
    const unknown = await app.call('POST', `/v1/webhook_endpoints/${ep.id}/deliveries/dlv_nope/retry`, {
      token: t.api_key,
    });
    expect(unknown.status).toBe(404);
  });

  it('a manual retry while an attempt is in flight is a 409: one request at a time, attempts counted once', async () => {
    const t = await tenant('RetryInFlight');
    const DELAY_MS = 1_000; // below WEBHOOK_TIMEOUT_MS: a slow answer, not a timeout
    const receiver = await startReceiver(() => ({ status: 200, delayMs: DELAY_MS }));
    const ep = await createEndpoint(app.call, t.api_key, { url: receiver.url });
    const id = await sendTest(app.call, t.api_key, ep.id);
    await eventually(() => receiver.byId(id).length === 1);
    const row = (await deliveryOf(t, ep.id, id))!;
    const retryPath = `/v1/webhook_endpoints/${ep.id}/deliveries/${row.delivery_id}/retry`;
    // The first attempt is still waiting for its answer.
    const during = await app.call('POST', retryPath, { token: t.api_key });
    expect([during.status, during.body.error?.type, during.body.error?.param]).toEqual([
      409,
      'conflict',
      'delivery_id',
    ]);
    expect(during.body.error.message).toMatch(/in flight/);
    const settled = await settledDelivery(t, ep.id, id, 'succeeded', 1);
    expect(settled.attempts.map((a) => a.http_status)).toEqual([200]);
    await consistently(() => expect(receiver.byId(id)).toHaveLength(1), DELAY_MS + 500);
    const { rows } = await app.t.db.pool.query('SELECT attempt_count FROM webhook_deliveries WHERE delivery_id = $1', [
      row.delivery_id,
    ]);
    expect(rows[0].attempt_count).toBe(1);

    // Once the attempt has ended, a retry sends it again, after the first one: never two at once.
    expect((await app.call('POST', retryPath, { token: t.api_key })).status).toBe(202);
    await settledDelivery(t, ep.id, id, 'succeeded', 2);
    const [first, second] = receiver.byId(id);
    expect(second!.receivedAt).toBeGreaterThanOrEqual(first!.receivedAt + DELAY_MS);
  });

  it('recover validates since', async () => {
    const t = await tenant('RecoverBad');
    const receiver = await startReceiver();
    const ep = await createEndpoint(app.call, t.api_key, { url: receiver.url });
    for (const body of [{}, { since: 'yesterday' }, { since: 12 }]) {
      const res = await app.call('POST', `/v1/webhook_endpoints/${ep.id}/recover`, { token: t.api_key, body });
      expect(res.status).toBe(400);
      expect(res.body.error.param).toBe('since');
    }
  });
});

// ------------------------------------------------------------------------------------------
// (h) deliveries log
// ------------------------------------------------------------------------------------------

describe('deliveries log', () => {
  it('has the shape of docs/webhooks.md, newest first', async () => {
    const t = await tenant('Log');
    const receiver = await startReceiver();
    receiver.queue({ status: 503 });
    const ep = await createEndpoint(app.call, t.api_key, { url: receiver.url });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push(await sendTest(app.call, t.api_key, ep.id));
      await receivedOnce(receiver, ids[i]!);
    }
    await settledDelivery(t, ep.id, ids[0]!, 'succeeded', 2);
    await settledDelivery(t, ep.id, ids[2]!, 'succeeded', 1);
    const res = await app.call('GET', `/v1/webhook_endpoints/${ep.id}/deliveries`, { token: t.api_key });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['data']);
    const rows = res.body.data as DeliveryRow[];
    expect(rows.map((r) => r.event_id)).toEqual([...ids].reverse());
    for (const r of rows) {
      expect(Object.keys(r).sort()).toEqual([
        'attempts',
        'delivery_id',
        'event_id',
        'event_type',
        'next_attempt_at',
        'status',
      ]);
      expect(r.delivery_id).toEqual(expect.any(String));
      expect(r.event_type).toBe('webhook.test');
      expect(['pending', 'succeeded', 'failed']).toContain(r.status);
      expect(r.next_attempt_at).toBeNull();
      for (const a of r.attempts) {
        expect(Object.keys(a).sort()).toEqual(['at', 'duration_ms', 'error', 'http_status']);
        expect(a.at).toMatch(ISO_MS);
      }
    }
    const first = rows[2]!;
    expect(first.attempts.map((a) => [a.http_status, a.error])).toEqual([
      [503, null],
      [200, null],
    ]);
    expect(new Date(first.attempts[0]!.at).getTime()).toBeLessThanOrEqual(new Date(first.attempts[1]!.at).getTime());

    const bad = await app.call('GET', `/v1/webhook_endpoints/${ep.id}/deliveries?limit=0`, { token: t.api_key });
    expect(bad.status).toBe(400);
    const limited = await app.call('GET', `/v1/webhook_endpoints/${ep.id}/deliveries?limit=1`, { token: t.api_key });
    expect(limited.body.data.map((r: DeliveryRow) => r.event_id)).toEqual([ids[2]]);
  });

  it('a deleted endpoint receives nothing more', async () => {
    const t = await tenant('Deleted');
    const receiver = await startReceiver();
    const ep: CreatedEndpoint = await createEndpoint(app.call, t.api_key, { url: receiver.url });
    const del = await app.call('DELETE', `/v1/webhook_endpoints/${ep.id}`, { token: t.api_key });
    expect(del.status).toBe(200);
    const ev = await appendEvent(t.tenant_id, 'campaign.created', {
      ...EVENT_CATALOG.find((e) => e.type === 'campaign.created')!.example,
    });
    await eventually(async () => {
      const { rows } = await app.t.db.pool.query(
        `SELECT 1 FROM projection_checkpoints c, events e WHERE c.name = 'webhook_outbox' AND e.event_id = $1
         AND (e.transaction_id::text::bigint, e.global_position) <= (c.commit_position, c.prepare_position)`,
        [ev.id],
      );
      return rows.length === 1;
    });
    await consistently(() => expect(receiver.requests).toHaveLength(0), 400);
  });
});
