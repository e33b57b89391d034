import { Logger } from '@nestjs/common';
import { Pool } from 'pg';
import { ManualClock } from '../../src/kernel/clock';
import { DueTimer, TimersService } from '../../src/runtime/timers.service';
import { createTestDatabase, TestDatabase } from '../support/database';
import { eventually } from '../support/eventually';

interface TimerRow {
  timer_id: string;
  kind: string;
  dedupe_key: string | null;
  due_at: Date;
  payload: Record<string, unknown>;
  attempts: number;
  locked_until: Date | null;
  last_error: string | null;
}

describe('TimersService (durable timers on PostgreSQL)', () => {
  let db: TestDatabase;
  const extraPools: Pool[] = [];
  const services: TimersService[] = [];

  beforeAll(async () => {
    // The failure paths log warnings on purpose; keep the output readable.
    Logger.overrideLogger(false);
    db = await createTestDatabase();
  });
  afterEach(async () => {
    await Promise.all(services.splice(0).map((s) => s.stop()));
    await db.pool.query('DELETE FROM timers');
  });
  afterAll(async () => {
    await Promise.all(extraPools.map((p) => p.end()));
    await db?.drop();
  });

  const service = (clock: ManualClock, pool: Pool = db.pool): TimersService => {
    const s = new TimersService(pool, clock);
    services.push(s);
    return s;
  };
  const rows = async (): Promise<TimerRow[]> =>
    (await db.pool.query<TimerRow>('SELECT * FROM timers ORDER BY due_at')).rows;

  it('runs nothing before a timer is due, then each timer once it is, in due order', async () => {
    const clock = new ManualClock();
    const timers = service(clock);
    const ran: string[] = [];
    timers.register('test.step', async (timer) => {
      ran.push(String(timer.payload.name));
    });
    const t0 = clock.now().getTime();
    // Scheduled out of order on purpose.
    await timers.schedule({ kind: 'test.step', dueAt: new Date(t0 + 2000), payload: { name: 'second' } });
    await timers.schedule({ kind: 'test.step', dueAt: new Date(t0 + 1000), payload: { name: 'first' } });

    expect(await timers.runDue()).toBe(0);
    clock.advance(999);
    expect(await timers.runDue()).toBe(0);
    expect(ran).toEqual([]);

    clock.advance(1);
    expect(await timers.runDue()).toBe(1);
    expect(ran).toEqual(['first']);
    expect(await timers.runDue()).toBe(0);

    clock.advance(1000);
    expect(await timers.runDue()).toBe(1);
    expect(ran).toEqual(['first', 'second']);
    expect(await rows()).toEqual([]);
  });

  it('claims the earliest due timers first when more are due than the batch takes', async () => {
    const clock = new ManualClock();
    const timers = service(clock);
    const ran: number[] = [];
    timers.register('test.order', async (timer) => {
      ran.push(Number(timer.payload.n));
    });
    const t0 = clock.now().getTime();
    for (const n of [5, 3, 1, 4, 2])
      await timers.schedule({ kind: 'test.order', dueAt: new Date(t0 + n * 100), payload: { n } });
    clock.advance(10_000);
    for (let i = 0; i < 5; i++) expect(await timers.runDue(1)).toBe(1);
    expect(ran).toEqual([1, 2, 3, 4, 5]);
  });

  it('hands the handler the timer as scheduled, with its attempt number', async () => {
    const clock = new ManualClock();
    const timers = service(clock);
    const seen: DueTimer[] = [];
    timers.register('test.payload', async (timer) => {
      seen.push(timer);
    });
    const dueAt = new Date(clock.now().getTime() + 500);
    await timers.schedule({ kind: 'test.payload', dueAt, payload: { session_id: 'ses_1', nested: { a: [1, 2] } } });
    clock.advance(500);
    await timers.runDue();
    expect(seen).toHaveLength(1);
    expect(seen[0]).toEqual({
      timerId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      kind: 'test.payload',
      payload: { session_id: 'ses_1', nested: { a: [1, 2] } },
      dueAt,
      attempts: 1,
    });
  });

  it('retries a failed handler later with growing backoff, keeping attempts and the last error', async () => {
    const clock = new ManualClock();
    const timers = service(clock);
    let calls = 0;
    timers.register('test.flaky', async () => {
      calls++;
      if (calls <= 2) throw new Error(`boom ${calls}`);
    });
    await timers.schedule({ kind: 'test.flaky', dueAt: clock.now(), payload: {} });

    expect(await timers.runDue()).toBe(1);
    let [row] = await rows();
    expect(row).toMatchObject({ attempts: 1, last_error: 'boom 1', locked_until: null });
    const firstDelay = row!.due_at.getTime() - clock.now().getTime();
    expect(firstDelay).toBeGreaterThan(0);

    // Not before the backoff has passed.
    expect(await timers.runDue()).toBe(0);
    clock.advance(firstDelay - 1);
    expect(await timers.runDue()).toBe(0);
    clock.advance(1);
    expect(await timers.runDue()).toBe(1);
    [row] = await rows();
    expect(row).toMatchObject({ attempts: 2, last_error: 'boom 2', locked_until: null });
    const secondDelay = row!.due_at.getTime() - clock.now().getTime();
    expect(secondDelay).toBeGreaterThan(firstDelay);

    clock.advance(secondDelay);
    expect(await timers.runDue()).toBe(1);
    expect(calls).toBe(3);
    expect(await rows()).toEqual([]);
  });

  it('keeps a timer of a kind without a handler, with the error, instead of dropping it', async () => {
    const clock = new ManualClock();
    const timers = service(clock);
    await timers.schedule({ kind: 'test.unhandled', dueAt: clock.now(), payload: {} });
    expect(await timers.runDue()).toBe(1);
    const [row] = await rows();
    expect(row).toMatchObject({ kind: 'test.unhandled', attempts: 1 });
    expect(row!.last_error).toContain('test.unhandled');
  });

  it('ignores a second schedule with the same dedupeKey', async () => {
    const clock = new ManualClock();
    const timers = service(clock);
    const ran: string[] = [];
    timers.register('test.dedupe', async (timer) => {
      ran.push(String(timer.payload.v));
    });
    const t0 = clock.now().getTime();
    await timers.schedule({
      kind: 'test.dedupe',
      dueAt: new Date(t0 + 1000),
      payload: { v: 'one' },
      dedupeKey: 'room-expiry:rm_1',
    });
    await timers.schedule({
      kind: 'test.dedupe',
      dueAt: new Date(t0 + 5000),
      payload: { v: 'two' },
      dedupeKey: 'room-expiry:rm_1',
    });
    const all = await rows();
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({ dedupe_key: 'room-expiry:rm_1', payload: { v: 'one' } });
    expect(all[0]!.due_at.getTime()).toBe(t0 + 1000);

    clock.advance(10_000);
    expect(await timers.runDue()).toBe(1);
    expect(await timers.runDue()).toBe(0);
    expect(ran).toEqual(['one']);
  });

  it('schedules inside a caller transaction: nothing if it rolls back', async () => {
    const clock = new ManualClock();
    const timers = service(clock);
    const client = await db.pool.connect();
    try {
      await client.query('BEGIN');
      await timers.schedule({ kind: 'test.tx', dueAt: clock.now(), payload: {} }, client);
      await client.query('ROLLBACK');
    } finally {
      client.release();
    }
    expect(await rows()).toEqual([]);
  });

  it('cancels by dedupeKey', async () => {
    const clock = new ManualClock();
    const timers = service(clock);
    const ran: string[] = [];
    timers.register('test.cancel', async () => {
      ran.push('x');
    });
    await timers.schedule({ kind: 'test.cancel', dueAt: clock.now(), payload: {}, dedupeKey: 'cancel-me' });
    await timers.cancel('cancel-me');
    clock.advance(1000);
    expect(await timers.runDue()).toBe(0);
    expect(ran).toEqual([]);
  });

  it('never runs one timer twice when two instances on one database race (50 timers)', async () => {
    const clock = new ManualClock();
    // Two "processes": separate pools, separate services, one database.
    const poolA = new Pool({ connectionString: db.url, max: 10 });
    const poolB = new Pool({ connectionString: db.url, max: 10 });
    for (const p of [poolA, poolB]) p.on('error', () => undefined);
    extraPools.push(poolA, poolB);
    const a = service(clock, poolA);
    const b = service(clock, poolB);
    const calls = new Map<string, string[]>();
    const handler = (instance: string) => async (timer: DueTimer) => {
      calls.set(String(timer.payload.n), [...(calls.get(String(timer.payload.n)) ?? []), instance]);
      // Slow enough that the other instance claims while this one still runs.
      await new Promise((resolve) => setTimeout(resolve, 5 + (Number(timer.payload.n) % 7)));
    };
    a.register('test.race', handler('a'));
    b.register('test.race', handler('b'));
    const t0 = clock.now().getTime();
    for (let n = 0; n < 50; n++) await a.schedule({ kind: 'test.race', dueAt: new Date(t0 + n), payload: { n } });
    clock.advance(1000);

    let ranA = 0;
    let ranB = 0;
    for (let round = 0; round < 50; round++) {
      const [x, y] = await Promise.all([a.runDue(7), b.runDue(7)]);
      ranA += x;
      ranB += y;
      if (x === 0 && y === 0) break;
    }
    expect(ranA + ranB).toBe(50);
    expect(ranA).toBeGreaterThan(0);
    expect(ranB).toBeGreaterThan(0);
    expect(calls.size).toBe(50);
    const twice = [...calls.entries()].filter(([, by]) => by.length !== 1);
    expect(twice).toEqual([]);
    expect(await rows()).toEqual([]);
  });

  it('runs due timers by itself once started, woken by schedule, and stop() waits for a running handler', async () => {
    const clock = new ManualClock();
    const timers = service(clock);
    const events: string[] = [];
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    timers.register('test.loop', async (timer) => {
      events.push(`start ${String(timer.payload.n)}`);
      if (timer.payload.n === 2) await gate;
      events.push(`end ${String(timer.payload.n)}`);
    });
    timers.start();
    await timers.schedule({ kind: 'test.loop', dueAt: clock.now(), payload: { n: 1 } });
    await eventually(() => expect(events).toEqual(['start 1', 'end 1']), 5000);

    await timers.schedule({ kind: 'test.loop', dueAt: clock.now(), payload: { n: 2 } });
    await eventually(() => expect(events).toContain('start 2'), 5000);
    let stopped = false;
    const stopping = timers.stop().then(() => (stopped = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(events).toEqual(['start 1', 'end 1', 'start 2', 'end 2']);
    expect(await rows()).toEqual([]);
  });

  it('does not run a timer whose lease another instance holds, and takes it over once the lease lapses', async () => {
    const clock = new ManualClock();
    const timers = service(clock);
    const ran: number[] = [];
    timers.register('test.lease', async (timer) => {
      ran.push(timer.attempts);
    });
    await timers.schedule({ kind: 'test.lease', dueAt: clock.now(), payload: {} });
    // Another instance claimed it and died: the lease runs to 30 s from now.
    await db.pool.query(`UPDATE timers SET locked_until = $1, attempts = 1`, [
      new Date(clock.now().getTime() + 30_000),
    ]);
    clock.advance(29_000);
    expect(await timers.runDue()).toBe(0);
    clock.advance(1_001);
    expect(await timers.runDue()).toBe(1);
    expect(ran).toEqual([2]);
  });
});
