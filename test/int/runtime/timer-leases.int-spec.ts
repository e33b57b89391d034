/**
 * Durable timers that cannot starve anyone (real PostgreSQL, manual clock): a handler longer than its
 * lease keeps its claim (renewed) and is never run twice at once, by its instance or another; a
 * timer's row goes as soon as its own handler is done, whatever the rest of its claim takes; claims
 * are fair across tenants; a parked timer waits for its key's release without being run.
 */
import { Logger } from '@nestjs/common';
import { Pool } from 'pg';
import { ManualClock } from '../../../src/kernel/clock';
import { TimersService, type ScheduleTimer } from '../../../src/runtime/timers/timers.service';
import { defineTimerKind } from '../../../src/runtime/timers/timer-kind';
import { createTestDatabase, TestDatabase } from '../../support/database';
import { eventually } from '../../support/eventually';

/** A kind for these tests: any payload, no required field. */
const kind = (name: string) => defineTimerKind<Record<string, unknown>>(name, {});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A gate a handler awaits; `open()` lets every waiter through. */
function gate(): { wait: Promise<void>; open: () => void } {
  let open: () => void = () => undefined;
  const wait = new Promise<void>((resolve) => (open = resolve));
  return { wait, open };
}

describe('timers: leases, per-timer completion, fairness, parks', () => {
  let db: TestDatabase;
  const pools: Pool[] = [];
  const services: TimersService[] = [];
  const gates: (() => void)[] = [];

  beforeAll(async () => {
    Logger.overrideLogger(false);
    db = await createTestDatabase();
  });
  afterEach(async () => {
    gates.splice(0).forEach((open) => open());
    await Promise.all(services.splice(0).map((s) => s.stop()));
    await db.pool.query('DELETE FROM timers');
  });
  afterAll(async () => {
    await Promise.all(pools.map((p) => p.end()));
    await db?.drop();
  });

  const service = (clock: ManualClock, pool: Pool = db.pool): TimersService => {
    const s = new TimersService(pool, clock);
    services.push(s);
    return s;
  };
  const newPool = (): Pool => {
    const pool = new Pool({ connectionString: db.url, max: 10 });
    pool.on('error', () => undefined);
    pools.push(pool);
    return pool;
  };
  const kinds = async (): Promise<string[]> =>
    (await db.pool.query<{ kind: string }>('SELECT kind FROM timers ORDER BY kind')).rows.map((r) => r.kind);

  it('a handler running past its lease is not run again meanwhile, and its instance keeps running other timers', async () => {
    const clock = new ManualClock();
    const timers = service(clock);
    const slow = gate();
    gates.push(slow.open);
    let running = 0;
    let most = 0;
    let runs = 0;
    timers.register(kind('test.slow'), async () => {
      runs++;
      most = Math.max(most, ++running);
      await slow.wait;
      running--;
    });
    const quick: number[] = [];
    timers.register(kind('test.quick'), async (t) => {
      quick.push(Number(t.payload.n));
    });
    timers.start();
    await timers.schedule({ kind: 'test.slow', dueAt: clock.now(), payload: {} });
    await eventually(() => expect(runs).toBe(1), 5000);
    // 55 times a lease (30 s) and more: before, each round claimed the step again, a new copy
    // every time, until the copies held all 50 of the instance's slots.
    for (let i = 0; i < 55; i++) {
      clock.advance(31_000);
      timers.poke();
      await pause(15);
    }
    await timers.schedule({ kind: 'test.quick', dueAt: clock.now(), payload: { n: 1 } });
    await eventually(() => expect(quick).toEqual([1]), 5000);
    expect([runs, most]).toEqual([1, 1]);
    slow.open();
    await eventually(async () => expect(await kinds()).toEqual([]), 5000);
    expect(runs).toBe(1);
  });

  it('another instance does not take over a claim whose handler still runs past the lease', async () => {
    const clock = new ManualClock();
    const a = service(clock, newPool());
    const b = service(clock, newPool());
    const slow = gate();
    gates.push(slow.open);
    const ran: string[] = [];
    const handler = (name: string) => async () => {
      ran.push(name);
      await slow.wait;
    };
    a.register(kind('test.slow'), handler('a'));
    b.register(kind('test.slow'), handler('b'));
    a.start();
    await a.schedule({ kind: 'test.slow', dueAt: clock.now(), payload: {} });
    await eventually(() => expect(ran).toEqual(['a']), 5000);
    b.start();
    // Two minutes in 10 s steps, each instance looking in turn.
    for (let i = 0; i < 12; i++) {
      clock.advance(10_000);
      a.poke();
      await pause(25);
      b.poke();
      await pause(25);
    }
    expect(ran).toEqual(['a']);
    slow.open();
    await eventually(async () => expect(await kinds()).toEqual([]), 5000);
    expect(ran).toEqual(['a']);
  });

  it('deletes a timer as soon as it is done, not when the slowest of its claim is: a slow one does not make it run again', async () => {
    const clock = new ManualClock();
    const timers = service(clock);
    const slow = gate();
    gates.push(slow.open);
    const ran: string[] = [];
    timers.register(kind('test.slow'), async () => {
      ran.push('slow');
      await slow.wait;
    });
    timers.register(kind('test.quick'), async () => {
      ran.push('quick');
    });
    // One claim takes both.
    await timers.scheduleMany([
      { kind: 'test.slow', dueAt: clock.now(), payload: {} },
      { kind: 'test.quick', dueAt: clock.now(), payload: {} },
    ]);
    timers.start();
    await eventually(async () => expect(await kinds()).toEqual(['test.slow']), 5000);
    for (let i = 0; i < 4; i++) {
      clock.advance(20_000);
      timers.poke();
      await pause(25);
    }
    expect(ran.sort()).toEqual(['quick', 'slow']);
    slow.open();
    await eventually(async () => expect(await kinds()).toEqual([]), 5000);
    expect(ran.sort()).toEqual(['quick', 'slow']);
  });

  it("fair across tenants: one tenant's thousand due timers do not hold another tenant's back", async () => {
    const clock = new ManualClock();
    const timers = service(clock);
    const ran: string[] = [];
    timers.register(kind('test.work'), async (t) => {
      ran.push(String(t.payload.tenant_id));
    });
    const t0 = clock.now().getTime();
    const backlog: ScheduleTimer[] = Array.from({ length: 1000 }, (_, n) => ({
      kind: 'test.work',
      dueAt: new Date(t0 - 60_000 + n),
      payload: { tenant_id: 'ten_a', n },
    }));
    await timers.scheduleMany(backlog);
    // Due after every one of A's.
    await timers.schedule({ kind: 'test.work', dueAt: new Date(t0), payload: { tenant_id: 'ten_b' } });
    expect(await timers.runDue(10)).toBe(10);
    expect(ran).toContain('ten_b');
    expect(ran.filter((t) => t === 'ten_a').length).toBe(9);
  });

  it("fair across tenants: one tenant's slow handlers do not take every slot", async () => {
    const clock = new ManualClock();
    const timers = service(clock);
    const slow = gate();
    gates.push(slow.open);
    let started = 0;
    timers.register(kind('test.slow'), async () => {
      started++;
      await slow.wait;
    });
    const quick: string[] = [];
    timers.register(kind('test.quick'), async (t) => {
      quick.push(String(t.payload.tenant_id));
    });
    const t0 = clock.now().getTime();
    await timers.scheduleMany(
      Array.from({ length: 80 }, (_, n) => ({
        kind: 'test.slow',
        dueAt: new Date(t0 - 1000 + n),
        payload: { tenant_id: 'ten_a', n },
      })),
    );
    timers.start();
    await eventually(() => expect(started).toBeGreaterThan(0), 5000);
    await pause(200);
    // A holds no more than its share of the slots; B's call is not held up behind A's slow steps.
    expect(started).toBeLessThan(50);
    await timers.schedule({ kind: 'test.quick', dueAt: clock.now(), payload: { tenant_id: 'ten_b' } });
    await eventually(() => expect(quick).toEqual(['ten_b']), 3000);
    slow.open();
    await eventually(async () => expect(await kinds()).toEqual([]), 10_000);
    expect(started).toBe(80);
  });

  it('a parked timer is not run until its key is released (or its bound comes); released, it runs at once', async () => {
    const clock = new ManualClock();
    const timers = service(clock);
    const t0 = clock.now().getTime();
    let waiting = true;
    const runs: number[] = [];
    timers.register(kind('test.held'), async (t) => {
      runs.push(Number(t.payload.run ?? 0));
      if (!waiting) return;
      return {
        park: {
          key: 'hold:test:ten_a',
          until: new Date(t0 + 3_600_000),
          payload: { run: runs.length },
          stillWaiting: async () => waiting,
        },
      };
    });
    await timers.schedule({ kind: 'test.held', dueAt: clock.now(), payload: { tenant_id: 'ten_a' } });
    expect(await timers.runDue()).toBe(1);
    const [row] = (await db.pool.query('SELECT held_on, due_at, locked_until, tenant_id FROM timers')).rows;
    expect(row).toMatchObject({ held_on: 'hold:test:ten_a', locked_until: null, tenant_id: 'ten_a' });
    expect(row.due_at.getTime()).toBe(t0 + 3_600_000);
    clock.advance(600_000);
    expect(await timers.runDue()).toBe(0);
    await timers.release('hold:test:ten_b'); // another tenant's
    expect(await timers.runDue()).toBe(0);
    waiting = false;
    await timers.release('hold:test:ten_a');
    expect(await timers.runDue()).toBe(1);
    expect(runs).toEqual([0, 1]);
    expect(await kinds()).toEqual([]);
  });

  it('a park whose wait ended while it was being stored runs again at once', async () => {
    const clock = new ManualClock();
    const timers = service(clock);
    let asked = 0;
    timers.register(kind('test.held'), async (t) => {
      if (t.payload.again) return;
      return {
        park: {
          key: 'hold:test:ten_c',
          until: new Date(clock.now().getTime() + 3_600_000),
          payload: { again: true },
          // Released between the hold check and the park: the park then finds it lifted.
          stillWaiting: async () => (asked++, false),
        },
      };
    });
    await timers.schedule({ kind: 'test.held', dueAt: clock.now(), payload: {} });
    expect(await timers.runDue()).toBe(1);
    expect(asked).toBe(1);
    expect(await timers.runDue()).toBe(1);
    expect(await kinds()).toEqual([]);
  });
});
