import type { Pool } from 'pg';
import { EVENT_STORE, EventStore } from '../../../src/event-store/event-store.port';
import { PG_POOL } from '../../../src/infra/database/database.tokens';
import { WorkerLifecycle } from '../../../src/runtime/workers/lifecycle';
import { checkedOutClients, CreatedTenant, startTestApp, TestApp } from '../../support/app';

const KEY_FORMAT = /^vap_[0-9a-z]{12}_[A-Za-z0-9_-]{43}$/;
const prefixOf = (apiKey: string): string => apiKey.split('_').slice(0, 2).join('_');

describe('operator API: tenants and keys', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  const listEvents = (apiKey: string) => t.asTenant(apiKey, { method: 'GET', url: '/v1/events' });

  describe('POST /admin/v1/tenants', () => {
    it('creates a tenant on plan pro by default and shows its key once', async () => {
      const res = await t.admin({
        method: 'POST',
        url: '/admin/v1/tenants',
        payload: { name: 'Acme Dental', email: 'ops@acme.example' },
      });
      expect(res.statusCode).toBe(201);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      const body = res.json<CreatedTenant>();
      expect(body).toEqual(
        expect.objectContaining({
          tenant_id: expect.stringMatching(/^ten_[0-9a-z]{20}$/),
          name: 'Acme Dental',
          plan: 'pro',
          api_key: expect.stringMatching(KEY_FORMAT),
        }),
      );
      const rows = await t.db.pool.query(
        'SELECT tenant_id, name, email, plan, status FROM tenants WHERE tenant_id = $1',
        [body.tenant_id],
      );
      expect(rows.rows).toEqual([
        {
          tenant_id: body.tenant_id,
          name: 'Acme Dental',
          email: 'ops@acme.example',
          plan: 'pro',
          status: 'active',
        },
      ]);
    });

    it('accepts plan starter', async () => {
      const res = await t.admin({
        method: 'POST',
        url: '/admin/v1/tenants',
        payload: { name: 'Tiny Co', plan: 'starter' },
      });
      expect(res.statusCode).toBe(201);
      expect(res.json<CreatedTenant>().plan).toBe('starter');
      const { rows } = await t.db.pool.query('SELECT plan FROM tenants WHERE tenant_id = $1', [
        res.json<CreatedTenant>().tenant_id,
      ]);
      expect(rows).toEqual([{ plan: 'starter' }]);
    });

    it('gives each tenant distinct ids and keys', async () => {
      const created = await Promise.all([1, 2, 3, 4, 5].map((i) => t.createTenant(`Parallel ${i}`)));
      expect(new Set(created.map((c) => c.tenant_id)).size).toBe(5);
      expect(new Set(created.map((c) => c.api_key)).size).toBe(5);
      for (const c of created) expect((await listEvents(c.api_key)).statusCode).toBe(200);
    });

    it('lets the new key work on the very next request', async () => {
      const created = await t.createTenant('Immediate Co');
      const res = await listEvents(created.api_key);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ data: [], has_more: false });
    });
  });

  describe('keys', () => {
    let tenant: CreatedTenant;
    let second: string;

    beforeAll(async () => {
      tenant = await t.createTenant('Key Rotation Co');
    });

    it('issues a second key (201) that works at once, beside the first', async () => {
      const res = await t.admin({ method: 'POST', url: `/admin/v1/tenants/${tenant.tenant_id}/api_keys` });
      expect(res.statusCode).toBe(201);
      second = res.json<{ api_key: string }>().api_key;
      expect(second).toMatch(KEY_FORMAT);
      expect(second).not.toBe(tenant.api_key);
      expect((await listEvents(second)).statusCode).toBe(200);
      expect((await listEvents(tenant.api_key)).statusCode).toBe(200);
    });

    it('revokes the first key by its prefix: 401 with it, 200 with the second', async () => {
      const res = await t.admin({
        method: 'DELETE',
        url: `/admin/v1/tenants/${tenant.tenant_id}/api_keys/${prefixOf(tenant.api_key)}`,
      });
      expect(res.statusCode).toBe(200);
      const denied = await listEvents(tenant.api_key);
      expect(denied.statusCode).toBe(401);
      expect(denied.json<{ error: { type: string } }>().error.type).toBe('authentication');
      expect((await listEvents(second)).statusCode).toBe(200);
    });

    it('treats revoking an already revoked key as a success that changes nothing', async () => {
      const before = await t.db.pool.query(`SELECT count(*)::int AS n FROM events WHERE stream_id = $1`, [
        `tenant-${tenant.tenant_id}`,
      ]);
      const res = await t.admin({
        method: 'DELETE',
        url: `/admin/v1/tenants/${tenant.tenant_id}/api_keys/${prefixOf(tenant.api_key)}`,
      });
      expect(res.statusCode).toBe(200);
      const after = await t.db.pool.query(`SELECT count(*)::int AS n FROM events WHERE stream_id = $1`, [
        `tenant-${tenant.tenant_id}`,
      ]);
      expect(after.rows[0].n).toBe(before.rows[0].n);
      expect((await listEvents(tenant.api_key)).statusCode).toBe(401);
    });
  });

  describe('suspend, reactivate and credits', () => {
    let tenant: CreatedTenant;

    beforeAll(async () => {
      tenant = await t.createTenant('Lifecycle Co');
    });

    const status = async (): Promise<string> =>
      (await t.db.pool.query<{ status: string }>('SELECT status FROM tenants WHERE tenant_id = $1', [tenant.tenant_id]))
        .rows[0]!.status;

    it('suspends (200) and reactivates (200) a tenant, reflected in the read model at once', async () => {
      const suspended = await t.admin({ method: 'POST', url: `/admin/v1/tenants/${tenant.tenant_id}/suspend` });
      expect(suspended.statusCode).toBe(200);
      expect(suspended.json()).toEqual(expect.objectContaining({ tenant_id: tenant.tenant_id, status: 'suspended' }));
      expect(await status()).toBe('suspended');

      const again = await t.admin({ method: 'POST', url: `/admin/v1/tenants/${tenant.tenant_id}/suspend` });
      expect(again.statusCode).toBe(200);

      const reactivated = await t.admin({ method: 'POST', url: `/admin/v1/tenants/${tenant.tenant_id}/reactivate` });
      expect(reactivated.statusCode).toBe(200);
      expect(reactivated.json()).toEqual(expect.objectContaining({ tenant_id: tenant.tenant_id, status: 'active' }));
      expect(await status()).toBe('active');

      const types = await t.db.pool.query<{ type: string }>(
        `SELECT type FROM events WHERE stream_id = $1 ORDER BY stream_position`,
        [`tenant-${tenant.tenant_id}`],
      );
      // The second suspend decided nothing: one event each way.
      expect(types.rows.map((r) => r.type)).toEqual([
        'tenant.created',
        'tenant.api_key_issued',
        'tenant.suspended',
        'tenant.reactivated',
      ]);
    });

    it('grants credits (200) as adjustments that add up, negative ones included', async () => {
      for (const amount of [5000, 250, -1000]) {
        const res = await t.admin({
          method: 'POST',
          url: `/admin/v1/tenants/${tenant.tenant_id}/credits`,
          payload: { amount_cents: amount },
        });
        expect(res.statusCode).toBe(200);
      }
      const balance = await t.asTenant(tenant.api_key, { method: 'GET', url: '/v1/credits' });
      expect(balance.json()).toEqual({ balance_cents: 4250, threshold_cents: 0, currency: 'USD' });
    });

    it.each([
      ['zero', { amount_cents: 0 }],
      ['a non-integer', { amount_cents: 12.5 }],
      ['a numeric string', { amount_cents: '100' }],
      ['nothing', {}],
    ])('rejects a grant of %s with 400 param amount_cents', async (_, payload) => {
      const res = await t.admin({ method: 'POST', url: `/admin/v1/tenants/${tenant.tenant_id}/credits`, payload });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        error: expect.objectContaining({
          type: 'invalid_request',
          param: 'amount_cents',
          request_id: res.headers['request-id'],
        }),
      });
    });
  });

  describe('secrets at rest', () => {
    it('stores only hashes of keys: the plaintext appears in no table', async () => {
      const tenant = await t.createTenant('Hash Only Co');
      const issued = await t.admin({ method: 'POST', url: `/admin/v1/tenants/${tenant.tenant_id}/api_keys` });
      const second = issued.json<{ api_key: string }>().api_key;

      for (const key of [tenant.api_key, second]) {
        const secretPart = key.slice(prefixOf(key).length + 1);
        const keyRow = await t.db.pool.query<{ key_hash: string; key_prefix: string }>(
          'SELECT key_prefix, key_hash FROM api_keys WHERE key_prefix = $1',
          [prefixOf(key)],
        );
        expect(keyRow.rows).toHaveLength(1);
        expect(keyRow.rows[0]!.key_hash).toMatch(/^[0-9a-f]{64}$/);
        expect(keyRow.rows[0]!.key_hash).not.toContain(secretPart);

        const events = await t.db.pool.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM events WHERE data::text LIKE '%' || $1 || '%' OR metadata::text LIKE '%' || $1 || '%'`,
          [secretPart],
        );
        expect(events.rows[0]!.n).toBe(0);

        // Every table of the schema, every row, as text.
        const tables = await t.db.pool.query<{ table_name: string }>(
          `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`,
        );
        for (const { table_name } of tables.rows) {
          const hits = await t.db.pool.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM ${table_name} AS r WHERE r::text LIKE '%' || $1 || '%'`,
            [secretPart],
          );
          expect({ table: table_name, hits: hits.rows[0]!.n }).toEqual({ table: table_name, hits: 0 });
        }
      }
      // The key_issued events carry the hash, which must be the one the read model checks.
      const stored = await t.db.pool.query<{ data: { key_prefix: string; key_hash: string } }>(
        `SELECT data FROM events WHERE type = 'tenant.api_key_issued' AND stream_id = $1 ORDER BY stream_position`,
        [`tenant-${tenant.tenant_id}`],
      );
      expect(stored.rows.map((r) => r.data.key_prefix)).toEqual([prefixOf(tenant.api_key), prefixOf(second)]);
    });

    it('does not store the key when the create request was sent with an Idempotency-Key either', async () => {
      const res = await t.admin({
        method: 'POST',
        url: '/admin/v1/tenants',
        headers: { 'idempotency-key': 'secret-check-1' },
        payload: { name: 'Replayable Co' },
      });
      expect(res.statusCode).toBe(201);
      const apiKey = res.json<CreatedTenant>().api_key;
      const secretPart = apiKey.slice(prefixOf(apiKey).length + 1);
      const hits = await t.db.pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM idempotency_keys AS r WHERE r::text LIKE '%' || $1 || '%'`,
        [secretPart],
      );
      // docs/api.md: an API key is shown once; only its hash is stored. A replayable response body
      // kept in idempotency_keys is a stored copy of the plaintext key.
      expect(hits.rows[0]!.n).toBe(0);
    });
  });
});

describe('operator API: shutdown', () => {
  it('closes cleanly: no database client is left checked out once workers and the store have stopped', async () => {
    const t = await startTestApp();
    try {
      await t.createTenant('Shutdown Co');
      const pool = t.app.get<Pool>(PG_POOL);
      // One owner stops every worker that polls the pool: processors, timers, delivery and mail.
      await t.app.get(WorkerLifecycle).stopAll();
      await t.app.get<EventStore>(EVENT_STORE).close();
      // Anything still checked out now would make pool.end() (inside app.close()) wait forever.
      expect(checkedOutClients(pool)).toBe(0);
    } finally {
      await t.close();
    }
  });
});
