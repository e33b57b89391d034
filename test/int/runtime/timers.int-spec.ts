import { Logger } from '@nestjs/common';
import { Pool } from 'pg';
import { ManualClock } from '../../../src/kernel/clock';
import { DueTimer, TimerContext, TimersService } from '../../../src/runtime/timers/timers.service';
import { defineTimerKind } from '../../../src/runtime/timers/timer-kind';
import { createTestDatabase, TestDatabase } from '../../support/database';
import { eventually } from '../../support/eventually';

/** A kind for these tests: any payload, no required field. */
const kind = (name: string) => defineTimerKind<Record<string, unknown>>(name, {});

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
  /** A pool that records every statement sent through it (the timers service's own statements). */
  const counting = (pool: Pool = db.pool): { pool: Pool; sql: string[] } => {
    const sql: string[] = [];
    const wrapper = {
      // A statement may come as text or as a named (prepared) statement.
      query: (statement: string | { text: string; values?: unknown[] }, params?: unknown[]) => {
        const text = typeof statement === 'string' ? statement : statement.text;
        sql.push(text.replace(/\s+/g, ' ').trim());
        return typeof statement === 'string' ? pool.query(statement, params) : pool.query(statement);
      },
    };
    return { pool: wrapper as unknown as Pool, sql };
  };
  const rows = async (): Promise<TimerRow[]> =>
    (await db.pool.query<TimerRow>('SELECT * FROM timers ORDER BY due_at')).rows;

  it('runs nothing before a timer is due, then each timer once it is, in due order', async () => {
    const clock = new ManualClock();
    const timers = service(clock);
    const ran: string[] = [];
    timers.register(kind('test.step'), async (timer) => {
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
    timers.register(kind('test.order'), async (timer) => {
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
    timers.register(kind('test.payload'), async (timer) => {
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
      wakes: 0,
    });
  });

  it('retries a failed handler later with growing backoff, keeping attempts and the last error', async () => {
    const clock = new ManualClock();
    const timers = service(clock);
    let calls = 0;
    timers.register(kind('test.flaky'), async () => {
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

  it('leaves a timer of a kind it has no handler for to an instance that has one (a media process’s dialer)', async () => {
    const clock = new ManualClock();
    const api = service(clock);
    api.register(kind('test.other'), async () => undefined);
    await api.schedule({ kind: 'test.unhandled', dueAt: clock.now(), payload: {} });
    expect(await api.runDue()).toBe(0);
    const [row] = await rows();
    expect(row).toMatchObject({ kind: 'test.unhandled', attempts: 0, locked_until: null, last_error: null });

    const media = service(clock);
    const ran: unknown[] = [];
    media.register(kind('test.unhandled'), async (timer) => {
      ran.push(timer.kind);
    });
    expect(await media.runDue()).toBe(1);
    expect(ran).toEqual(['test.unhandled']);
    expect(await rows()).toEqual([]);
  });

  it('ignores a second schedule with the same dedupeKey', async () => {
    const clock = new ManualClock();
    const timers = service(clock);
    const ran: string[] = [];
    timers.register(kind('test.dedupe'), async (timer) => {
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

  it('wake: schedules a timer, or brings the one with its key forward, never later', async () => {
    const clock = new ManualClock();
    const timers = service(clock);
    const ran: number[] = [];
    timers.register(kind('test.pace'), async (timer) => {
      ran.push(timer.wakes);
    });
    const t0 = clock.now().getTime();
    const pace = (dueIn: number) =>
      timers.wake({ kind: 'test.pace', dedupeKey: 'pace:1', dueAt: new Date(t0 + dueIn), payload: {} });
    await pace(60_000);
    await pace(120_000); // later: the earlier due time stays
    expect((await rows()).map((r) => r.due_at.getTime())).toEqual([t0 + 60_000]);
    await pace(0); // earlier: brought forward
    expect((await rows()).map((r) => r.due_at.getTime())).toEqual([t0]);
    expect(await timers.runDue()).toBe(1);
    expect(ran).toEqual([2]);
    expect(await rows()).toEqual([]);
  });

  it('wake: a timer woken while it runs is neither deleted nor moved later by that run, and runs again', async () => {
    const clock = new ManualClock();
    const timers = service(clock);
    const t0 = clock.now().getTime();
    const wake = () => timers.wake({ kind: 'test.pace', dedupeKey: 'pace:2', dueAt: clock.now(), payload: {} });
    let runs = 0;
    // First run: woken meanwhile, then done (would delete its row). Second run: woken meanwhile, then
    // asks for a run in an hour (would move its row later). Third run: not woken, asks for an hour.
    timers.register(kind('test.pace'), async () => {
      runs++;
      if (runs <= 2) await wake();
      return runs === 1 ? undefined : { next: { dueAt: new Date(t0 + 3_600_000), payload: {} } };
    });
    await wake();
    expect(await timers.runDue()).toBe(1);
    expect((await rows()).map((r) => [r.due_at.getTime() <= t0, r.locked_until])).toEqual([[true, null]]);
    expect(await timers.runDue()).toBe(1);
    expect((await rows()).map((r) => [r.due_at.getTime() <= t0, r.locked_until])).toEqual([[true, null]]);
    expect(await timers.runDue()).toBe(1);
    expect((await rows()).map((r) => r.due_at.getTime())).toEqual([t0 + 3_600_000]);
    expect(await timers.runDue()).toBe(0);
    expect(runs).toBe(3);
  });

  it('cancels by dedupeKey', async () => {
    const clock = new ManualClock();
    const timers = service(clock);
    const ran: string[] = [];
    timers.register(kind('test.cancel'), async () => {
      ran.push('x');
    });
    await timers.schedule({ kind: 'test.cancel', dueAt: clock.now(), payload: {}, dedupeKey: 'cancel-me' });
    await timers.cancel('cancel-me');
    clock.advance(1000);
    expect(await timers.runDue()).toBe(0);
    expect(ran).toEqual([]);
  });

  it('postpone: pushes timers back by key with one statement, but not one being run', async () => {
    const clock = new ManualClock();
    const timers = service(clock);
    const t0 = clock.now().getTime();
    await timers.scheduleMany([
      { kind: 'test.watch', dedupeKey: 'watch:1', dueAt: new Date(t0 + 1000), payload: {} },
      { kind: 'test.watch', dedupeKey: 'watch:2', dueAt: new Date(t0 + 1000), payload: {} },
    ]);
    await db.pool.query(`UPDATE timers SET locked_until = $1 WHERE dedupe_key = 'watch:2'`, [new Date(t0 + 30_000)]);
    await timers.postpone([
      { dedupeKey: 'watch:1', dueAt: new Date(t0 + 45_000) },
      { dedupeKey: 'watch:2', dueAt: new Date(t0 + 45_000) },
      { dedupeKey: 'watch:absent', dueAt: new Date(t0 + 45_000) },
    ]);
    expect((await rows()).map((r) => [r.dedupe_key, r.due_at.getTime() - t0])).toEqual([
      ['watch:2', 1000],
      ['watch:1', 45_000],
    ]);
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
    a.register(kind('test.race'), handler('a'));
    b.register(kind('test.race'), handler('b'));
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
    timers.register(kind('test.loop'), async (timer) => {
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
    timers.register(kind('test.lease'), async (timer) => {
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

  it('deletes the timers of a batch that ran with one statement, and keeps a failing one with its backoff', async () => {
    const clock = new ManualClock();
    const { pool, sql } = counting();
    const timers = service(clock, pool);
    timers.register(kind('test.batch'), async (timer) => {
      if (timer.payload.n === 3) throw new Error('three fails');
    });
    const t0 = clock.now().getTime();
    await timers.scheduleMany(
      [1, 2, 3, 4, 5].map((n) => ({ kind: 'test.batch', dueAt: new Date(t0), payload: { n } })),
    );
    // One that is not due yet stays as it is.
    await timers.schedule({ kind: 'test.batch', dueAt: new Date(t0 + 60_000), payload: { n: 6 } });
    sql.length = 0;

    expect(await timers.runDue()).toBe(5);
    const left = await rows();
    expect(left.map((r) => r.payload.n)).toEqual([3, 6]);
    expect(left[0]).toMatchObject({ attempts: 1, last_error: 'three fails', locked_until: null });
    expect(left[0]!.due_at.getTime()).toBe(t0 + 2000);
    expect(left[1]).toMatchObject({ attempts: 0, locked_until: null });
    // The claim, the failing timer's backoff, and one DELETE for the four that ran (done together).
    expect(sql.filter((q) => q.startsWith('DELETE'))).toEqual([
      'DELETE FROM timers t USING unnest($1::uuid[], $2::uuid[], $3::int[]) AS d(id, lease_id, wakes) WHERE t.timer_id = d.id AND t.lease_id = d.lease_id AND t.wakes = d.wakes',
    ]);
    expect(sql).toHaveLength(3);
  });

  it('schedules many timers with one statement; duplicate dedupe keys, in the call or stored, schedule once', async () => {
    const clock = new ManualClock();
    const { pool, sql } = counting();
    const timers = service(clock, pool);
    const t0 = clock.now().getTime();
    await timers.schedule({ kind: 'test.many', dueAt: new Date(t0), payload: { v: 'stored' }, dedupeKey: 'k:stored' });
    sql.length = 0;
    const batch = [
      { kind: 'test.many', dueAt: new Date(t0 + 1), payload: { v: 'a1' }, dedupeKey: 'k:a' },
      { kind: 'test.many', dueAt: new Date(t0 + 2), payload: { v: 'a2' }, dedupeKey: 'k:a' },
      { kind: 'test.many', dueAt: new Date(t0 + 3), payload: { v: 'again' }, dedupeKey: 'k:stored' },
      { kind: 'test.many', dueAt: new Date(t0 + 4), payload: { v: 'free', text: 'quote " and \\ backslash' } },
      { kind: 'test.many', dueAt: new Date(t0 + 5), payload: { v: 'free2' } },
    ];
    await timers.scheduleMany(batch);
    // A reactor's batch replayed after a crash before its commit: nothing twice.
    await timers.scheduleMany(batch);
    expect(sql).toHaveLength(2);
    expect(sql.every((q) => q.startsWith('INSERT INTO timers'))).toBe(true);
    const all = await rows();
    expect(all.map((r) => [r.dedupe_key, r.payload.v])).toEqual([
      ['k:stored', 'stored'],
      ['k:a', 'a1'],
      [null, 'free'],
      [null, 'free'],
      [null, 'free2'],
      [null, 'free2'],
    ]);
    expect(all[2]!.payload.text).toBe('quote " and \\ backslash');
    await timers.scheduleMany([]);
    expect(sql).toHaveLength(2);
  });

  it('cancels many timers by dedupe key with one statement', async () => {
    const clock = new ManualClock();
    const timers = service(clock);
    await timers.scheduleMany(
      ['a', 'b', 'c'].map((k) => ({ kind: 'test.cancel', dueAt: clock.now(), payload: {}, dedupeKey: k })),
    );
    await timers.cancelMany(['a', 'c', 'absent']);
    expect((await rows()).map((r) => r.dedupe_key)).toEqual(['b']);
  });

  it('a handler waits in memory for steps due soon under one claim, then moves its own row to the next run', async () => {
    const clock = new ManualClock();
    const { pool, sql } = counting();
    const timers = service(clock, pool);
    const played: number[] = [];
    const t0 = clock.now().getTime();
    // Steps at +0, +20 ms, +40 ms, then one far away (+60 s), then the end.
    const at = [0, 20, 40, 60_000];
    timers.register(kind('test.chain'), async (timer, ctx: TimerContext) => {
      for (let step = Number(timer.payload.step); ; step++) {
        played.push(step);
        const next = at[step + 1];
        if (next === undefined) return;
        const dueAt = new Date(t0 + next);
        if (!(await ctx.waitUntil(dueAt, 2000))) return { next: { dueAt, payload: { step: step + 1 } } };
        clock.set(dueAt); // the manual clock follows the wait
      }
    });
    await timers.schedule({ kind: 'test.chain', dueAt: new Date(t0), payload: { step: 0 }, dedupeKey: 'chain' });
    sql.length = 0;
    expect(await timers.runDue()).toBe(1);
    expect(played).toEqual([0, 1, 2]);
    // One claim and one UPDATE of the same row: no insert, no delete.
    expect(sql.map((q) => q.split(' ').slice(0, 2).join(' '))).toEqual(['WITH busy', 'UPDATE timers']);
    const [row] = await rows();
    expect(row).toMatchObject({ dedupe_key: 'chain', payload: { step: 3 }, locked_until: null, attempts: 0 });
    expect(row!.due_at.getTime()).toBe(t0 + 60_000);

    clock.set(new Date(t0 + 60_000));
    expect(await timers.runDue()).toBe(1);
    expect(played).toEqual([0, 1, 2, 3]);
    expect(await rows()).toEqual([]);
  });

  it('never waits past a third of the lease from the claim', async () => {
    const clock = new ManualClock();
    const timers = service(clock);
    const answers: boolean[] = [];
    timers.register(kind('test.hold'), async (_timer, ctx) => {
      answers.push(await ctx.waitUntil(new Date(clock.now().getTime() + 5), 60_000));
      clock.advance(9_980);
      answers.push(await ctx.waitUntil(new Date(clock.now().getTime() + 20), 60_000));
      answers.push(await ctx.waitUntil(new Date(clock.now().getTime() + 21), 60_000));
    });
    await timers.schedule({ kind: 'test.hold', dueAt: clock.now(), payload: {} });
    await timers.runDue();
    expect(answers).toEqual([true, true, false]);
  });

  it('stop() cuts a wait short: the handler moves its row to the next run, released, and stop does not wait for it', async () => {
    const clock = new ManualClock();
    const timers = service(clock);
    let waiting: () => void = () => undefined;
    const isWaiting = new Promise<void>((resolve) => (waiting = resolve));
    const t0 = clock.now().getTime();
    timers.register(kind('test.stop'), async (_timer, ctx) => {
      const dueAt = new Date(t0 + 1900);
      waiting();
      if (!(await ctx.waitUntil(dueAt, 2000))) return { next: { dueAt, payload: { step: 2, stopping: ctx.stopping } } };
      throw new Error('the wait should have been cut short');
    });
    timers.start();
    await timers.schedule({ kind: 'test.stop', dueAt: new Date(t0), payload: { step: 1 } });
    await isWaiting;
    const started = Date.now();
    await timers.stop();
    expect(Date.now() - started).toBeLessThan(1000);
    const [row] = await rows();
    expect(row).toMatchObject({ payload: { step: 2, stopping: true }, locked_until: null, attempts: 0 });
    expect(row!.due_at.getTime()).toBe(t0 + 1900);
  });

  it('idles on one statement per round, sleeping until the next due timer, woken at once by a schedule', async () => {
    const { pool, sql } = counting();
    // The system clock: the loop sleeps in real time.
    const timers = new TimersService(pool, { now: () => new Date() });
    services.push(timers);
    const ran: number[] = [];
    timers.register(kind('test.idle'), async (timer) => {
      ran.push(Date.now() - Number(timer.payload.at));
    });
    timers.start();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    // Nothing due: one claim as it starts, then it sleeps (up to 5 s): no other statement.
    expect(sql.length).toBeLessThanOrEqual(1);
    expect(sql.every((q) => q.startsWith('WITH busy'))).toBe(true);

    sql.length = 0;
    const at = Date.now() + 600;
    await timers.schedule({ kind: 'test.idle', dueAt: new Date(at), payload: { at } });
    await eventually(() => expect(ran).toHaveLength(1), 5000);
    // Ran when due, not a polling interval later.
    expect(ran[0]).toBeGreaterThanOrEqual(0);
    expect(ran[0]).toBeLessThan(400);
    // The insert, the claim it woke (nothing due yet: it sleeps until the timer is due), the claim
    // that ran it (one more if the sleep ended a hair early), and its delete.
    const kinds = sql.map((q) => q.split(' ')[0]);
    expect(kinds[0]).toBe('INSERT');
    expect(kinds[kinds.length - 1]).toBe('DELETE');
    expect(kinds.slice(1, -1).every((k) => k === 'WITH')).toBe(true);
    expect(kinds.length).toBeGreaterThanOrEqual(4);
    expect(kinds.length).toBeLessThanOrEqual(5);
  });

  it('a handler waiting in memory holds up no other timer: the loop claims and runs them meanwhile', async () => {
    const timers = new TimersService(db.pool, { now: () => new Date() });
    services.push(timers);
    const log: string[] = [];
    timers.register(kind('test.waiter'), async (_timer, ctx) => {
      log.push('waiting');
      await ctx.waitUntil(new Date(Date.now() + 1500), 2000);
      log.push('waited');
    });
    timers.register(kind('test.quick'), async () => {
      log.push('quick');
    });
    timers.start();
    await timers.schedule({ kind: 'test.waiter', dueAt: new Date(), payload: {} });
    await eventually(() => expect(log).toEqual(['waiting']), 5000);
    await timers.schedule({ kind: 'test.quick', dueAt: new Date(), payload: {} });
    await eventually(() => expect(log).toEqual(['waiting', 'quick']), 1000);
    await eventually(() => expect(log).toEqual(['waiting', 'quick', 'waited']), 5000);
    await eventually(async () => expect(await rows()).toEqual([]), 5000);
  });
});
