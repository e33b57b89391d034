/**
 * Poison events
 * (docs/decisions/0023-a-poison-event-is-set-aside-as-a-dead-letter-after-n-tries.md). A processor
 * that cannot apply an event tries it PROCESSOR_MAX_ATTEMPTS times, then sets it aside in
 * `dead_letters` and moves on: every other event is applied, in commit order, each tenant's read
 * models stay current, the metric and the log say so, and the operator lists the dead letters and
 * replays one once its cause is fixed.
 *
 * First the runner alone, with a deliberately failing test projection (one page, two instances,
 * transient failures); then the whole application, with the real defect: a hang-up whose
 * duration_seconds is beyond the integer range (what the media ingest accepted before decision 23)
 * overflowed the sessions read model, and the sessions projection retried that batch forever.
 */
import { Logger } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { Pool, PoolClient } from 'pg';
import { PostgresEventStore } from '../../../src/event-store/postgres/postgres-event-store';
import type { NewEvent, Position } from '../../../src/event-store/event-store.port';
import { newEventId } from '../../../src/kernel/ids';
import type { DomainEvent } from '../../../src/kernel/decider';
import { defineEdge } from '../../../src/kernel/event-edge';
import { defineProjection } from '../../../src/runtime/processing/processor';
import { ProcessorRunner, type DeadLettered } from '../../../src/runtime/processing/processor-runner';
import { EventFailedError } from '../../../src/runtime/processing/processor-failures';
import { SessionActionCommand } from '../../../src/sessions/application/session.commands';
import type { MediaSignal } from '../../../src/sessions/domain/media-signal';
import { CreatedTenant, expectNoLeak, startTestApp, TestApp } from '../../support/app';
import { createTestDatabase, TestDatabase } from '../../support/database';
import { eventually } from '../../support/eventually';

type Counted = DomainEvent<string, { n: number }>;

interface DeadLetterRow {
  id: string;
  processor: string;
  event_id: string;
  event_type: string;
  stream_id: string;
  stream_position: number;
  commit_position: string;
  prepare_position: string;
  tenant_id: string | null;
  error: string;
  attempts: number;
  status: string;
}

describe('ProcessorRunner: a poison event is set aside after N tries, and the rest is applied in order', () => {
  let db: TestDatabase;
  let store: PostgresEventStore;
  const pools: Pool[] = [];
  const runners: ProcessorRunner[] = [];
  const stores: PostgresEventStore[] = [];

  beforeAll(async () => {
    Logger.overrideLogger(false);
    db = await createTestDatabase();
    store = new PostgresEventStore(db.pool);
    // `n integer`: a value beyond its range fails the insert as the sessions read model once did (22003).
    await db.pool.query(
      'CREATE TABLE counted (processor text NOT NULL, n integer NOT NULL, applied bigserial NOT NULL)',
    );
  });
  afterAll(async () => {
    await Promise.all(runners.map((r) => r.stop()));
    await Promise.all(stores.map((s) => s.close()));
    await Promise.all(pools.map((p) => p.end()));
    await store?.close();
    await db?.drop();
  });

  const POISON = 2 ** 31;

  /** A read model that stores `n`; `n` beyond the integer range fails, like an overflowing column. */
  const countingProjection = (name: string, type: string) =>
    defineProjection<Counted>({
      name,
      edge: defineEdge<Counted>({ [type]: { n: true } }),
      tables: ['counted'],
      async apply(tx, event) {
        await tx.query('INSERT INTO counted (processor, n) VALUES ($1, $2)', [name, event.data.n]);
      },
    });

  /** Appends events of `type` with these values, spread over three streams of two tenants. */
  const append = async (type: string, values: number[]): Promise<void> => {
    let i = 0;
    for (const n of values) {
      const stream = `counter-${type.replace('.', '_')}_${i % 3}`;
      const event: NewEvent = {
        id: newEventId(),
        type,
        data: { n },
        metadata: { tenant_id: i % 3 === 2 ? 'ten_b' : 'ten_a', created_at: new Date().toISOString() },
      };
      await store.append(stream, [event], 'any');
      i++;
    }
  };

  const applied = async (processor: string): Promise<number[]> =>
    (
      await db.pool.query<{ n: number }>('SELECT n FROM counted WHERE processor = $1 ORDER BY applied', [processor])
    ).rows.map((r) => r.n);
  const deadLetters = async (processor: string): Promise<DeadLetterRow[]> =>
    (await db.pool.query<DeadLetterRow>('SELECT * FROM dead_letters WHERE processor = $1 ORDER BY seq', [processor]))
      .rows;
  const checkpoint = async (processor: string): Promise<Position> => {
    const { rows } = await db.pool.query<{ commit_position: string; prepare_position: string }>(
      'SELECT commit_position, prepare_position FROM projection_checkpoints WHERE name = $1',
      [processor],
    );
    return { commit: BigInt(rows[0]!.commit_position), prepare: BigInt(rows[0]!.prepare_position) };
  };
  const lastPosition = async (): Promise<Position> => {
    const { rows } = await db.pool.query<{ tx: string; gp: string }>(
      'SELECT transaction_id::text AS tx, global_position AS gp FROM events ORDER BY transaction_id DESC, global_position DESC LIMIT 1',
    );
    return { commit: BigInt(rows[0]!.tx), prepare: BigInt(rows[0]!.gp) };
  };

  it('in one page: tries the poison event alone N times, sets it aside, applies every other event once, in order', async () => {
    const values = [1, 2, 3, 4, POISON, 6, 7, 8, 9, 10];
    await append('test.one', values);
    const letters: DeadLettered[] = [];
    const failures: number[] = [];
    const runner = new ProcessorRunner(db.pool, store, countingProjection('one', 'test.one'), {
      maxAttempts: 3,
      onEventFailed: (f) => failures.push(f.attempts),
      onDeadLettered: (letter) => letters.push(letter),
    });
    // The runner's rounds as the polling loop runs them: a failed try ends a round (the loop backs off).
    const thrown: unknown[] = [];
    for (let round = 0; round < 10; round++) {
      try {
        await runner.drain();
        break;
      } catch (err) {
        thrown.push(err);
      }
    }
    expect(thrown).toHaveLength(2);
    for (const err of thrown) {
      expect(err).toBeInstanceOf(EventFailedError);
      expect((err as Error).message).toMatch(/try [12] of 3: 22003: value "2147483648" is out of range/);
    }
    expect(failures).toEqual([1, 2, 3]);
    // Every event but the poison one, once each, in commit order; the events before it were applied
    // while the poison one was being tried, the others after it was set aside.
    expect(await applied('one')).toEqual(values.filter((n) => n !== POISON));
    const [row, ...more] = await deadLetters('one');
    expect(more).toEqual([]);
    const [poison] = (await store.readAll({ commit: -1n, prepare: -1n }, 100)).filter(
      (e) => e.type === 'test.one' && e.data.n === POISON,
    );
    expect(row).toMatchObject({
      processor: 'one',
      event_id: poison!.id,
      event_type: 'test.one',
      stream_id: poison!.streamId,
      stream_position: poison!.streamPosition,
      commit_position: poison!.position.commit.toString(),
      prepare_position: poison!.position.prepare.toString(),
      tenant_id: 'ten_a',
      attempts: 3,
      status: 'dead',
    });
    expect(row!.error).toBe('22003: value "2147483648" is out of range for type integer');
    expect(letters.map((l) => l.id)).toEqual([row!.id]);
    expect(await checkpoint('one')).toEqual(await lastPosition());
  });

  it('a failure that is about the database (a serialization failure, a lost connection) is retried without counting', async () => {
    await append('test.transient', [1, 2, 3]);
    let failuresLeft = 4;
    const base = countingProjection('transient', 'test.transient');
    const runner = new ProcessorRunner(
      db.pool,
      store,
      {
        ...base,
        async handle(tx: PoolClient, events) {
          if (events.some((e) => e.data.n === 2) && failuresLeft-- > 0) {
            throw Object.assign(new Error('could not serialize access due to concurrent update'), { code: '40001' });
          }
          await base.handle(tx, events);
        },
      },
      { maxAttempts: 1 },
    );
    const thrown: unknown[] = [];
    for (let round = 0; round < 10; round++) {
      try {
        await runner.drain();
        break;
      } catch (err) {
        thrown.push(err);
      }
    }
    expect(thrown).toHaveLength(4);
    expect(await deadLetters('transient')).toEqual([]);
    expect(await applied('transient')).toEqual([1, 2, 3]);
  });

  it('two instances on one database set each poison event aside once, and apply every other event once, in order', async () => {
    const values = Array.from({ length: 300 }, (_, i) => (i === 40 || i === 41 || i === 200 ? POISON + i : i));
    await append('test.two', values);
    const other = new Pool({ connectionString: db.url, max: 5 });
    other.on('error', () => undefined);
    pools.push(other);
    const letters: DeadLettered[] = [];
    for (const pool of [db.pool, other]) {
      // Small pages, so that the two take turns many times.
      const instanceStore = pool === db.pool ? store : new PostgresEventStore(pool);
      if (instanceStore !== store) stores.push(instanceStore);
      const runner = new ProcessorRunner(pool, instanceStore, countingProjection('two', 'test.two'), {
        batchSize: 16,
        maxAttempts: 3,
        onDeadLettered: (letter) => letters.push(letter),
      });
      runners.push(runner);
      runner.start();
    }
    const last = await lastPosition();
    await eventually(async () => expect(await checkpoint('two')).toEqual(last), 30_000, 50);
    await Promise.all(runners.splice(0).map((r) => r.stop()));

    expect(await applied('two')).toEqual(values.filter((n) => n < POISON));
    const rows = await deadLetters('two');
    expect(rows.map((r) => r.event_type)).toEqual(['test.two', 'test.two', 'test.two']);
    expect(new Set(rows.map((r) => r.event_id)).size).toBe(3);
    // Only committed dead letters are reported: one each, whichever instance wrote it.
    expect(letters.map((l) => l.id).sort()).toEqual(rows.map((r) => r.id).sort());
    for (const r of rows) expect(r.attempts).toBe(3);
  });
});

describe('The sessions projection and a signal out of range: dead letter, metric, operator list and retry', () => {
  let t: TestApp;
  let a: CreatedTenant;
  let b: CreatedTenant;
  const errorLog = jest.spyOn(Logger.prototype, 'error');

  beforeAll(async () => {
    // SIM_TIME_SCALE=1000 keeps the simulator's first step of a test call far away: the test drives
    // the sessions itself, with the commands the media ingest sends.
    t = await startTestApp({ env: { PROCESSOR_MAX_ATTEMPTS: '3', SIM_TIME_SCALE: '1000' } });
    a = await t.createTenant('Poisoned Co');
    b = await t.createTenant('Bystander Co');
  });
  afterAll(async () => {
    errorLog.mockRestore();
    await t?.close();
  });

  const place = async (tenant: CreatedTenant): Promise<string> => {
    const res = await t.asTenant(tenant.api_key, {
      method: 'POST',
      url: '/v1/calls',
      payload: { to: '+14155550100', from: '+14155550000', agent_config: { prompt: 'Be brief.' }, test_mode: true },
    });
    expect(res.statusCode).toBe(201);
    return res.json<{ session_id: string }>().session_id;
  };
  /** What the media ingest does with a signed signal once it has parsed it. */
  const signal = (tenant: CreatedTenant, sessionId: string, seq: number, s: MediaSignal) =>
    t.app
      .get(CommandBus)
      .execute(new SessionActionCommand(tenant.tenant_id, sessionId, { type: 'signal', seq, signal: s }));
  const overflowingHangup: MediaSignal = {
    kind: 'hangup',
    status: 'completed',
    end_reason: 'completed',
    duration_seconds: 3_000_000_000,
  };
  const session = async (tenant: CreatedTenant, id: string) => {
    const res = await t.asTenant(tenant.api_key, { method: 'GET', url: `/v1/sessions/${id}` });
    return { status: res.statusCode, body: res.json<{ status: string; ended_at: string | null }>() };
  };
  /** A session's status in the sessions read model (GET /v1/sessions/{id} falls back to the stream). */
  const listedStatus = async (tenant: CreatedTenant, id: string): Promise<string | undefined> => {
    const res = await t.asTenant(tenant.api_key, { method: 'GET', url: '/v1/sessions?limit=100' });
    expect(res.statusCode).toBe(200);
    return res.json<{ data: { session_id: string; status: string }[] }>().data.find((x) => x.session_id === id)?.status;
  };
  const list = async (query = '') => {
    const res = await t.admin({ method: 'GET', url: `/admin/v1/dead_letters${query}` });
    expect(res.statusCode).toBe(200);
    return res.json<{ data: (Record<string, unknown> & { id: string })[]; has_more: boolean }>();
  };
  const metric = async (series: string): Promise<number> => {
    const res = await t.admin({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    const line = res.body.split('\n').find((l) => l.startsWith(`${series} `));
    return line ? Number(line.slice(series.length + 1)) : NaN;
  };

  let s1: string;
  let s2: string;
  let s3: string;
  let first: string;
  let second: string;

  it('sets the overflowing session.ended aside after 3 tries; the events after it, of both tenants, are applied', async () => {
    s1 = await place(a);
    await eventually(async () => expect(await listedStatus(a, s1)).toBe('queued'));
    await signal(a, s1, 1, { kind: 'answered' });
    await eventually(async () => expect(await listedStatus(a, s1)).toBe('in_progress'));

    // Hold back what readers see (an open transaction with an id: the snapshot-xmin rule), so that the
    // poison event and the events after it reach the sessions projection in one page.
    const blocker = await t.db.pool.connect();
    try {
      await blocker.query('BEGIN');
      await blocker.query('SELECT pg_current_xact_id()');
      await signal(a, s1, 2, overflowingHangup);
      s2 = await place(b);
      s3 = await place(a);
      await signal(b, s2, 1, { kind: 'answered' });
      await blocker.query('COMMIT');
    } finally {
      blocker.release();
    }

    // The other tenant's read model is current, and so is this tenant's next call: the sessions
    // projection went past the poison event (before decision 23 it retried that page forever).
    await eventually(
      async () => {
        expect(await listedStatus(b, s2)).toBe('in_progress');
        expect(await listedStatus(a, s3)).toBe('queued');
      },
      15_000,
      50,
    );
    expect((await list()).data).toHaveLength(1);
    // The poisoned session missed its end in the sessions read model only: the audit read model
    // (GET …/events) has it.
    expect(await listedStatus(a, s1)).toBe('in_progress');
    const events = await t.asTenant(a.api_key, { method: 'GET', url: `/v1/sessions/${s1}/events` });
    expect(events.json<{ data: { type: string }[] }>().data.map((e) => e.type)).toContain('session.ended');

    const [letter] = (await list()).data;
    first = letter!.id;
    expect(letter).toMatchObject({
      id: expect.stringMatching(/^dl_[a-z0-9]{20}$/),
      processor: 'sessions',
      status: 'dead',
      event_id: expect.any(String),
      event_type: 'session.ended',
      stream_id: `session-${s1}`,
      stream_position: expect.any(Number),
      position: { commit: expect.stringMatching(/^\d+$/), prepare: expect.stringMatching(/^\d+$/) },
      tenant_id: a.tenant_id,
      error: '22003: value "3000000000" is out of range for type integer',
      attempts: 3,
      retried_at: null,
    });
    for (const k of ['first_failed_at', 'last_failed_at', 'created_at'])
      expect(letter![k]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    expect(await metric('processor_dead_letters_total{processor="sessions"}')).toBe(1);
    expect(await metric('processor_dead_letters_open{processor="sessions"}')).toBe(1);
    expect(await metric('processor_event_failures_total{processor="sessions"}')).toBe(3);
    expect(await metric('processor_dead_letters_open{processor="audit_events"}')).toBe(0);
    expect(
      errorLog.mock.calls.some(([message]) =>
        /^sessions set event \S+ \(session\.ended, stream session-\S+, tenant ten_\S+\) aside as dead letter dl_\S+ after 3 tries/.test(
          String(message),
        ),
      ),
    ).toBe(true);
  });

  it('GET /admin/v1/dead_letters: newest first, paginated, filtered by processor and status', async () => {
    await eventually(async () => expect(await listedStatus(a, s3)).toBe('queued'));
    await signal(a, s3, 1, { kind: 'answered' });
    await signal(a, s3, 2, overflowingHangup);
    await eventually(async () => expect((await list()).data).toHaveLength(2), 15_000, 50);
    const all = await list();
    second = all.data[0]!.id;
    expect(all).toMatchObject({ has_more: false, data: [{ stream_id: `session-${s3}` }, { id: first }] });

    const page1 = await list('?limit=1');
    expect(page1).toMatchObject({ has_more: true, data: [{ id: second }] });
    const page2 = await list(`?limit=1&starting_after=${second}`);
    expect(page2).toMatchObject({ has_more: false, data: [{ id: first }] });
    expect((await list('?processor=sessions')).data).toHaveLength(2);
    expect((await list('?processor=audit_events')).data).toEqual([]);
    expect((await list('?status=retried')).data).toEqual([]);
    const one = await t.admin({ method: 'GET', url: `/admin/v1/dead_letters/${first}` });
    expect(one.json()).toMatchObject({ id: first, status: 'dead' });

    for (const [query, status, param] of [
      ['?limit=0', 400, 'limit'],
      ['?limit=101', 400, 'limit'],
      ['?status=gone', 400, 'status'],
      ['?starting_after=dl_unknown', 404, 'starting_after'],
    ] as const) {
      const res = await t.admin({ method: 'GET', url: `/admin/v1/dead_letters${query}` });
      expect({ query, status: res.statusCode }).toEqual({ query, status });
      expect(res.json().error).toMatchObject({ param, request_id: expect.any(String) });
    }
    const anonymous = await t.inject({ method: 'GET', url: '/admin/v1/dead_letters' });
    expect(anonymous.statusCode).toBe(401);
    const asTenant = await t.asTenant(a.api_key, { method: 'GET', url: '/admin/v1/dead_letters' });
    expect(asTenant.statusCode).toBe(401);
  });

  it('a rebuild of the sessions read model skips the open dead letters instead of failing on them', async () => {
    const res = await t.admin({
      method: 'POST',
      url: '/admin/v1/projections/rebuild',
      payload: { projection: 'sessions' },
    });
    expect(res.statusCode).toBe(200);
    expect(await listedStatus(a, s1)).toBe('in_progress');
    expect(await listedStatus(b, s2)).toBe('in_progress');
  });

  it('POST …/retry: 422 with the error body while the cause remains; once fixed, applied and marked retried', async () => {
    const failed = await t.admin({ method: 'POST', url: `/admin/v1/dead_letters/${first}/retry` });
    expect(failed.statusCode).toBe(422);
    expect(failed.json()).toEqual({
      error: {
        type: 'unprocessable',
        message: expect.stringContaining('22003: value "3000000000" is out of range for type integer'),
        request_id: expect.any(String),
      },
    });
    expectNoLeak(failed.body);
    expect((await list('?processor=sessions')).data.find((d) => d.id === first)).toMatchObject({
      status: 'dead',
      attempts: 4,
    });
    expect(await listedStatus(a, s1)).toBe('in_progress');

    // The operator's fix: the column is widened (a migration would do it).
    await t.db.pool.query('ALTER TABLE sessions ALTER COLUMN duration_seconds TYPE bigint');

    const retried = await t.admin({ method: 'POST', url: `/admin/v1/dead_letters/${first}/retry` });
    expect(retried.statusCode).toBe(202);
    expect(retried.json()).toMatchObject({
      id: first,
      status: 'retried',
      attempts: 5,
      retried_at: expect.stringMatching(/Z$/),
    });
    const s1Now = await session(a, s1);
    expect(s1Now.body.status).toBe('completed');
    expect(s1Now.body.ended_at).not.toBeNull();

    const again = await t.admin({ method: 'POST', url: `/admin/v1/dead_letters/${first}/retry` });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toMatchObject({ type: 'conflict', request_id: expect.any(String) });
    const unknown = await t.admin({ method: 'POST', url: '/admin/v1/dead_letters/dl_unknown/retry' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toMatchObject({ type: 'not_found' });

    expect((await list('?status=retried')).data.map((d) => d.id)).toEqual([first]);
    expect((await list('?status=dead')).data.map((d) => d.id)).toEqual([second]);
    expect(await metric('processor_dead_letters_open{processor="sessions"}')).toBe(1);
    // The runner goes on with what came after: the other sessions are untouched and still current.
    expect(await listedStatus(b, s2)).toBe('in_progress');
  });
});
