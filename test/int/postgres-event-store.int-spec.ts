import { Client } from 'pg';
import { START, StoredEvent } from '../../src/event-store/event-store.port';
import { PostgresEventStore } from '../../src/event-store/postgres/postgres-event-store';
import { newEventId } from '../../src/kernel/ids';
import { createTestDatabase, TestDatabase } from '../support/database';
import { PageReader } from '../../src/runtime/page-reader';
import { describeEventStoreContract } from './event-store.contract';

describeEventStoreContract('PostgreSQL', async () => {
  const db = await createTestDatabase();
  const store = new PostgresEventStore(db.pool);
  return {
    store,
    cleanup: async () => {
      await store.close();
      await db.drop();
    },
  };
});

describe('PostgreSQL event store: transactions that commit out of order', () => {
  let db: TestDatabase;
  let store: PostgresEventStore;

  beforeAll(async () => {
    db = await createTestDatabase({ poolSize: 40 });
    store = new PostgresEventStore(db.pool);
  });
  afterAll(async () => {
    await store.close();
    await db.drop();
  });

  it('never lets a reader skip an event whose transaction committed after a later global position', async () => {
    // Writer A takes a global position first but commits last; a reader by global_position alone
    // would read B's event, move its checkpoint past A's, and never see A's.
    const a = new Client({ connectionString: db.url });
    await a.connect();
    await a.query('BEGIN');
    const idA = newEventId();
    await a.query(
      `INSERT INTO events (stream_id, stream_position, event_id, type, data, metadata) VALUES ('slow', 0, $1, 'slow', '{}', '{}')`,
      [idA],
    );
    const fast = await store.append(
      'fast',
      [
        {
          id: newEventId(),
          type: 'fast',
          data: {},
          metadata: { tenant_id: null, created_at: new Date().toISOString() },
        },
      ],
      'no_stream',
    );
    const visibleWhileAOpen = await store.readAll(START, 100);
    expect(visibleWhileAOpen.map((e) => e.type)).not.toContain('fast');
    await a.query('COMMIT');
    await a.end();
    const all = await store.readAll(START, 100);
    expect(all.map((e) => e.type)).toEqual(['slow', 'fast']);
    expect(all[1]!.position).toEqual(fast.position);
  });

  it('orders by transaction id as a number, not as text (9 before 10)', async () => {
    const fresh = await createTestDatabase();
    const reader = new PostgresEventStore(fresh.pool);
    try {
      for (const tx of ['10', '9']) {
        await fresh.pool.query(
          `INSERT INTO events (transaction_id, stream_id, stream_position, event_id, type, data, metadata)
           VALUES ($1::xid8, $2, 0, $3, 'ordered', '{}', '{}')`,
          [tx, `s-${tx}`, newEventId()],
        );
      }
      const all = await reader.readAll(START, 10);
      expect(all.map((e) => e.position.commit)).toEqual([9n, 10n]);
      expect((await reader.readAll(all[0]!.position, 10)).map((e) => e.position.commit)).toEqual([10n]);
    } finally {
      await reader.close();
      await fresh.drop();
    }
  });

  it('delivers every event exactly once, in commit order, to one subscriber while many writers race', async () => {
    const writers = 16;
    const perWriter = 60;
    const seen: StoredEvent[] = [];
    let done = false;
    const subscriber = (async () => {
      let after = START;
      for (;;) {
        const page = await store.readAll(after, 200);
        const last = page[page.length - 1];
        if (last) {
          seen.push(...page);
          after = last.position;
          continue;
        }
        if (done) {
          const tail = await store.readAll(after, 200);
          if (tail.length === 0) return;
          seen.push(...tail);
          after = tail[tail.length - 1]!.position;
          continue;
        }
        await new Promise((r) => setTimeout(r, 2));
      }
    })();

    // Each writer holds its transaction open for a random moment after inserting, so commits
    // land in a different order from the sequence numbers they took.
    const committedOrder: string[] = [];
    await Promise.all(
      Array.from({ length: writers }, async (_, w) => {
        const client = await db.pool.connect();
        try {
          for (let i = 0; i < perWriter; i++) {
            const id = newEventId();
            await client.query('BEGIN');
            await client.query(
              `INSERT INTO events (stream_id, stream_position, event_id, type, data, metadata)
               VALUES ($1, $2, $3, 'race', $4, '{}')`,
              [`race-${w}`, i, id, JSON.stringify({ w, i })],
            );
            await new Promise((r) => setTimeout(r, Math.random() * 4));
            await client.query('COMMIT');
            committedOrder.push(id);
          }
        } finally {
          client.release();
        }
      }),
    );
    done = true;
    await subscriber;

    const raceEvents = seen.filter((e) => e.type === 'race');
    const ids = raceEvents.map((e) => e.id);
    if (ids.length !== writers * perWriter) {
      // Diagnostic for a failure seen twice under heavy machine load: which writer's events are extra?
      const byWriter = new Map<string, number>();
      for (const e of raceEvents) byWriter.set(`${String(e.data.w)}`, (byWriter.get(`${String(e.data.w)}`) ?? 0) + 1);
      const dups = ids.filter((id, i) => ids.indexOf(id) !== i);
      console.log({ total: ids.length, dups, byWriter: Object.fromEntries(byWriter) });
    }
    expect(ids).toHaveLength(writers * perWriter);
    expect(new Set(ids).size).toBe(writers * perWriter);
    // Commit order: transaction ids strictly increase along what the subscriber saw.
    for (let i = 1; i < raceEvents.length; i++) {
      expect(raceEvents[i]!.position.commit > raceEvents[i - 1]!.position.commit).toBe(true);
    }
    // And within each writer the order is its own order.
    for (let w = 0; w < writers; w++) {
      const own = raceEvents.filter((e) => e.data.w === w).map((e) => e.data.i);
      expect(own).toEqual(Array.from({ length: perWriter }, (_, i) => i));
    }
    // Transactions really committed in another order than the positions they took (else this proves nothing).
    const gpOf = new Map(raceEvents.map((e) => [e.id, e.position.prepare]));
    const commitsOutOfOrder = committedOrder.some(
      (id, i) => i > 0 && gpOf.get(id)! < gpOf.get(committedOrder[i - 1]!)!,
    );
    expect(commitsOutOfOrder).toBe(true);
  });
});

describe('PostgreSQL event store: pages read in parallel', () => {
  let db: TestDatabase;
  let store: PostgresEventStore;

  beforeAll(async () => {
    db = await createTestDatabase({ poolSize: 10 });
    store = new PostgresEventStore(db.pool);
  });
  afterAll(async () => {
    await store.close();
    await db.drop();
  });

  const event = (type: string) => ({
    id: newEventId(),
    type,
    data: { type },
    metadata: { tenant_id: null, created_at: new Date().toISOString() },
  });

  async function appendMany(prefix: string, transactions: number, perTransaction: number): Promise<void> {
    for (let t = 0; t < transactions; t++) {
      const stream = `${prefix}-${t % 3}`;
      await store.append(
        stream,
        Array.from({ length: perTransaction }, () => event(prefix)),
        'any',
      );
    }
  }

  async function sequential(limit: number): Promise<{ pages: StoredEvent[][]; hidden: boolean }> {
    const pages: StoredEvent[][] = [];
    let after = START;
    for (;;) {
      const page = await store.readPage(after, limit);
      const last = page.events[page.events.length - 1];
      if (!last) return { pages, hidden: page.hidden };
      pages.push(page.events);
      after = last.position;
    }
  }

  async function parallel(limit: number, depth: number): Promise<{ pages: StoredEvent[][]; hidden: boolean }> {
    const pages: StoredEvent[][] = [];
    let after = START;
    for (;;) {
      const set = await store.readPages(after, limit, depth);
      expect(set.length).toBeLessThanOrEqual(depth);
      for (const page of set) {
        const last = page.events[page.events.length - 1];
        if (!last) return { pages, hidden: page.hidden };
        pages.push(page.events);
        after = last.position;
      }
    }
  }

  it('returns exactly the pages of sequential paging, with a transaction held open across a page boundary', async () => {
    await appendMany('before', 9, 3); // 27 events: the horizon falls inside the third page of 10
    const open = new Client({ connectionString: db.url });
    await open.connect();
    try {
      await open.query('BEGIN');
      await open.query(
        `INSERT INTO events (stream_id, stream_position, event_id, type, data, metadata)
         VALUES ('held-open', 0, $1, 'held', '{}', '{}')`,
        [newEventId()],
      );
      await appendMany('after', 7, 2); // committed, but behind the open transaction

      const expected = await sequential(10);
      expect(expected.pages.flat().map((e) => e.type)).toEqual(Array(27).fill('before'));
      expect(expected.hidden).toBe(true);
      for (const depth of [2, 3, 5, 50]) {
        const got = await parallel(10, depth);
        expect(got.pages.map((p) => p.map((e) => e.id))).toEqual(expected.pages.map((p) => p.map((e) => e.id)));
        expect(got.hidden).toBe(true);
      }

      await open.query('COMMIT');
      const after = await sequential(10);
      expect(after.pages.flat()).toHaveLength(27 + 1 + 14);
      expect(after.hidden).toBe(false);
      for (const depth of [2, 4, 7]) {
        const got = await parallel(10, depth);
        expect(got.pages).toEqual(after.pages);
        expect(got.hidden).toBe(false);
      }
      // From the middle of a transaction's events, and with a page size that divides the total.
      const middle = after.pages.flat()[13]!.position;
      const rest = after.pages.flat().slice(14);
      const set = await store.readPages(middle, 7, 3);
      expect(set.flatMap((p) => p.events)).toEqual(rest.slice(0, 21));
      expect(set.map((p) => p.events.length)).toEqual([7, 7, 7]);
      const tail = await store.readPages(rest[27]!.position, 7, 3);
      expect(tail).toEqual([{ events: [], hidden: false }]);
    } finally {
      await open.query('ROLLBACK').catch(() => undefined);
      await open.end();
    }
  });

  it('hands a consumer the same pages through the page reader', async () => {
    const expected = (await sequential(4)).pages;
    const reader = new PageReader(store, 4, 3);
    const got: StoredEvent[][] = [];
    let after = START;
    for (;;) {
      const { events } = await reader.read(after);
      const last = events[events.length - 1];
      if (!last) break;
      got.push(events);
      after = last.position;
    }
    expect(got).toEqual(expected);
  });
});
