/**
 * The PostgreSQL store's wake-up hints (append-wakeups.ts, decision 161): local readers hear an
 * append at once as `local`; another process hears it through NOTIFY as `remote`; a store alone on
 * its database sends no NOTIFY at all (each would be a transaction of its own), and a store does not
 * hear its own NOTIFY back.
 */
import { Pool } from 'pg';
import type { AppendOrigin, NewEvent } from '../../../src/event-store/event-store.port';
import { PostgresEventStore } from '../../../src/event-store/postgres/postgres-event-store';
import { newEventId } from '../../../src/kernel/ids';
import { createTestDatabase, TestDatabase } from '../../support/database';
import { eventually } from '../../support/eventually';

const event = (): NewEvent => ({
  id: newEventId(),
  type: 'wake.test',
  data: {},
  metadata: { tenant_id: null, created_at: new Date().toISOString() },
});

/** Counts the NOTIFY statements sent through `pool`. */
function countNotifies(pool: Pool): { readonly n: number } {
  const counter = { n: 0 };
  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  Object.assign(pool, {
    query: (...args: unknown[]) => {
      if (typeof args[0] === 'string' && args[0].includes('pg_notify')) counter.n++;
      return query(...args);
    },
  });
  return counter;
}

/** Waits until `count` backends of this database LISTEN (each store has one listening connection). */
async function listening(pool: Pool, count: number): Promise<void> {
  await eventually(async () => {
    const { rows } = await pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND query = 'LISTEN events_appended'`,
    );
    return (rows[0]?.n ?? 0) >= count;
  });
}

describe('append wake-ups (PostgreSQL)', () => {
  let db: TestDatabase;
  const others: Pool[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    for (const p of others) await p.end();
    await db.drop();
  });

  it('a store alone on its database wakes its own readers and sends no NOTIFY', async () => {
    const pool = new Pool({ connectionString: db.url, max: 4 });
    others.push(pool);
    const notifies = countNotifies(pool);
    const store = new PostgresEventStore(pool);
    const heard: (AppendOrigin | undefined)[] = [];
    const streams: (readonly string[] | undefined)[] = [];
    const off = store.onAppended((origin, appended) => {
      heard.push(origin);
      streams.push(appended);
    });
    try {
      await listening(pool, 1);
      const ids = Array.from({ length: 5 }, () => `w-${newEventId()}`);
      for (const id of ids) await store.append(id, [event()], 'no_stream');
      await new Promise((r) => setTimeout(r, 200));
      expect(heard).toEqual(['local', 'local', 'local', 'local', 'local']);
      // Each local wake-up names the streams appended to (a grouped append may name several).
      expect(streams.flatMap((s) => s ?? ['(unknown)'])).toEqual(ids);
      expect(notifies.n).toBe(0);
    } finally {
      off();
      await store.close();
    }
  });

  it('another store (another process) hears an append as remote, and the appender not its own echo', async () => {
    const poolA = new Pool({ connectionString: db.url, max: 4 });
    const poolB = new Pool({ connectionString: db.url, max: 4 });
    others.push(poolA, poolB);
    const notifies = countNotifies(poolA);
    const a = new PostgresEventStore(poolA);
    const b = new PostgresEventStore(poolB);
    const heardA: (AppendOrigin | undefined)[] = [];
    const heardB: (AppendOrigin | undefined)[] = [];
    const offA = a.onAppended((origin) => heardA.push(origin));
    const offB = b.onAppended((origin) => heardB.push(origin));
    try {
      await listening(poolA, 2);
      await a.append(`w-${newEventId()}`, [event()], 'no_stream');
      await eventually(() => heardB.includes('remote'), 5_000);
      expect(notifies.n).toBeGreaterThanOrEqual(1);
      // Its own NOTIFY came back to A's listener too: given time, it still woke A's readers only once.
      await new Promise((r) => setTimeout(r, 300));
      expect(heardA).toEqual(['local']);
      expect(heardB).toEqual(['remote']);
    } finally {
      offA();
      offB();
      await a.close();
      await b.close();
    }
  });
});
