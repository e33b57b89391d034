/**
 * The processor group (src/runtime/processing/processor-group.ts): every processor fed from one read of the log
 * and applied in one transaction per page. What batching must not cost:
 *   - a crash in the middle of a batch (the connection dies after some members applied their rows)
 *     commits nothing of it; after a restart every event is applied once, by every member;
 *   - a page with nothing for anyone costs no transaction, and the checkpoints still get there;
 *   - one member's poison event is set aside without holding back the others;
 *   - two instances on one database apply every event once per member.
 */
import { Logger } from '@nestjs/common';
import { Pool } from 'pg';
import type { NewEvent, Position } from '../../../src/event-store/event-store.port';
import { PostgresEventStore } from '../../../src/event-store/postgres/postgres-event-store';
import { newEventId } from '../../../src/kernel/ids';
import type { DomainEvent } from '../../../src/kernel/decider';
import { defineEdge } from '../../../src/kernel/event-edge';
import { defineProjection, type Projection } from '../../../src/runtime/processing/processor';
import { ProcessorGroup } from '../../../src/runtime/processing/processor-group';
import { ProcessorRunner } from '../../../src/runtime/processing/processor-runner';
import { guardPoolClients } from '../../../src/infra/database/faults';
import { createTestDatabase, TestDatabase } from '../../support/database';
import { eventually } from '../../support/eventually';

type Numbered = DomainEvent<string, { n: number }>;
const numbered = (types: string[]) =>
  defineEdge<Numbered>(Object.fromEntries(types.map((type) => [type, { n: true } as const])));

describe('ProcessorGroup: one read and one transaction per page, with every guarantee of a runner alone', () => {
  let db: TestDatabase;
  let store: PostgresEventStore;
  const cleanups: (() => Promise<unknown>)[] = [];

  beforeAll(async () => {
    Logger.overrideLogger(false);
    db = await createTestDatabase();
    store = new PostgresEventStore(db.pool);
    // `n integer`: a value beyond its range fails the insert (a poison event).
    await db.pool.query('CREATE TABLE applied (member text NOT NULL, n integer NOT NULL, seq bigserial NOT NULL)');
  });
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c();
    await store?.close();
    await db?.drop();
  });

  /** A read model writing one row per event of `types`; `hold` may pause it on one event. */
  const member = (name: string, types: string[], hold?: (n: number) => Promise<void>): Projection =>
    defineProjection<Numbered>({
      name,
      edge: numbered(types),
      tables: ['applied'],
      async apply(tx, event) {
        if (hold) await hold(event.data.n);
        await tx.query('INSERT INTO applied (member, n) VALUES ($1, $2)', [name, event.data.n]);
      },
    });

  const groupOf = (pool: Pool, eventStore: PostgresEventStore, projections: Projection[], batchSize = 2000) => {
    const group = new ProcessorGroup(pool, eventStore, { batchSize, lingerMs: 0 });
    for (const p of projections) group.add(new ProcessorRunner(pool, eventStore, p, { maxAttempts: 2 }));
    return group;
  };

  const append = async (type: string, values: number[]): Promise<void> => {
    for (const [i, n] of values.entries()) {
      const event: NewEvent = {
        id: newEventId(),
        type,
        data: { n },
        metadata: { tenant_id: 'ten_a', created_at: new Date().toISOString() },
      };
      await store.append(`${type.replace('.', '_')}-${i % 4}`, [event], 'any');
    }
  };
  const rows = async (name: string): Promise<number[]> =>
    (await db.pool.query<{ n: number }>('SELECT n FROM applied WHERE member = $1 ORDER BY seq', [name])).rows.map(
      (r) => r.n,
    );
  const checkpoint = async (name: string): Promise<Position | null> => {
    const { rows: found } = await db.pool.query<{ commit_position: string; prepare_position: string }>(
      'SELECT commit_position, prepare_position FROM projection_checkpoints WHERE name = $1',
      [name],
    );
    const row = found[0];
    return row ? { commit: BigInt(row.commit_position), prepare: BigInt(row.prepare_position) } : null;
  };
  const lastPosition = async (): Promise<Position> => {
    const { rows: found } = await db.pool.query<{ tx: string; gp: string }>(
      'SELECT transaction_id::text AS tx, global_position AS gp FROM events ORDER BY transaction_id DESC, global_position DESC LIMIT 1',
    );
    return { commit: BigInt(found[0]!.tx), prepare: BigInt(found[0]!.gp) };
  };
  it('a crash in the middle of a batch commits none of it; after the restart every member applies every event once', async () => {
    const values = Array.from({ length: 50 }, (_, i) => i + 1);
    await append('crash.one', values);
    // A pool of its own, so that killing its connection is the crash of "the process" that holds it.
    const doomed = new Pool({ connectionString: db.url, max: 3 });
    guardPoolClients(doomed);
    // The "dead process" keeps no listener of its own: a connection of it terminated while idle in
    // the pool must not end the test file with an unhandled 'error'.
    doomed.on('error', () => undefined);
    let reached!: () => void;
    const atHold = new Promise<void>((r) => (reached = r));
    let resume!: () => void;
    const killed = new Promise<void>((r) => (resume = r));
    // First member applies all 50; the second stops at event 30, mid-transaction.
    const group = groupOf(doomed, new PostgresEventStore(doomed), [
      member('crash_a', ['crash.one']),
      member('crash_b', ['crash.one'], async (n) => {
        if (n === 30) {
          reached();
          await killed;
        }
      }),
    ]);
    const draining = group.drain().catch((err: unknown) => err);
    await atHold;
    // The rows of crash_a and of crash_b up to 29 were written in the open transaction: none is visible.
    expect(await rows('crash_a')).toEqual([]);
    // kill -9 of the service: its connections drop, the server rolls the transaction back.
    await db.pool.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
       WHERE datname = current_database() AND pid <> pg_backend_pid() AND state = 'idle in transaction'`,
    );
    // What was left of the dead process finds its connection gone.
    resume();
    // (an error of the pg client's realm: compared by shape, not by constructor)
    expect(await draining).toEqual(expect.objectContaining({ message: expect.any(String) }));
    void doomed.end().catch(() => undefined);
    expect(await rows('crash_a')).toEqual([]);
    expect(await rows('crash_b')).toEqual([]);

    // The restart: new runners read the checkpoints, which never moved.
    const restarted = groupOf(db.pool, store, [member('crash_a', ['crash.one']), member('crash_b', ['crash.one'])]);
    await restarted.drain();
    expect(await rows('crash_a')).toEqual(values);
    expect(await rows('crash_b')).toEqual(values);
    const last = await lastPosition();
    expect(await checkpoint('crash_a')).toEqual(last);
    expect(await checkpoint('crash_b')).toEqual(last);
  });

  it('pages in which no member has work cost no transaction; the checkpoints get there when the group goes idle', async () => {
    // The group's own pool: every transaction checks a client out (`connect()`); a read is one
    // `query`, which checks one out with a callback.
    const pool = new Pool({ connectionString: db.url, max: 3 });
    cleanups.push(() => pool.end());
    const groupStore = new PostgresEventStore(pool);
    const group = groupOf(
      pool,
      groupStore,
      [member('quiet_a', ['quiet.wanted']), member('quiet_b', ['quiet.wanted'])],
      10,
    );
    await group.drain();
    await append(
      'quiet.ignored',
      Array.from({ length: 100 }, (_, i) => i),
    );
    const connect = jest.spyOn(pool, 'connect');
    const transactions = () => connect.mock.calls.filter((args) => (args as unknown[]).length === 0).length;
    const reads = jest.spyOn(groupStore, 'readPage');
    await group.drain();
    // Ten pages of ignored events, the read-ahead after the tenth and the read that finds nothing
    // more; one transaction saves both checkpoints.
    expect(reads.mock.calls.length).toBeLessThanOrEqual(12);
    expect(transactions()).toBe(1);
    expect(await rows('quiet_a')).toEqual([]);
    const last = await lastPosition();
    expect(await checkpoint('quiet_a')).toEqual(last);
    expect(await checkpoint('quiet_b')).toEqual(last);

    // One page with work for both members: one transaction for both, and nothing left to save.
    await append('quiet.wanted', [1, 2, 3]);
    connect.mockClear();
    await group.drain();
    expect(transactions()).toBe(1);
    expect(await rows('quiet_a')).toEqual([1, 2, 3]);
    expect(await rows('quiet_b')).toEqual([1, 2, 3]);
    expect(await checkpoint('quiet_b')).toEqual(await lastPosition());
  });

  it("one member's poison event is set aside; the other members, and its other events, are applied in order", async () => {
    const POISON = 2 ** 31;
    const values = [1, 2, POISON, 4, 5];
    await append('poison.one', values);
    // poison_a and poison_b store n as an integer and fail on the poison value; poison_c does not.
    const group = groupOf(db.pool, store, [
      member('poison_a', ['poison.one']),
      member('poison_b', ['poison.one']),
      defineProjection<Numbered>({
        name: 'poison_c',
        edge: numbered(['poison.one']),
        tables: ['applied'],
        async apply(tx, event) {
          await tx.query('INSERT INTO applied (member, n) VALUES ($1, $2)', ['poison_c', event.data.n % 1000]);
        },
      }),
    ]);
    await group.drain();
    expect(await rows('poison_c')).toEqual(values.map((n) => n % 1000));
    expect(await rows('poison_b')).toEqual([1, 2, 4, 5]);
    expect(await rows('poison_a')).toEqual([1, 2, 4, 5]);
    const { rows: letters } = await db.pool.query<{ processor: string }>(
      `SELECT processor FROM dead_letters WHERE processor LIKE 'poison_%' ORDER BY processor`,
    );
    expect(letters.map((l) => l.processor)).toEqual(['poison_a', 'poison_b']);
    const last = await lastPosition();
    for (const name of ['poison_a', 'poison_b', 'poison_c']) expect(await checkpoint(name)).toEqual(last);
  });

  it('two instances on one database apply every event once per member, in order', async () => {
    const values = Array.from({ length: 400 }, (_, i) => i);
    const other = new Pool({ connectionString: db.url, max: 5 });
    other.on('error', () => undefined);
    const otherStore = new PostgresEventStore(other);
    const groups = [
      groupOf(db.pool, store, [member('two_a', ['two.one']), member('two_b', ['two.one', 'two.two'])], 16),
      groupOf(other, otherStore, [member('two_a', ['two.one']), member('two_b', ['two.one', 'two.two'])], 16),
    ];
    cleanups.push(async () => {
      await Promise.all(groups.map((g) => g.stop()));
      await otherStore.close();
      await other.end();
    });
    for (const g of groups) g.start();
    await Promise.all([append('two.one', values), append('two.two', values.slice(0, 100))]);
    const last = await lastPosition();
    await eventually(
      async () => {
        expect(await checkpoint('two_a')).toEqual(last);
        expect(await checkpoint('two_b')).toEqual(last);
      },
      30_000,
      50,
    );
    const a = await rows('two_a');
    expect(a).toEqual(values);
    const b = await rows('two_b');
    expect(b).toHaveLength(500);
    expect(new Set(b).size).toBe(400);
  });
});
