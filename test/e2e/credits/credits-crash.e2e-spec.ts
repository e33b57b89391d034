/**
 * Credits survive a crash, and two instances meter one tenant exactly.
 *
 * 1. The real service (node dist/main.js, SIM_TIME_SCALE=0.02, the test processor settling after
 *    1.5 s) places 30 production calls and requests a top-up; it is killed with SIGKILL once some
 *    calls have ended and been debited but not all (and before the top-up settles), and restarted on
 *    the same database. Every session is debited exactly once, the top-up is applied exactly once,
 *    and the balance is exact.
 * 2. Two service processes on one database place 100 production calls for one tenant at once (50
 *    through each): 100 debits, one per session, and the balance exactly right.
 */
import { CallsService, FROM_NUMBER, placeCall, SessionBody, startCallsService } from '../../support/calls-harness';
import { createTestDatabase, TestDatabase } from '../../support/database';
import { eventually } from '../../support/eventually';
import { killAllServices, makeDataDir, removeDataDir, ServiceProcess, startService } from '../../support/process';
import {
  apiClient,
  ApiCall,
  assignNumber,
  createTenant,
  newSecretKey,
  TenantInfo,
} from '../../support/webhooks-harness';

jest.setTimeout(240_000);

const ANSWERED = '+14155550100'; // 45 s: one started minute, 10 cents
const NO_ANSWER = '+14155550101';
const GRANT = 100_000;

interface Ledger {
  debitsPerSession: Map<string, number>;
  settled: number;
  succeeded: number;
}

async function ledger(pool: TestDatabase['pool'], tenantId: string): Promise<Ledger> {
  const { rows } = await pool.query<{ type: string; sid: string | null; n: number }>(
    `SELECT type, data->>'session_id' AS sid, count(*)::int AS n FROM events WHERE stream_id = $1 GROUP BY 1, 2`,
    [`credits-${tenantId}`],
  );
  const debitsPerSession = new Map<string, number>();
  let settled = 0;
  let succeeded = 0;
  for (const r of rows) {
    if (r.type === 'credits.debited' && r.sid) debitsPerSession.set(r.sid, r.n);
    if (r.type === 'credits.topup_settled') settled += r.n;
    if (r.type === 'credits.topup_succeeded') succeeded += r.n;
  }
  return { debitsPerSession, settled, succeeded };
}

async function balance(call: ApiCall, tenant: TenantInfo): Promise<number> {
  const res = await call<{ balance_cents: number }>('GET', '/v1/credits', { token: tenant.api_key });
  expect(res.status).toBe(200);
  return res.body.balance_cents;
}

async function grant(call: ApiCall, adminToken: string, tenant: TenantInfo, cents: number): Promise<void> {
  const res = await call('POST', `/admin/v1/tenants/${tenant.tenant_id}/credits`, {
    token: adminToken,
    body: { amount_cents: cents },
  });
  expect(res.status).toBe(200);
}

afterAll(async () => {
  await killAllServices();
});

describe('a crash while production calls end and a top-up settles', () => {
  let h: CallsService;

  afterAll(async () => {
    await h?.destroy();
  });

  it('debits each session once and applies the top-up once', async () => {
    h = await startCallsService({ SIM_TIME_SCALE: '0.02', TOPUP_SETTLE_DELAY: '1500ms' });
    const tenant = await createTenant(h.call, h.svc.adminToken, 'Crash Credits Co');
    // Its production calls come from a number it owns (decision 178).
    await assignNumber(h.call, h.svc.adminToken, tenant.tenant_id, FROM_NUMBER);
    await grant(h.call, h.svc.adminToken, tenant, GRANT);
    const calls: SessionBody[] = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        placeCall(h.call, tenant.api_key, i % 5 === 4 ? NO_ANSWER : ANSWERED, { testMode: false }),
      ),
    );
    const topup = await h.call('POST', '/v1/credits/topups', { token: tenant.api_key, body: { amount_cents: 777 } });
    expect(topup.status).toBe(201);
    // Kill once some calls are debited, while others are still going and the top-up is pending.
    await eventually(async () => (await ledger(h.db.pool, tenant.tenant_id)).debitsPerSession.size >= 3, 30_000, 10);
    const before = await ledger(h.db.pool, tenant.tenant_id);
    h.svc.kill('SIGKILL');
    await h.svc.waitForExit(10_000);
    expect(before.debitsPerSession.size).toBeLessThan(24);
    expect(before.settled).toBe(0);

    await h.restart();
    const answered = calls.filter((c) => c.to_number === ANSWERED).map((c) => c.session_id);
    await eventually(
      async () => {
        const l = await ledger(h.db.pool, tenant.tenant_id);
        return l.debitsPerSession.size === answered.length && l.settled === 1;
      },
      120_000,
      200,
    );
    const after = await ledger(h.db.pool, tenant.tenant_id);
    expect([...after.debitsPerSession.keys()].sort()).toEqual([...answered].sort());
    expect([...after.debitsPerSession.values()].every((n) => n === 1)).toBe(true);
    expect([after.settled, after.succeeded]).toEqual([1, 1]);
    const expected = GRANT - answered.length * 10 + 777;
    await eventually(async () => (await balance(h.call, tenant)) === expected, 30_000, 100);
    // A while later, nothing more: no late second debit or settlement.
    await new Promise((r) => setTimeout(r, 1000));
    const settledLedger = await ledger(h.db.pool, tenant.tenant_id);
    expect(settledLedger.debitsPerSession.size).toBe(answered.length);
    expect(settledLedger.settled).toBe(1);
    expect(await balance(h.call, tenant)).toBe(expected);
  });
});

describe('two instances on one database', () => {
  let db: TestDatabase;
  let dataDirs: string[];
  let a: ServiceProcess;
  let b: ServiceProcess;

  afterAll(async () => {
    await killAllServices();
    await db?.drop();
    for (const d of dataDirs ?? []) removeDataDir(d);
  });

  it('meter 100 concurrent production calls of one tenant with the balance exactly right', async () => {
    db = await createTestDatabase({ migrate: false });
    dataDirs = [makeDataDir(), makeDataDir()];
    const common = {
      DATABASE_URL: db.url,
      WEBHOOK_SECRET_KEY: newSecretKey(),
      SIM_TIME_SCALE: '0.01',
      LOG_LEVEL: 'warn',
    };
    a = await startService({ env: { ...common, DATA_DIR: dataDirs[0]! } });
    b = await startService({ env: { ...common, DATA_DIR: dataDirs[1]! }, adminToken: a.adminToken });
    const callA = apiClient(() => a.baseUrl).call;
    const callB = apiClient(() => b.baseUrl).call;
    const tenant = await createTenant(callA, a.adminToken, 'Twin Credits Co');
    await assignNumber(callA, a.adminToken, tenant.tenant_id, FROM_NUMBER);
    await grant(callA, a.adminToken, tenant, GRANT);
    const calls = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        placeCall(i % 2 ? callA : callB, tenant.api_key, i % 10 === 9 ? NO_ANSWER : ANSWERED, { testMode: false }),
      ),
    );
    const answered = calls.filter((c) => c.to_number === ANSWERED).map((c) => c.session_id);
    await eventually(
      async () => (await ledger(db.pool, tenant.tenant_id)).debitsPerSession.size === answered.length,
      120_000,
      200,
    );
    const l = await ledger(db.pool, tenant.tenant_id);
    expect([...l.debitsPerSession.keys()].sort()).toEqual([...answered].sort());
    expect([...l.debitsPerSession.values()].every((n) => n === 1)).toBe(true);
    const expected = GRANT - answered.length * 10;
    await eventually(async () => (await balance(callA, tenant)) === expected, 30_000, 100);
    expect(await balance(callB, tenant)).toBe(expected);
  });
});
