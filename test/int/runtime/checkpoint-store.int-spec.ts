/**
 * Checkpoints and the store whose log they belong to (decision 52), on PostgreSQL:
 *   - a checkpoint recorded before checkpoints named their store has none (NULL) and is claimed by
 *     the store that next reads it; the migration that labelled such rows `postgresql` is undone;
 *   - the migration's ALTER gives way to a long transaction instead of queueing every checkpoint
 *     query behind it;
 *   - a checkpoint claimed by another store after a runner or a group loaded it is not moved by them.
 */
import { Client } from 'pg';
import type { QueryRunner } from 'typeorm';
import type { NewEvent, Position } from '../../../src/event-store/event-store.port';
import { PostgresEventStore } from '../../../src/event-store/postgres/postgres-event-store';
import { alterWithLockTimeout, CheckpointEventStoreUnknown0000000000207 } from '../../../src/infra/database/migrations';
import { newEventId } from '../../../src/kernel/ids';
import { ProcessorGroup } from '../../../src/runtime/processing/processor-group';
import {
  assertCheckpointsOf,
  CheckpointStoreMismatchError,
  loadCheckpoints,
  ProcessorRunner,
  type Processor,
} from '../../../src/runtime/processing/processor-runner';
import { createTestDatabase, TestDatabase } from '../../support/database';

const event = (n: number): NewEvent => ({
  id: newEventId(),
  type: 'checkpoint.store.tested',
  data: { n },
  metadata: { tenant_id: null, created_at: new Date().toISOString() },
});

describe('checkpoints and their store', () => {
  let db: TestDatabase;
  let store: PostgresEventStore;

  beforeAll(async () => {
    db = await createTestDatabase();
    store = new PostgresEventStore(db.pool);
    for (let i = 0; i < 5; i++) await store.append(`cs-${i % 2}`, [event(i)], 'any');
  });
  afterAll(async () => {
    await store.close();
    await db.drop();
  });

  const row = async (name: string) =>
    (
      await db.pool.query<{ commit_position: string; prepare_position: string; event_store: string | null }>(
        'SELECT commit_position, prepare_position, event_store FROM projection_checkpoints WHERE name = $1',
        [name],
      )
    ).rows[0];
  const put = (name: string, position: Position, eventStore: string | null) =>
    db.pool.query(
      `INSERT INTO projection_checkpoints (name, commit_position, prepare_position, event_store) VALUES ($1, $2, $3, $4)
       ON CONFLICT (name) DO UPDATE SET commit_position = $2, prepare_position = $3, event_store = $4`,
      [name, position.commit.toString(), position.prepare.toString(), eventStore],
    );
  const somewhere = async (): Promise<Position> => (await store.readAll({ commit: -1n, prepare: -1n }, 3))[2]!.position;

  it('undoes the `postgresql` guessed for old rows: they have no store, recorded ones keep theirs', async () => {
    const at = await somewhere();
    // the column as CheckpointEventStore0000000000205 first left it, on a database where it ran
    await db.pool.query(
      `ALTER TABLE projection_checkpoints ALTER COLUMN event_store SET DEFAULT 'postgresql',
       ALTER COLUMN event_store SET NOT NULL`,
    );
    await db.pool.query(
      'INSERT INTO projection_checkpoints (name, commit_position, prepare_position) VALUES ($1, $2, $3)',
      ['guessed', at.commit.toString(), at.prepare.toString()],
    );
    await put('recorded_kdb', at, 'kurrentdb');
    const client = new Client({ connectionString: db.url });
    await client.connect();
    try {
      await client.query('BEGIN');
      const runner = { query: async (sql: string) => (await client.query(sql)).rows } as unknown as QueryRunner;
      await new CheckpointEventStoreUnknown0000000000207().up(runner);
      await client.query('COMMIT');
    } finally {
      await client.end();
    }
    expect((await row('guessed'))?.event_store).toBeNull();
    expect((await row('recorded_kdb'))?.event_store).toBe('kurrentdb');
    const { rows } = await db.pool.query<{ is_nullable: string; column_default: string | null }>(
      `SELECT is_nullable, column_default FROM information_schema.columns
       WHERE table_name = 'projection_checkpoints' AND column_name = 'event_store'`,
    );
    expect(rows[0]).toEqual({ is_nullable: 'YES', column_default: null });
    await db.pool.query(`DELETE FROM projection_checkpoints WHERE name IN ('guessed', 'recorded_kdb')`);
  });

  it('lets the store that reads a checkpoint without a store claim it, wherever it is', async () => {
    const at = await somewhere();
    await put('legacy_somewhere', at, null);
    // a start check passes over it: it is nobody's yet
    await expect(assertCheckpointsOf(db.pool, 'kurrentdb')).resolves.toBeUndefined();
    await expect(assertCheckpointsOf(db.pool, store.identity)).resolves.toBeUndefined();
    expect(await loadCheckpoints(db.pool, ['legacy_somewhere'], store.identity)).toEqual([at]);
    expect((await row('legacy_somewhere'))?.event_store).toBe(store.identity);
    // claimed: another store is refused it now
    await expect(loadCheckpoints(db.pool, ['legacy_somewhere'], 'kurrentdb')).rejects.toBeInstanceOf(
      CheckpointStoreMismatchError,
    );
  });

  it('advises moving PostgreSQL checkpoints to KurrentDB only when that is what was found', async () => {
    const at = await somewhere();
    await put('pg_one', at, 'postgresql');
    await put('kdb_one', at, 'kurrentdb');
    const message = (names: string[], identity: string) =>
      loadCheckpoints(db.pool, names, identity).then(
        () => 'loaded',
        (err: unknown) => (err instanceof CheckpointStoreMismatchError ? err.message : 'another error'),
      );
    expect(await message(['pg_one'], 'kurrentdb')).toMatch(/--checkpoints/);
    const toPg = await message(['kdb_one'], 'postgresql');
    expect(toPg).not.toMatch(/--checkpoints/);
    expect(toPg).toMatch(/set EVENTSTORE_URL back/);
  });

  it('gives way to a long transaction instead of holding every checkpoint query behind the ALTER', async () => {
    await put('held_row', await somewhere(), store.identity);
    await put('other_row', await somewhere(), store.identity);
    const rebuild = new Client({ connectionString: db.url });
    const migration = new Client({ connectionString: db.url });
    await rebuild.connect();
    await migration.connect();
    try {
      // a rebuild holds its checkpoint row for as long as it runs
      await rebuild.query('BEGIN');
      await rebuild.query(`SELECT 1 FROM projection_checkpoints WHERE name = 'held_row' FOR UPDATE`);
      await migration.query('BEGIN');
      let altered = false;
      const altering = alterWithLockTimeout(
        { query: async (sql: string) => (await migration.query(sql)).rows },
        'ALTER TABLE projection_checkpoints ADD COLUMN IF NOT EXISTS lock_probe integer',
        { timeoutMs: 100, attempts: 200, pauseMs: 100 },
      ).then(() => (altered = true));
      // meanwhile the live processors' checkpoint queries go on (each waits at most one lock_timeout)
      for (let i = 0; i < 5; i++) {
        const started = Date.now();
        await db.pool.query(`BEGIN; SELECT 1 FROM projection_checkpoints WHERE name = 'other_row' FOR UPDATE; COMMIT`);
        expect(Date.now() - started).toBeLessThan(1000);
        await new Promise((resolve) => setTimeout(resolve, 60));
      }
      expect(altered).toBe(false);
      await rebuild.query('COMMIT');
      await altering;
      await migration.query('COMMIT');
      expect(altered).toBe(true);
    } finally {
      await rebuild.end();
      await migration.end();
    }
    await db.pool.query('ALTER TABLE projection_checkpoints DROP COLUMN lock_probe');
  });

  describe('a checkpoint another store claimed after it was loaded is not moved', () => {
    const seen: number[] = [];
    const processor = (name: string): Processor => ({
      name,
      handles: '*',
      handle: (_tx, events) => {
        seen.push(...events.map((e) => e.data['n'] as number));
        return Promise.resolve();
      },
    });

    it('by a runner alone', async () => {
      const runner = new ProcessorRunner(db.pool, store, processor('alone_claimed'));
      await runner.drain();
      const before = await row('alone_claimed');
      expect(before?.event_store).toBe(store.identity);
      await db.pool.query(`UPDATE projection_checkpoints SET event_store = 'another-store' WHERE name = $1`, [
        'alone_claimed',
      ]);
      seen.length = 0;
      await store.append('cs-0', [event(100)], 'any');
      await expect(runner.drain()).rejects.toBeInstanceOf(CheckpointStoreMismatchError);
      expect(seen).toEqual([]);
      expect(await row('alone_claimed')).toEqual({ ...before, event_store: 'another-store' });
    });

    it('by a group', async () => {
      const group = new ProcessorGroup(db.pool, store, { lingerMs: 0 });
      group.add(new ProcessorRunner(db.pool, store, processor('group_claimed_a')));
      group.add(new ProcessorRunner(db.pool, store, processor('group_claimed_b')));
      await group.drain();
      const before = await row('group_claimed_a');
      await db.pool.query(`UPDATE projection_checkpoints SET event_store = 'another-store' WHERE name = $1`, [
        'group_claimed_a',
      ]);
      seen.length = 0;
      await store.append('cs-1', [event(200)], 'any');
      await expect(group.drain()).rejects.toBeInstanceOf(CheckpointStoreMismatchError);
      expect(await row('group_claimed_a')).toEqual({ ...before, event_store: 'another-store' });
    });
  });
});
