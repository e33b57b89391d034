/**
 * The carrier budget on real PostgreSQL: SIP_CPS in every sliding second and SIP_MAX_CALLS at once,
 * also with two budgets on two pools (two instances) racing; waiting calls granted in the order they
 * first asked and never refused; release frees a slot and is idempotent. Times checked are the
 * database's (the grants' own `started_at`), so the machine's load cannot fake a pass.
 */
import { Pool } from 'pg';
import { createTestDatabase, type TestDatabase } from '../../../test/support/database';
import { CarrierBudget, retryAt } from './carrier-budget';

const sleepUntil = (at: Date) => new Promise((r) => setTimeout(r, Math.max(0, at.getTime() - Date.now())));

describe('CarrierBudget', () => {
  let db: TestDatabase;
  let secondPool: Pool;

  beforeAll(async () => {
    db = await createTestDatabase({ poolSize: 10 });
    secondPool = new Pool({ connectionString: db.url, max: 10 });
  });
  afterAll(async () => {
    await secondPool.end();
    await db.drop();
  });
  beforeEach(async () => {
    await db.pool.query('TRUNCATE sip_call_slots, sip_call_starts, sip_call_waiting, sip_media_holders');
  });

  /** Asks until granted, as a dialer would; answers how many times it was told to wait. */
  async function untilGranted(budget: CarrierBudget, sessionId: string): Promise<number> {
    for (let waits = 0; ; waits++) {
      const answer = await budget.acquire({ sessionId, tenantId: 'ten_1' });
      if (answer.granted) return waits;
      expect(answer.retryAt.getTime()).toBeGreaterThan(Date.now() - 1000);
      await sleepUntil(answer.retryAt);
    }
  }

  async function grants(): Promise<{ session_id: string; at: number }[]> {
    const { rows } = await db.pool.query<{ session_id: string; started_at: Date }>(
      'SELECT session_id, started_at FROM sip_call_starts ORDER BY started_at',
    );
    return rows.map((r) => ({ session_id: r.session_id, at: r.started_at.getTime() }));
  }

  it('two instances racing grant at most SIP_CPS in every sliding second, oldest first, refusing none', async () => {
    const limits = { cps: 3, maxCalls: 1000, leaseMs: 15_000 };
    const a = new CarrierBudget(db.pool, { ...limits, holder: 'a' });
    const b = new CarrierBudget(secondPool, { ...limits, holder: 'b' });
    const ids = Array.from({ length: 15 }, (_, i) => `ses_${String(i).padStart(2, '0')}`);
    // Each asks once in this order (their place in the queue), then all retry at once on both instances.
    const first = [];
    for (const [i, id] of ids.entries()) first.push(await (i % 2 ? b : a).acquire({ sessionId: id, tenantId: 't' }));
    expect(first.filter((x) => x.granted)).toHaveLength(3);
    await Promise.all(ids.map((id, i) => untilGranted(i % 2 ? b : a, id)));

    const granted = await grants();
    expect(granted.map((g) => g.session_id)).toEqual(ids);
    for (let i = 0; i + limits.cps < granted.length; i++) {
      // The (i+cps)-th grant is at least a second after the i-th: no window holds cps + 1.
      expect(granted[i + limits.cps]!.at - granted[i]!.at).toBeGreaterThanOrEqual(1000);
    }
    const { rows } = await db.pool.query('SELECT holder, count(*)::int AS n FROM sip_call_slots GROUP BY holder');
    expect(rows).toEqual(
      expect.arrayContaining([
        { holder: 'a', n: 8 },
        { holder: 'b', n: 7 },
      ]),
    );
    expect((await db.pool.query('SELECT 1 FROM sip_call_waiting')).rowCount).toBe(0);
  }, 60_000);

  it('SIP_MAX_CALLS at once across instances: a waiting call gets the slot a release frees', async () => {
    const limits = { cps: 100, maxCalls: 2, leaseMs: 15_000 };
    const a = new CarrierBudget(db.pool, limits);
    const b = new CarrierBudget(secondPool, limits);
    expect(await a.acquire({ sessionId: 's1', tenantId: 't' })).toEqual({ granted: true });
    expect(await b.acquire({ sessionId: 's2', tenantId: 't' })).toEqual({ granted: true });
    const before = Date.now();
    const third = await a.acquire({ sessionId: 's3', tenantId: 't' });
    expect(third.granted).toBe(false);
    if (!third.granted) expect(third.retryAt.getTime()).toBeLessThan(before + 5000);
    const fourth = await b.acquire({ sessionId: 's4', tenantId: 't' });
    expect(fourth.granted).toBe(false);
    // Asking again for a granted call is a retried step: still granted, no second slot.
    expect(await a.acquire({ sessionId: 's1', tenantId: 't' })).toEqual({ granted: true });

    await a.release('s1');
    await a.release('s1');
    await b.release('never-asked');
    // s4 asked after s3: it keeps waiting although a slot is free, until s3 takes it.
    expect((await b.acquire({ sessionId: 's4', tenantId: 't' })).granted).toBe(false);
    expect(await a.acquire({ sessionId: 's3', tenantId: 't' })).toEqual({ granted: true });
    expect((await b.acquire({ sessionId: 's4', tenantId: 't' })).granted).toBe(false);
    await b.release('s2');
    expect(await b.acquire({ sessionId: 's4', tenantId: 't' })).toEqual({ granted: true });
    const { rows } = await db.pool.query<{ session_id: string }>('SELECT session_id FROM sip_call_slots ORDER BY 1');
    expect(rows.map((r) => r.session_id)).toEqual(['s3', 's4']);
  });

  it('a waiting call that ends (released) leaves the queue: the next one is not held behind it', async () => {
    const budget = new CarrierBudget(db.pool, { cps: 100, maxCalls: 1, leaseMs: 15_000 });
    expect((await budget.acquire({ sessionId: 'x1', tenantId: 't' })).granted).toBe(true);
    expect((await budget.acquire({ sessionId: 'x2', tenantId: 't' })).granted).toBe(false);
    expect((await budget.acquire({ sessionId: 'x3', tenantId: 't' })).granted).toBe(false);
    await budget.release('x2'); // cancelled while waiting
    await budget.release('x1');
    expect(await budget.acquire({ sessionId: 'x3', tenantId: 't' })).toEqual({ granted: true });
  });

  it('an inbound call is watched (a slot row with its holder) and counts against SIP_MAX_CALLS', async () => {
    await db.pool.query('DELETE FROM sip_call_slots');
    const budget = new CarrierBudget(db.pool, { cps: 5, maxCalls: 2, leaseMs: 15_000, holder: 'media-x' });
    expect(await budget.admitInbound({ sessionId: 'in1', tenantId: 't' })).toEqual({ admitted: true });
    expect(await budget.admitInbound({ sessionId: 'in1', tenantId: 't' })).toEqual({ admitted: true }); // again: idempotent
    expect(await budget.acquire({ sessionId: 'out1', tenantId: 't' })).toEqual({ granted: true });
    // Two calls at once, one each way: the trunk is full both ways.
    expect(await budget.admitInbound({ sessionId: 'in2', tenantId: 'u' })).toEqual({ admitted: false, limit: 'trunk' });
    expect(await budget.acquire({ sessionId: 'out2', tenantId: 'u' })).toMatchObject({
      granted: false,
      reason: 'carrier_limit',
    });
    const { rows } = await db.pool.query<{ session_id: string; direction: string; holder: string }>(
      'SELECT session_id, direction, holder FROM sip_call_slots ORDER BY session_id',
    );
    expect(rows).toEqual([
      { session_id: 'in1', direction: 'inbound', holder: 'media-x' },
      { session_id: 'out1', direction: 'outbound', holder: 'media-x' },
    ]);
    await budget.release('in1');
    await budget.release('in1');
    await budget.release('out2');
    expect((await db.pool.query('SELECT 1 FROM sip_call_slots')).rowCount).toBe(1);
    await budget.release('out1');
  });

  it("TENANT_MAX_CALLS caps one tenant's calls both ways; its waiting calls hold back no other tenant", async () => {
    await db.pool.query('DELETE FROM sip_call_slots');
    await db.pool.query('DELETE FROM sip_call_waiting');
    const budget = new CarrierBudget(db.pool, { cps: 100, maxCalls: 10, tenantMaxCalls: 2, leaseMs: 15_000 });
    expect(await budget.acquire({ sessionId: 'a1', tenantId: 'A' })).toEqual({ granted: true });
    expect(await budget.admitInbound({ sessionId: 'a2', tenantId: 'A' })).toEqual({ admitted: true });
    expect(await budget.admitInbound({ sessionId: 'a3', tenantId: 'A' })).toEqual({ admitted: false, limit: 'tenant' });
    expect(await budget.acquire({ sessionId: 'a4', tenantId: 'A' })).toMatchObject({
      granted: false,
      reason: 'concurrency_limit',
    });
    // Tenant A's waiting call is not in the queue: tenant B's call goes out at once.
    expect(await budget.acquire({ sessionId: 'b1', tenantId: 'B' })).toEqual({ granted: true });
    await budget.release('a1');
    expect(await budget.acquire({ sessionId: 'a4', tenantId: 'A' })).toEqual({ granted: true });
    for (const id of ['a2', 'a4', 'b1']) await budget.release(id);
  });

  it('retryAt: the moment the window frees, later for calls further back, never beyond 2 s', () => {
    const limits = { cps: 2, maxCalls: 10 };
    expect(retryAt(10_000, [9_500, 9_800], 0, 0, limits).getTime()).toBe(10_501);
    expect(retryAt(10_000, [9_500], 0, 0, limits).getTime()).toBe(10_020);
    expect(retryAt(10_000, [9_500, 9_800], 2, 0, limits).getTime()).toBe(11_501);
    expect(retryAt(10_000, [9_500, 9_800], 9, 0, limits).getTime()).toBe(12_000);
    expect(retryAt(10_000, [], 0, 10, limits).getTime()).toBe(10_250);
  });
});
