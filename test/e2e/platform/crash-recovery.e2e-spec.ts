/**
 * The real service (node dist/main.js) on a real database, killed with SIGKILL and restarted:
 * nothing committed is lost, read models catch up, timers survive. And SIGTERM stops it cleanly.
 */
import { randomUUID } from 'node:crypto';
import { PostgresEventStore } from '../../../src/event-store/postgres/postgres-event-store';
import { generateApiKey } from '../../../src/tenants/domain/api-key';
import { newEventId, newId } from '../../../src/kernel/ids';
import { createTestDatabase, TestDatabase } from '../../support/database';
import { eventually } from '../../support/eventually';
import { killAllServices, ServiceProcess, startService } from '../../support/process';

jest.setTimeout(120_000);

interface Created {
  tenant_id: string;
  api_key: string;
}

async function createTenant(svc: ServiceProcess, name: string): Promise<Created> {
  const res = await svc.fetch('/admin/v1/tenants', { method: 'POST', admin: true, body: JSON.stringify({ name }) });
  const text = await res.text();
  if (res.status !== 201) throw new Error(`create ${name}: ${res.status} ${text}`);
  return JSON.parse(text) as Created;
}

/** pino lines at level error (50) or above. */
function errorLogLines(stdout: string): string[] {
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .filter((line) => {
      try {
        return (JSON.parse(line) as { level?: number }).level! >= 50;
      } catch {
        return false;
      }
    });
}

async function count(db: TestDatabase, sql: string, params: unknown[] = []): Promise<number> {
  const { rows } = await db.pool.query<{ n: number }>(sql, params);
  return rows[0]!.n;
}

describe('crash recovery (kill -9) of the real service', () => {
  let db: TestDatabase;
  let svc: ServiceProcess;
  const tenants: Created[] = [];
  const timerId = randomUUID();
  const timerDueAt = new Date(Date.now() + 10 * 60_000);

  beforeAll(async () => {
    // The service migrates the empty database itself.
    db = await createTestDatabase({ migrate: false });
  });
  afterAll(async () => {
    await killAllServices();
    await db?.drop();
  });

  it('serves 20 tenants created concurrently, and keeps a future timer row', async () => {
    svc = await startService({ env: { DATABASE_URL: db.url } });
    const created = await Promise.all(Array.from({ length: 20 }, (_, i) => createTenant(svc, `Crash ${i}`)));
    tenants.push(...created);
    expect(new Set(created.map((c) => c.tenant_id)).size).toBe(20);
    await db.pool.query(
      `INSERT INTO timers (timer_id, kind, dedupe_key, due_at, payload) VALUES ($1, 'test.durable', $2, $3, '{"n": 1}')`,
      [timerId, `durable-${timerId}`, timerDueAt],
    );
  });

  it('dies on SIGKILL', async () => {
    svc.kill('SIGKILL');
    const exit = await svc.waitForExit(10_000);
    expect(exit.signal).toBe('SIGKILL');
  });

  it('after a restart, every tenant created before the kill works, once, and the read models caught up', async () => {
    svc = await startService({ env: { DATABASE_URL: db.url }, adminToken: svc.adminToken });
    for (const tenant of tenants) {
      const res = await svc.fetch('/v1/events', { apiKey: tenant.api_key });
      expect({ tenant: tenant.tenant_id, status: res.status }).toEqual({ tenant: tenant.tenant_id, status: 200 });
      expect(await res.json()).toEqual({ data: [], has_more: false });
    }
    expect(await count(db, `SELECT count(*)::int AS n FROM events WHERE type = 'tenant.created'`)).toBe(20);
    expect(await count(db, `SELECT count(*)::int AS n FROM events WHERE type = 'tenant.api_key_issued'`)).toBe(20);
    await eventually(async () => expect(await count(db, 'SELECT count(*)::int AS n FROM tenants')).toBe(20), 10_000);
    expect(await count(db, 'SELECT count(*)::int AS n FROM api_keys')).toBe(20);
  });

  it('keeps the timer row across the kill, untouched', async () => {
    const { rows } = await db.pool.query('SELECT kind, due_at, payload, attempts FROM timers WHERE timer_id = $1', [
      timerId,
    ]);
    expect(rows).toEqual([{ kind: 'test.durable', due_at: timerDueAt, payload: { n: 1 }, attempts: 0 }]);
  });

  it('projects events committed while it was down once it starts again', async () => {
    svc.kill('SIGKILL');
    await svc.waitForExit(10_000);
    // Committed by "another instance" while this one was dead: a tenant with its key, straight into the store.
    const store = new PostgresEventStore(db.pool);
    const tenantId = newId('ten');
    const { apiKey, issued } = generateApiKey();
    const createdAt = new Date().toISOString();
    await store.append(
      `tenant-${tenantId}`,
      [
        {
          id: newEventId(),
          type: 'tenant.created',
          data: { tenant_id: tenantId, name: 'Offline Co', email: null, plan: 'pro' },
          metadata: { tenant_id: tenantId, created_at: createdAt },
        },
        {
          id: newEventId(),
          type: 'tenant.api_key_issued',
          data: { key_prefix: issued.prefix, key_hash: issued.hash },
          metadata: { tenant_id: tenantId, created_at: createdAt },
        },
      ],
      'no_stream',
    );
    await store.close();

    svc = await startService({ env: { DATABASE_URL: db.url }, adminToken: svc.adminToken });
    await eventually(async () => {
      const res = await svc.fetch('/v1/events', { apiKey });
      expect(res.status).toBe(200);
    }, 10_000);
    expect(await count(db, 'SELECT count(*)::int AS n FROM tenants')).toBe(21);
  });

  it('loses nothing that committed when killed in the middle of a burst of requests', async () => {
    const before = await count(db, `SELECT count(*)::int AS n FROM events WHERE type = 'tenant.created'`);
    const answered: Created[] = [];
    const burst = Array.from({ length: 40 }, (_, i) =>
      createTenant(svc, `Burst ${i}`).then(
        (c) => void answered.push(c),
        () => undefined,
      ),
    );
    await eventually(() => answered.length >= 5, 20_000, 5);
    svc.kill('SIGKILL');
    await Promise.all(burst);
    await svc.waitForExit(10_000);
    const acknowledged = [...answered];

    svc = await startService({ env: { DATABASE_URL: db.url }, adminToken: svc.adminToken });
    const committed = (await count(db, `SELECT count(*)::int AS n FROM events WHERE type = 'tenant.created'`)) - before;
    expect(committed).toBeGreaterThanOrEqual(acknowledged.length);
    expect(committed).toBeLessThanOrEqual(40);
    // Every acknowledged tenant works; every committed one (answered or not) reaches the read model.
    for (const tenant of acknowledged)
      expect((await svc.fetch('/v1/events', { apiKey: tenant.api_key })).status).toBe(200);
    await eventually(async () => {
      expect(await count(db, 'SELECT count(*)::int AS n FROM tenants')).toBe(
        await count(db, `SELECT count(*)::int AS n FROM events WHERE type = 'tenant.created'`),
      );
    }, 10_000);
    // No tenant was created half-way: each stream has its created and its key event.
    expect(
      await count(
        db,
        `SELECT count(*)::int AS n FROM (SELECT stream_id FROM events WHERE stream_id LIKE 'tenant-%'
         GROUP BY stream_id HAVING count(*) FILTER (WHERE type = 'tenant.created') <> 1
           OR count(*) FILTER (WHERE type = 'tenant.api_key_issued') < 1) AS broken`,
      ),
    ).toBe(0);
  });
});

describe('SIGTERM of the real service', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase({ migrate: false });
  });
  afterAll(async () => {
    await killAllServices();
    await db?.drop();
  });

  it('exits with code 0 within 10 s and writes nothing to stderr', async () => {
    const svc = await startService({ env: { DATABASE_URL: db.url } });
    await createTenant(svc, 'Before SIGTERM');
    const t0 = Date.now();
    svc.kill('SIGTERM');
    const exit = await svc.waitForExit(10_000);
    expect({ exit, stderr: svc.stderr() }).toEqual({ exit: { code: 0, signal: null }, stderr: '' });
    expect(Date.now() - t0).toBeLessThan(10_000);
    // A clean stop logs no error (pino level 50+) on the way out either.
    expect(errorLogLines(svc.stdout())).toEqual([]);
  });

  it('finishes requests in flight when SIGTERM arrives, then exits 0', async () => {
    const svc = await startService({ env: { DATABASE_URL: db.url } });
    const outcomes = Array.from({ length: 10 }, (_, i) =>
      svc
        .fetch('/admin/v1/tenants', { method: 'POST', admin: true, body: JSON.stringify({ name: `Draining ${i}` }) })
        .then(async (res): Promise<{ status: number; body: Partial<Created> }> => ({
          status: res.status,
          body: (await res.json()) as Partial<Created>,
        }))
        // Refused once the server stopped listening: acceptable for requests it had not taken yet.
        .catch((): { status: number; body: Partial<Created> } => ({ status: 0, body: {} })),
    );
    // Let the requests reach the server, then ask it to stop while they are being handled.
    await new Promise((resolve) => setTimeout(resolve, 20));
    svc.kill('SIGTERM');
    const results = await Promise.all(outcomes);
    const exit = await svc.waitForExit(10_000);
    expect(exit).toEqual({ code: 0, signal: null });
    for (const r of results) if (r.status !== 0) expect([201, 503]).toContain(r.status);
    const created = results.filter((r) => r.status === 201).map((r) => r.body.tenant_id!);
    expect(created.length).toBeGreaterThan(0);
    for (const tenantId of created) {
      expect(
        await count(db, `SELECT count(*)::int AS n FROM events WHERE type = 'tenant.created' AND stream_id = $1`, [
          `tenant-${tenantId}`,
        ]),
      ).toBe(1);
    }
  });
});
