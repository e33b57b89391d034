/**
 * The analytics queries behind the dashboard's charts (docs/analytics.md), against the real service
 * with simulated calls: calls per UTC day, delivery success per endpoint, a delivery's payload and
 * answers, and a campaign's progress over time. Each figure is checked against the records the API
 * lists one by one; bad input is a 400 naming the parameter; another tenant sees none of it.
 */
import {
  FROM_NUMBER,
  placeCall,
  startCallsService,
  type CallsService,
  type SessionBody,
} from '../../support/calls-harness';
import { ALWAYS, contactsFor, FROM } from '../../support/campaigns-harness';
import { eventually } from '../../support/eventually';
import { killAllServices } from '../../support/process';
import {
  closeAllReceivers,
  createEndpoint,
  assignNumber,
  createTenant,
  envelopeOf,
  startReceiver,
  type TenantInfo,
} from '../../support/webhooks-harness';

jest.setTimeout(120_000);

let h: CallsService;
let tenant: TenantInfo;
let other: TenantInfo;

const api = <T = any>(method: string, path: string, body?: unknown, who: TenantInfo = tenant) =>
  h.call<T>(method, path, { token: who.api_key, ...(body === undefined ? {} : { body }) });

beforeAll(async () => {
  h = await startCallsService({
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    SIM_TIME_SCALE: '0.01',
    WEBHOOK_RETRY_SCHEDULE: '100ms',
    WEBHOOK_SUSPEND_AFTER: '1000',
  });
  tenant = await createTenant(h.call, h.svc.adminToken, 'Analytics Co');
  // Its production calls come from a number it owns (decision 178).
  await assignNumber(h.call, h.svc.adminToken, tenant.tenant_id, FROM_NUMBER);
  other = await createTenant(h.call, h.svc.adminToken, 'Other Co');
});

afterAll(async () => {
  await closeAllReceivers();
  await h?.destroy();
  await killAllServices();
});

const utcToday = () => new Date().toISOString().slice(0, 10);
const ENDED = new Set(['completed', 'failed', 'no_answer', 'voicemail', 'busy']);

/** The figures of a set of sessions, computed one by one from what GET /v1/sessions shows. */
function expectedFigures(sessions: (SessionBody & Record<string, any>)[]) {
  const ended = sessions.filter((s) => ENDED.has(s.status));
  const answered = ended.filter((s) => s.started_at !== null);
  const seconds = answered.reduce((sum, s) => sum + (s.duration_seconds as number), 0);
  return {
    calls: sessions.length,
    ended: ended.length,
    answered: answered.length,
    answer_rate: ended.length === 0 ? null : Number((answered.length / ended.length).toFixed(4)),
    average_duration_seconds: answered.length === 0 ? null : Number((seconds / answered.length).toFixed(1)),
    spend_cents: sessions.reduce((sum, s) => sum + (s.actual_cost_cents as number), 0),
  };
}

describe('GET /v1/analytics/calls and /v1/analytics/deliveries', () => {
  it('counts the day’s calls by status, answer rate, duration and spend; deliveries by endpoint', async () => {
    const good = await startReceiver(() => ({ status: 200, body: '{"received":true}' }));
    const bad = await startReceiver(() => ({ status: 500, body: 'upstream exploded' }));
    const goodEndpoint = await createEndpoint(h.call, tenant.api_key, { url: good.url, events: ['session.*'] });
    const badEndpoint = await createEndpoint(h.call, tenant.api_key, {
      url: bad.url,
      events: ['session.ended', 'session.failed'],
    });
    const grant = await h.call('POST', `/admin/v1/tenants/${tenant.tenant_id}/credits`, {
      token: h.svc.adminToken,
      body: { amount_cents: 100_000 },
    });
    expect(grant.status).toBe(200);

    const placed = [
      ...(await Promise.all(
        ['+14155550101', '+14155550102', '+14155550103'].map((n) =>
          placeCall(h.call, tenant.api_key, n, { testMode: true }),
        ),
      )),
      ...(await Promise.all(['+14155550104', '+14155550105'].map((n) => placeCall(h.call, tenant.api_key, n)))),
    ];
    const sessions = await eventually(
      async () => {
        const list = (await api<{ data: any[] }>('GET', '/v1/sessions?limit=100')).body.data;
        return list.length === placed.length && list.every((s) => ENDED.has(s.status)) && list;
      },
      60_000,
      200,
    );
    expect(sessions.some((s) => s.actual_cost_cents > 0)).toBe(true); // production calls are billed

    const res = await api('GET', '/v1/analytics/calls?days=7');
    expect(res.status).toBe(200);
    expect(res.body.days).toBe(7);
    expect(res.body.time_zone).toBe('UTC');
    expect(res.body.data).toHaveLength(7);
    expect(res.body.to).toBe(utcToday());
    expect(res.body.data.at(-1).date).toBe(utcToday());
    expect(res.body.data[0].date).toBe(res.body.from);
    const today = res.body.data.at(-1);
    expect(today).toMatchObject(expectedFigures(sessions));
    for (const status of ['completed', 'failed', 'no_answer', 'voicemail', 'busy', 'queued', 'in_progress'])
      expect([status, today.by_status[status]]).toEqual([status, sessions.filter((s) => s.status === status).length]);
    for (const day of res.body.data.slice(0, -1))
      expect(day).toMatchObject({ calls: 0, spend_cents: 0, answer_rate: null });
    expect(res.body.totals).toMatchObject(expectedFigures(sessions));

    const test = (await api('GET', '/v1/analytics/calls?days=1&test_mode=true')).body;
    expect(test.data).toHaveLength(1);
    expect(test.totals).toMatchObject(expectedFigures(sessions.filter((s) => s.test_mode)));
    expect(test.totals.spend_cents).toBe(0);
    const production = (await api('GET', '/v1/analytics/calls?test_mode=false')).body;
    expect(production.data).toHaveLength(30);
    expect(production.totals).toMatchObject(expectedFigures(sessions.filter((s) => !s.test_mode)));

    // Another tenant sees none of it.
    expect((await api('GET', '/v1/analytics/calls', undefined, other)).body.totals.calls).toBe(0);

    // Deliveries: every session event arrives at the good endpoint; the bad one fails each call's end.
    const deliveriesOf = async (endpointId: string) =>
      (await api<{ data: any[] }>('GET', `/v1/webhook_endpoints/${endpointId}/deliveries?limit=100`)).body.data;
    const settled = async (endpointId: string) => {
      const list = await deliveriesOf(endpointId);
      return list.length > 0 && list.every((d) => d.status !== 'pending') && list;
    };
    // Settled and no longer growing: a session's last events may still be on their way.
    const stable = async (endpointId: string) => {
      const first = await settled(endpointId);
      if (!first) return false;
      await new Promise((r) => setTimeout(r, 1000));
      const again = await settled(endpointId);
      return again && again.length === first.length && again;
    };
    const goodList = await eventually(() => stable(goodEndpoint.id), 30_000, 200);
    const badList = await eventually(
      async () => {
        const list = await settled(badEndpoint.id);
        return list && list.length === placed.length && list;
      },
      60_000,
      200,
    );
    const figures = (await api('GET', '/v1/analytics/deliveries?days=30')).body;
    expect(figures).toMatchObject({ days: 30, time_zone: 'UTC', to: utcToday() });
    const count = (list: any[], status: string) => list.filter((d) => d.status === status).length;
    expect(figures.data).toEqual([
      {
        endpoint_id: badEndpoint.id,
        url: bad.url,
        status: 'active',
        failure_streak: expect.any(Number),
        succeeded: 0,
        failed: badList.length,
        pending: 0,
        success_rate: 0,
      },
      {
        endpoint_id: goodEndpoint.id,
        url: good.url,
        status: 'active',
        failure_streak: 0,
        succeeded: count(goodList, 'succeeded'),
        failed: 0,
        pending: 0,
        success_rate: 1,
      },
    ]);
    expect(count(goodList, 'succeeded')).toBe(goodList.length);
    expect((await api('GET', '/v1/analytics/deliveries', undefined, other)).body.data).toEqual([]);

    // One delivery: the payload sent (byte for byte the envelope received) and the receiver's answer.
    const failed = badList[0];
    const detail = await api('GET', `/v1/webhook_endpoints/${badEndpoint.id}/deliveries/${failed.delivery_id}`);
    expect(detail.status).toBe(200);
    const sent = bad.requests.find((r) => envelopeOf(r).id === failed.event_id)!;
    expect(detail.body.payload).toEqual(JSON.parse(sent.body));
    expect(detail.body.attempts.length).toBeGreaterThan(0);
    for (const a of detail.body.attempts)
      expect(a).toMatchObject({ http_status: 500, response_body: 'upstream exploded' });
    const ok = goodList[0];
    const okDetail = (await api('GET', `/v1/webhook_endpoints/${goodEndpoint.id}/deliveries/${ok.delivery_id}`)).body;
    expect(okDetail.attempts.at(-1)).toMatchObject({ http_status: 200, response_body: '{"received":true}' });
    // Another endpoint's or tenant's delivery is not found.
    expect((await api('GET', `/v1/webhook_endpoints/${goodEndpoint.id}/deliveries/${failed.delivery_id}`)).status).toBe(
      404,
    );
    expect(
      (await api('GET', `/v1/webhook_endpoints/${badEndpoint.id}/deliveries/${failed.delivery_id}`, undefined, other))
        .status,
    ).toBe(404);
  });

  it.each([
    ['/v1/analytics/calls?days=0', 'days'],
    ['/v1/analytics/calls?days=91', 'days'],
    ['/v1/analytics/calls?days=abc', 'days'],
    ['/v1/analytics/calls?days=1.5', 'days'],
    ['/v1/analytics/calls?test_mode=yes', 'test_mode'],
    ['/v1/analytics/calls?since=2026-01-01', 'since'],
    ['/v1/analytics/deliveries?days=-1', 'days'],
    ['/v1/analytics/deliveries?days=', 'days'],
  ])('%s is a 400 naming %s', async (path, param) => {
    const res = await api('GET', path);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ type: 'invalid_request', param });
  });
});

describe('GET /v1/campaigns/{id}/progress', () => {
  it('counts the finished contacts per interval with the running total', async () => {
    const numbers = Array.from({ length: 6 }, (_, i) => `+1415555${String(3000 + i)}`);
    const created = await api('POST', '/v1/campaigns/run', {
      name: 'Progress',
      from_number: FROM,
      test_mode: true,
      contacts: contactsFor(numbers),
      settings: { max_concurrency: 3, quiet_hours: ALWAYS },
    });
    expect(created.status).toBe(201);
    const id = created.body.campaign_id as string;
    const empty = (await api('GET', `/v1/campaigns/${id}/progress`)).body;
    expect(empty).toMatchObject({ campaign_id: id, interval: 'hour', time_zone: 'UTC', total_contacts: 6 });
    await eventually(async () => (await api('GET', `/v1/campaigns/${id}`)).body.status === 'completed', 60_000, 200);
    const campaign = (await api('GET', `/v1/campaigns/${id}`)).body;

    const res = await api('GET', `/v1/campaigns/${id}/progress?interval=minute`);
    expect(res.status).toBe(200);
    expect(res.body.interval).toBe('minute');
    const buckets = res.body.data as {
      at: string;
      completed: number;
      failed: number;
      skipped: number;
      finished_total: number;
    }[];
    expect(buckets.length).toBeGreaterThan(0);
    for (const b of buckets) expect(b.at).toMatch(/T\d\d:\d\d:00\.000Z$/);
    const sum = (key: 'completed' | 'failed' | 'skipped') => buckets.reduce((n, b) => n + b[key], 0);
    expect({ completed: sum('completed'), failed: sum('failed'), skipped: sum('skipped') }).toEqual({
      completed: campaign.contacts.completed,
      failed: campaign.contacts.failed,
      skipped: campaign.contacts.skipped,
    });
    expect(buckets.at(-1)!.finished_total).toBe(6);
    const days = (await api('GET', `/v1/campaigns/${id}/progress?interval=day`)).body.data;
    expect(days).toEqual([expect.objectContaining({ at: `${utcToday()}T00:00:00.000Z`, finished_total: 6 })]);

    const bad = await api('GET', `/v1/campaigns/${id}/progress?interval=week`);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ type: 'invalid_request', param: 'interval' });
    expect((await api('GET', `/v1/campaigns/${id}/progress`, undefined, other)).status).toBe(404);
    expect((await api('GET', '/v1/campaigns/cmp_nope/progress')).status).toBe(404);
  });
});
