import type { Pool, PoolClient } from 'pg';
import { Position, START, StoredEvent } from '../src/event-store/event-store.port';
import { PostgresEventStore } from '../src/event-store/postgres/postgres-event-store';
import { ProcessorRunner } from '../src/runtime/processing/processor-runner';
import type { Projection } from '../src/runtime/processing/processor';
import { cpuMeter, type CpuSpent } from './probes';
import { BenchContext, checkpoint, formatRate, numberFromEnv, perSecond, timed } from './support';

/**
 * Replay throughput over a seeded history: how fast the whole log can be read in commit order,
 * and how fast a checkpointed processor gets through it (what a read-model rebuild costs).
 *
 *   read_all            PostgresEventStore.readAll paged through everything, batch READ_BATCH
 *   read_pages          PostgresEventStore.readPages, READ_DEPTH pages of READ_BATCH built at once on
 *                       as many connections, one set after another (no read-ahead): what the runner reads with
 *   runner.counter_*    ProcessorRunner.drain() (pages read READ_DEPTH at a time and ahead) with a projection that upserts one counter row per
 *                       stream, one multi-row statement per batch, checkpoint in the same transaction
 *   runner.noop_*       the same runner with a projection that writes nothing: the runner's own cost
 *   runner.reads_data_* writes nothing but reads every event's `data` and `metadata` (parsed when first
 *                       read, decision 175): what a projection that looks into every event adds
 *
 * Each also gives the CPU it cost per event, of this process and of the PostgreSQL cluster: on a
 * machine shared with other work these are steadier than the rates.
 */

const TARGET_EVENTS_PER_S = 100_000;
const READ_BATCH = 5000;
const READ_DEPTH = 2;
/** Events per stream in the seeded history. */
const STREAM_LENGTH = 20;

type ProjectionKind = 'counter' | 'noop' | 'reads_data';
const RUNNER_RUNS: readonly { kind: ProjectionKind; batch: number }[] = [
  { kind: 'counter', batch: READ_BATCH },
  { kind: 'counter', batch: 500 },
  { kind: 'noop', batch: READ_BATCH },
  { kind: 'reads_data', batch: READ_BATCH },
];

export async function replayBench(ctx: BenchContext): Promise<object> {
  const events = Math.round(numberFromEnv('BENCH_REPLAY_EVENTS', 200_000));
  const transactions = Math.max(1, Math.min(events, Math.round(numberFromEnv('BENCH_REPLAY_TRANSACTIONS', 200))));
  const active = Math.max(1, Math.round(numberFromEnv('BENCH_REPLAY_ACTIVE_STREAMS', 500)));
  const pool = ctx.pool(4);

  const seed = await seedHistory(pool, events, transactions, active);
  ctx.log(
    `seeded ${events.toLocaleString('en-US')} events in ${transactions} transactions, ` +
      `${seed.streams.toLocaleString('en-US')} streams (${active} active at a time), ` +
      `data ≈ ${seed.avg_data_bytes} B, metadata ≈ ${seed.avg_metadata_bytes} B (${formatRate(seed.events_per_s)})`,
  );

  const readAll = await measureReadAll(pool, events);
  ctx.log(
    `read_all           batch ${READ_BATCH}: ${formatRate(readAll.events_per_s).padStart(10)} events (${readAll.seconds} s)${describeCpu(readAll)}`,
  );
  ctx.check('replay_read_all_events_per_s', readAll.events_per_s, TARGET_EVENTS_PER_S);
  const readPages = await measureReadAll(pool, events, READ_DEPTH);
  ctx.log(
    `read_pages         batch ${READ_BATCH} × ${READ_DEPTH}: ${formatRate(readPages.events_per_s).padStart(6)} events (${readPages.seconds} s)${describeCpu(readPages)}`,
  );

  const runner: Record<string, ReplayMeasurement> = {};
  for (const { kind, batch } of RUNNER_RUNS) {
    const result = await measureRunner(pool, kind, batch, { events, streams: seed.streams });
    runner[`${kind}_batch_${batch}`] = result;
    ctx.log(
      `runner ${kind.padEnd(10)}  batch ${String(batch).padEnd(4)}: ${formatRate(result.events_per_s).padStart(10)} events (${result.seconds} s)${describeCpu(result)}`,
    );
  }
  ctx.check(
    'replay_runner_events_per_s',
    runner[`counter_batch_${READ_BATCH}`]?.events_per_s ?? 0,
    TARGET_EVENTS_PER_S,
  );

  return { seed, read_all: readAll, read_pages: { ...readPages, depth: READ_DEPTH }, runner };
}

// ---------------------------------------------------------------------------------------------
// Seeding
// ---------------------------------------------------------------------------------------------

interface SeedResult {
  events: number;
  transactions: number;
  streams: number;
  active_streams: number;
  seconds: number;
  events_per_s: number;
  avg_data_bytes: number;
  avg_metadata_bytes: number;
  table_bytes: number;
}

/**
 * Session streams of STREAM_LENGTH events, `active` of them in progress at any time and their
 * events interleaved, as concurrent calls produce them; then the next `active` sessions, and so on.
 * Each INSERT … SELECT is its own transaction: its events share a transaction_id, as events
 * appended together would. Params: $1..$2 event numbers, $3 active streams, $4 stream length.
 */
const SEED_SQL = `
INSERT INTO events (stream_id, stream_position, event_id, type, data, metadata)
SELECT
  'session-ses_' || lpad(k.s::text, 20, '0'),
  k.p,
  gen_random_uuid(),
  (ARRAY['session.created', 'session.ringing', 'session.answered', 'session.transcript_updated', 'session.ended'])[1 + k.p % 5],
  jsonb_build_object(
    'session_id', 'ses_' || lpad(k.s::text, 20, '0'),
    'tenant_id', 'ten_' || lpad((k.s % 97)::text, 20, '0'),
    'agent_id', 'agt_' || lpad((k.s % 1013)::text, 20, '0'),
    'direction', CASE WHEN k.s % 3 = 0 THEN 'inbound' ELSE 'outbound' END,
    'from', '+1415555' || lpad((k.s % 10000)::text, 4, '0'),
    'to', '+4420718' || lpad((k.s % 100000)::text, 5, '0'),
    'status', 'in_progress',
    'sequence', k.p,
    'duration_ms', k.p * 1375,
    'cost_cents', k.p * 3,
    'campaign_id', 'cmp_' || lpad((k.s % 31)::text, 20, '0'),
    'occurred_at', to_char(timestamp '2025-01-01' + i * interval '10 ms', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'reason', NULL),
  jsonb_build_object(
    'tenant_id', 'ten_' || lpad((k.s % 97)::text, 20, '0'),
    'created_at', to_char(timestamp '2025-01-01' + i * interval '10 ms', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'correlation_id', 'req_' || left(md5(i::text), 20),
    'causation_id', 'cmd_' || left(md5((i + 1)::text), 20))
FROM generate_series($1::int, $2::int) AS i,
  LATERAL (SELECT (i / ($3::int * $4::int)) * $3::int + i % $3::int AS s, (i % ($3::int * $4::int)) / $3::int AS p) AS k`;

async function seedHistory(pool: Pool, events: number, transactions: number, active: number): Promise<SeedResult> {
  const { ms } = await timed(async () => {
    for (let t = 0; t < transactions; t++) {
      const from = Math.floor((events * t) / transactions);
      const to = Math.floor((events * (t + 1)) / transactions) - 1;
      if (to >= from) await pool.query(SEED_SQL, [from, to, active, STREAM_LENGTH]);
    }
  });
  // What autovacuum would have done on a live system; also warms the cache for every measurement alike.
  await pool.query('VACUUM (ANALYZE) events');
  await checkpoint(pool);
  const { rows } = await pool.query<{ streams: string; data: string; metadata: string; table_bytes: string }>(
    `SELECT count(DISTINCT stream_id) AS streams, round(avg(length(data::text))) AS data,
            round(avg(length(metadata::text))) AS metadata, pg_total_relation_size('events') AS table_bytes
     FROM events`,
  );
  const stats = rows[0];
  return {
    events,
    transactions,
    streams: Number(stats?.streams ?? 0),
    active_streams: active,
    seconds: Math.round(ms) / 1000,
    events_per_s: perSecond(events, ms),
    avg_data_bytes: Number(stats?.data ?? 0),
    avg_metadata_bytes: Number(stats?.metadata ?? 0),
    table_bytes: Number(stats?.table_bytes ?? 0),
  };
}

// ---------------------------------------------------------------------------------------------
// Measurements
// ---------------------------------------------------------------------------------------------

interface ReplayMeasurement {
  events: number;
  batch: number;
  seconds: number;
  events_per_s: number;
  node_cpu_us_per_event: number;
  /** Null when PostgreSQL does not run on this machine. */
  postgres_cpu_us_per_event: number | null;
}

/** The measurement of `count` events in `ms`, with the CPU the meter counted. */
function measurement(count: number, batch: number, ms: number, cpu: CpuSpent): ReplayMeasurement {
  const perEvent = (cpuMs: number): number => Math.round((cpuMs * 10_000) / Math.max(1, count)) / 10;
  return {
    events: count,
    batch,
    seconds: Math.round(ms) / 1000,
    events_per_s: perSecond(count, ms),
    node_cpu_us_per_event: perEvent(cpu.node_ms),
    postgres_cpu_us_per_event: cpu.postgres_ms === null ? null : perEvent(cpu.postgres_ms),
  };
}

/** `  CPU per event: Node 9.1 µs, PostgreSQL 12.0 µs` */
function describeCpu(m: ReplayMeasurement): string {
  const pg = m.postgres_cpu_us_per_event === null ? 'n/a' : `${m.postgres_cpu_us_per_event} µs`;
  return `  CPU per event: Node ${m.node_cpu_us_per_event} µs, PostgreSQL ${pg}`;
}

async function measureReadAll(pool: Pool, expected: number, depth = 1): Promise<ReplayMeasurement> {
  const store = new PostgresEventStore(pool);
  try {
    const cpu = await cpuMeter(pool);
    const { result: count, ms } = await timed(async () => {
      let after: Position = START;
      let total = 0;
      for (;;) {
        const pages =
          depth > 1 ? await store.readPages(after, READ_BATCH, depth) : [await store.readPage(after, READ_BATCH)];
        for (const { events: page } of pages) {
          const last = page[page.length - 1];
          if (!last) return total;
          total += page.length;
          after = last.position;
        }
      }
    });
    const spent = cpu();
    if (count !== expected) throw new Error(`readAll returned ${count} events, ${expected} were seeded`);
    return measurement(count, READ_BATCH, ms, spent);
  } finally {
    await store.close();
  }
}

async function measureRunner(
  pool: Pool,
  kind: ProjectionKind,
  batch: number,
  seeded: { events: number; streams: number },
): Promise<ReplayMeasurement> {
  await pool.query(
    `CREATE TABLE IF NOT EXISTS bench_stream_counters (
       stream_id text PRIMARY KEY, events integer NOT NULL, last_position integer NOT NULL)`,
  );
  await pool.query('TRUNCATE bench_stream_counters');
  await checkpoint(pool);
  const name = `bench_${kind}_${batch}`;
  const projection =
    kind === 'counter'
      ? streamCounterProjection(name)
      : kind === 'reads_data'
        ? dataReadingProjection(name)
        : noopProjection(name);
  const store = new PostgresEventStore(pool);
  const runner = new ProcessorRunner(pool, store, projection, { batchSize: batch });
  try {
    const cpu = await cpuMeter(pool);
    const { result: count, ms } = await timed(() => runner.drain());
    const spent = cpu();
    if (count !== seeded.events) throw new Error(`runner processed ${count} events, ${seeded.events} were seeded`);
    if (kind === 'counter') await verifyCounters(pool, seeded.events, seeded.streams);
    return measurement(count, batch, ms, spent);
  } finally {
    await store.close();
  }
}

function noopProjection(name: string): Projection {
  return { name, handles: '*', tables: [], handle: () => Promise.resolve() };
}

/** Reads every event's data and metadata and writes nothing (throws if a field is missing). */
function dataReadingProjection(name: string): Projection {
  return {
    name,
    handles: '*',
    tables: [],
    handle(_tx: PoolClient, events: readonly StoredEvent[]): Promise<void> {
      for (const e of events) {
        if (typeof e.data.sequence !== 'number' || !e.metadata.tenant_id)
          throw new Error(`event ${e.id} lacks its data`);
      }
      return Promise.resolve();
    },
  };
}

/** Counts events per stream: aggregates the batch in memory, then one multi-row upsert. */
function streamCounterProjection(name: string): Projection {
  return {
    name,
    handles: '*',
    tables: ['bench_stream_counters'],
    async handle(tx: PoolClient, events: readonly StoredEvent[]): Promise<void> {
      const perStream = new Map<string, { events: number; last: number }>();
      for (const e of events) {
        const row = perStream.get(e.streamId) ?? { events: 0, last: -1 };
        row.events++;
        row.last = Math.max(row.last, e.streamPosition);
        perStream.set(e.streamId, row);
      }
      await tx.query(
        `INSERT INTO bench_stream_counters (stream_id, events, last_position)
         SELECT * FROM unnest($1::text[], $2::int[], $3::int[])
         ON CONFLICT (stream_id) DO UPDATE
           SET events = bench_stream_counters.events + excluded.events,
               last_position = greatest(bench_stream_counters.last_position, excluded.last_position)`,
        [
          [...perStream.keys()],
          [...perStream.values()].map((r) => r.events),
          [...perStream.values()].map((r) => r.last),
        ],
      );
    },
  };
}

async function verifyCounters(pool: Pool, expected: number, streams: number): Promise<void> {
  const { rows } = await pool.query<{ rows: string; events: string }>(
    'SELECT count(*) AS rows, coalesce(sum(events), 0) AS events FROM bench_stream_counters',
  );
  const got = rows[0];
  if (Number(got?.rows) !== streams || Number(got?.events) !== expected) {
    throw new Error(
      `counters hold ${got?.events} events over ${got?.rows} streams, expected ${expected} over ${streams}`,
    );
  }
}
