import { eventCatalog } from '../../../src/app.module';
import { serializeEnvelope, toEnvelope, type EventEnvelope } from '../../../src/catalog/envelope';
import { EVENT_STORE, EventStore, NewEvent, Position } from '../../../src/event-store/event-store.port';
import { ProjectionsService } from '../../../src/runtime/processing/processors.service';
import { newEventId } from '../../../src/kernel/ids';
import { CreatedTenant, startTestApp, TestApp } from '../../support/app';

interface EventList {
  data: EventEnvelope[];
  has_more: boolean;
}

describe('GET /v1/events (audit) and projection rebuilds', () => {
  let t: TestApp;
  let store: EventStore;
  let projections: ProjectionsService;
  let a: CreatedTenant;
  let b: CreatedTenant;
  /** Ids appended for each tenant, in commit order. */
  const appended = new Map<string, { id: string; type: string }[]>();
  let clock = Date.parse('2026-03-02T17:00:00.000Z');

  const catalogEvent = (tenantId: string, type: 'webhook.test' | 'credits.low_balance'): NewEvent => {
    clock += 1000;
    const createdAt = new Date(clock).toISOString();
    const data =
      type === 'webhook.test'
        ? // Keys deliberately out of schema order: the envelope must put them in order.
          { emitted_at: createdAt, endpoint_id: `we_${tenantId.slice(4, 12)}` }
        : { currency: 'USD', threshold_cents: 500, balance_cents: 480 };
    return { id: newEventId(), type, data, metadata: { tenant_id: tenantId, created_at: createdAt } };
  };

  /** Appends one event per call (each its own transaction, so commit order is call order). */
  const append = async (tenantId: string, type: 'webhook.test' | 'credits.low_balance'): Promise<Position> => {
    const event = catalogEvent(tenantId, type);
    const result = await store.append(`audit-test-${tenantId}`, [event], 'any');
    appended.set(tenantId, [...(appended.get(tenantId) ?? []), { id: event.id, type }]);
    return result.position;
  };

  const list = async (tenant: CreatedTenant, query = ''): Promise<EventList> => {
    const res = await t.asTenant(tenant.api_key, { method: 'GET', url: `/v1/events${query}` });
    expect({ status: res.statusCode, body: res.body }).toEqual({ status: 200, body: expect.any(String) });
    return res.json<EventList>();
  };

  beforeAll(async () => {
    t = await startTestApp();
    store = t.app.get<EventStore>(EVENT_STORE);
    projections = t.app.get(ProjectionsService);
    a = await t.createTenant('Audit A');
    b = await t.createTenant('Audit B');
    let last: Position | null = null;
    // Interleave the tenants: A gets 7 events (4 webhook.test, 3 credits.low_balance), B gets 3.
    const plan: [CreatedTenant, 'webhook.test' | 'credits.low_balance'][] = [
      [a, 'webhook.test'],
      [b, 'credits.low_balance'],
      [a, 'credits.low_balance'],
      [a, 'webhook.test'],
      [b, 'webhook.test'],
      [a, 'webhook.test'],
      [a, 'credits.low_balance'],
      [b, 'webhook.test'],
      [a, 'webhook.test'],
      [a, 'credits.low_balance'],
    ];
    for (const [tenant, type] of plan) last = await append(tenant.tenant_id, type);
    expect(await projections.waitForProjections(last!)).toBe(true);
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('listing', () => {
    it("returns only the caller's catalog events, in commit order, as envelopes", async () => {
      const page = await list(a);
      expect(page.has_more).toBe(false);
      expect(page.data.map((e) => e.id)).toEqual(appended.get(a.tenant_id)!.map((e) => e.id));
      expect(page.data.map((e) => e.type)).toEqual(appended.get(a.tenant_id)!.map((e) => e.type));
      for (const envelope of page.data) {
        expect(Object.keys(envelope)).toEqual(['id', 'type', 'tenant_id', 'created_at', 'data']);
        expect(envelope.tenant_id).toBe(a.tenant_id);
        expect(envelope.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      }
      const bPage = await list(b);
      expect(bPage.data.map((e) => e.id)).toEqual(appended.get(b.tenant_id)!.map((e) => e.id));
      expect(bPage.data.every((e) => e.tenant_id === b.tenant_id)).toBe(true);
    });

    it('does not list internal events (tenant.*), which are not in the catalog', async () => {
      const page = await list(a, '?limit=100');
      expect(page.data.some((e) => e.type.startsWith('tenant.'))).toBe(false);
    });

    it('serves the exact envelope of the stored event: same id, payload keys in catalog order, byte-identical JSON', async () => {
      const res = await t.asTenant(a.api_key, { method: 'GET', url: '/v1/events' });
      const page = res.json<EventList>();
      const stored = await store.readByIds(page.data.map((e) => e.id));
      expect(stored.map((s) => s.id)).toEqual(page.data.map((e) => e.id));
      const { rows } = await t.db.pool.query<{ event_id: string }>(
        `SELECT event_id FROM events WHERE metadata->>'tenant_id' = $1 AND stream_id LIKE 'audit-test-%'
         ORDER BY transaction_id, global_position`,
        [a.tenant_id],
      );
      expect(rows.map((r) => r.event_id)).toEqual(page.data.map((e) => e.id));
      for (const [i, envelope] of page.data.entries()) {
        expect(serializeEnvelope(eventCatalog, envelope)).toBe(
          serializeEnvelope(eventCatalog, toEnvelope(eventCatalog, stored[i]!)),
        );
        expect(JSON.stringify(envelope)).toBe(serializeEnvelope(eventCatalog, toEnvelope(eventCatalog, stored[i]!)));
      }
      const webhookTest = page.data.find((e) => e.type === 'webhook.test')!;
      expect(Object.keys(webhookTest.data)).toEqual(['endpoint_id', 'emitted_at']);
      const lowBalance = page.data.find((e) => e.type === 'credits.low_balance')!;
      expect(lowBalance.data).toEqual({ balance_cents: 480, threshold_cents: 500, currency: 'USD' });
      expect(Object.keys(lowBalance.data)).toEqual(['balance_cents', 'threshold_cents', 'currency']);
    });

    it('filters by type', async () => {
      const page = await list(a, '?type=credits.low_balance');
      const expected = appended.get(a.tenant_id)!.filter((e) => e.type === 'credits.low_balance');
      expect(page.data.map((e) => e.id)).toEqual(expected.map((e) => e.id));
      expect(page.data.every((e) => e.type === 'credits.low_balance')).toBe(true);
      expect(page.has_more).toBe(false);
      expect((await list(a, '?type=session.ended')).data).toEqual([]);
    });

    it('pages with limit and the after cursor, has_more until the last page', async () => {
      const all = appended.get(a.tenant_id)!.map((e) => e.id);
      expect(all).toHaveLength(7);
      const seen: string[] = [];
      const pages: { n: number; has_more: boolean }[] = [];
      let after = '';
      for (;;) {
        const page = await list(a, `?limit=3${after ? `&after=${after}` : ''}`);
        seen.push(...page.data.map((e) => e.id));
        pages.push({ n: page.data.length, has_more: page.has_more });
        if (!page.has_more) break;
        after = page.data[page.data.length - 1]!.id;
      }
      expect(pages).toEqual([
        { n: 3, has_more: true },
        { n: 3, has_more: true },
        { n: 1, has_more: false },
      ]);
      expect(seen).toEqual(all);
    });

    it('says has_more false when the page ends exactly at the last event', async () => {
      const page = await list(a, '?limit=7');
      expect(page.data).toHaveLength(7);
      expect(page.has_more).toBe(false);
      const after = await list(a, `?after=${page.data[6]!.id}`);
      expect(after).toEqual({ data: [], has_more: false });
    });

    it('combines type and after', async () => {
      const webhookIds = appended
        .get(a.tenant_id)!
        .filter((e) => e.type === 'webhook.test')
        .map((e) => e.id);
      // The cursor may be an event of another type: events after it, of the requested type.
      const firstLow = appended.get(a.tenant_id)!.find((e) => e.type === 'credits.low_balance')!.id;
      const page = await list(a, `?type=webhook.test&after=${firstLow}&limit=2`);
      const idxOfCursor = appended.get(a.tenant_id)!.findIndex((e) => e.id === firstLow);
      const expected = appended
        .get(a.tenant_id)!
        .slice(idxOfCursor + 1)
        .filter((e) => e.type === 'webhook.test')
        .map((e) => e.id);
      expect(page.data.map((e) => e.id)).toEqual(expected.slice(0, 2));
      expect(page.has_more).toBe(expected.length > 2);
      expect(webhookIds).toEqual(expect.arrayContaining(expected));
    });

    it.each(['0', '101', 'abc', '-1', '2.5', ''])('answers 400 param limit for limit=%p', async (limit) => {
      const res = await t.asTenant(a.api_key, { method: 'GET', url: `/v1/events?limit=${limit}` });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: expect.objectContaining({ type: 'invalid_request', param: 'limit' }) });
    });

    it('accepts limit=1 and limit=100', async () => {
      expect((await list(a, '?limit=1')).data).toHaveLength(1);
      expect((await list(a, '?limit=100')).data).toHaveLength(7);
    });

    it('answers 400 param type for an unknown type', async () => {
      const res = await t.asTenant(a.api_key, { method: 'GET', url: '/v1/events?type=tenant.created' });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: expect.objectContaining({ type: 'invalid_request', param: 'type' }) });
    });

    it('answers 404 for an unknown after cursor', async () => {
      const res = await t.asTenant(a.api_key, { method: 'GET', url: `/v1/events?after=${newEventId()}` });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: expect.objectContaining({ type: 'not_found', param: 'after' }) });
    });

    it("answers 404 for a cursor that is another tenant's event id", async () => {
      const bEvent = appended.get(b.tenant_id)![0]!.id;
      const res = await t.asTenant(a.api_key, { method: 'GET', url: `/v1/events?after=${bEvent}` });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: expect.objectContaining({ type: 'not_found' }) });
      expect(res.body).not.toContain(b.tenant_id);
    });
  });

  describe('POST /admin/v1/projections/rebuild', () => {
    const snapshot = async () => {
      const q = async (sql: string) => (await t.db.pool.query(sql)).rows;
      return {
        tenants: await q('SELECT * FROM tenants ORDER BY tenant_id'),
        api_keys: await q('SELECT * FROM api_keys ORDER BY key_prefix'),
        // seq is a bigserial and changes on a rebuild; what must not change is the rows and their order.
        audit_events: await q(
          'SELECT event_id, tenant_id, type, session_id, envelope FROM audit_events ORDER BY event_id',
        ),
        audit_order: await q('SELECT tenant_id, event_id FROM audit_events ORDER BY tenant_id, seq'),
      };
    };

    beforeAll(async () => {
      // Give the read models some history to rebuild: a revoked key, a suspension, credits.
      const c = await t.createTenant('Rebuild C', 'starter');
      const issued = await t.admin({ method: 'POST', url: `/admin/v1/tenants/${c.tenant_id}/api_keys` });
      expect(issued.statusCode).toBe(201);
      const prefix = c.api_key.split('_').slice(0, 2).join('_');
      expect(
        (await t.admin({ method: 'DELETE', url: `/admin/v1/tenants/${c.tenant_id}/api_keys/${prefix}` })).statusCode,
      ).toBe(200);
      expect((await t.admin({ method: 'POST', url: `/admin/v1/tenants/${c.tenant_id}/suspend` })).statusCode).toBe(200);
      expect(
        (
          await t.admin({
            method: 'POST',
            url: `/admin/v1/tenants/${b.tenant_id}/credits`,
            payload: { amount_cents: 1234 },
          })
        ).statusCode,
      ).toBe(200);
      await projections.drainAll();
    });

    it('rebuilds every read model from the history into identical rows', async () => {
      const before = await snapshot();
      expect(before.tenants.length).toBeGreaterThanOrEqual(3);
      expect(before.api_keys.some((k) => k.revoked_at !== null)).toBe(true);
      expect(before.audit_events).toHaveLength(10);
      const listedBefore = await list(a, '?limit=100');

      const res = await t.admin({ method: 'POST', url: '/admin/v1/projections/rebuild', payload: {} });
      expect(res.statusCode).toBe(200);
      const data = res.json<{ data: { projection: string; events: number }[] }>().data;
      expect(data.map((d) => d.projection)).toEqual(expect.arrayContaining(['tenants', 'audit_events']));

      const after = await snapshot();
      expect(after).toEqual(before);
      expect(await list(a, '?limit=100')).toEqual(listedBefore);
      expect((await t.asTenant(a.api_key, { method: 'GET', url: '/v1/events' })).statusCode).toBe(200);
    });

    it('reports how many events each projection replayed', async () => {
      const res = await t.admin({
        method: 'POST',
        url: '/admin/v1/projections/rebuild',
        payload: { projection: 'tenants' },
      });
      expect(res.statusCode).toBe(200);
      const { rows } = await t.db.pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM events WHERE type LIKE 'tenant.%'`,
      );
      expect(res.json()).toEqual({ data: [{ projection: 'tenants', events: rows[0]!.n }] });
    });

    it('accepts a body-less request as "all projections"', async () => {
      const res = await t.admin({ method: 'POST', url: '/admin/v1/projections/rebuild' });
      expect(res.statusCode).toBe(200);
    });

    it('keeps projecting live events exactly once after a rebuild', async () => {
      await t.admin({ method: 'POST', url: '/admin/v1/projections/rebuild', payload: { projection: 'audit_events' } });
      const position = await append(a.tenant_id, 'webhook.test');
      expect(await projections.waitForProjections(position)).toBe(true);
      await projections.drainAll();
      const page = await list(a, '?limit=100');
      expect(page.data.map((e) => e.id)).toEqual(appended.get(a.tenant_id)!.map((e) => e.id));
      const { rows } = await t.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_events');
      expect(rows[0]!.n).toBe(11);
    });

    it('answers 400 param projection for an unknown projection, and changes nothing', async () => {
      const before = await snapshot();
      const res = await t.admin({
        method: 'POST',
        url: '/admin/v1/projections/rebuild',
        payload: { projection: 'nope' },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: expect.objectContaining({ type: 'invalid_request', param: 'projection' }) });
      expect(await snapshot()).toEqual(before);
    });

    it('answers 401 without the admin token', async () => {
      const res = await t.asTenant(a.api_key, { method: 'POST', url: '/admin/v1/projections/rebuild', payload: {} });
      expect(res.statusCode).toBe(401);
    });
  });
});
