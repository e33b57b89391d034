import type { Pool, PoolClient } from 'pg';
import { Position, START, StoredEvent } from '../event-store/event-store.port';
import { PostgresEventStore } from '../event-store/postgres/postgres-event-store';
import { ProcessorRunner } from '../infra/subscriptions/checkpointed-processor';
import type { Projection } from '../projections/projection';
import { BenchContext, checkpoint, formatRate, numberFromEnv, perSecond, timed } from './support';

/**
 * Replay throughput over a seeded history: how fast the whole log can be read in commit order,
 * and how fast a checkpointed processor gets through it (what a read-model rebuild costs).
 *
 *   read_all  PostgresEventStore.readAll paged through everything, batch READ_BATCH
 *   runner    ProcessorRunner.drain() with a projection that upserts one counter row per stream,
 *             one multi-row statement per batch, checkpoint in the same transaction
 */

const TARGET_EVENTS_PER_S = 50_000;
const READ_BATCH = 5000;
/** Events per stream in the seeded history. */
const STREAM_LENGTH = 20;

export async function replayBench(ctx: BenchContext): Promise<object> {
  const events = Math.round(numberFromEnv('BENCH_REPLAY_EVENTS', 200_000));
  const transactions = Math.max(1, Math.min(events, Math.round(numberFromEnv('BENCH_REPLAY_TRANSACTIONS', 200))));
  const runnerBatches = [READ_BATCH, 500];
  const pool = ctx.pool(4);

  const seed = await seedHistory(pool, events, transactions);
  ctx.log(
    `seeded ${events.toLocaleString('en-US')} events in ${transactions} transactions across ` +
      `${seed.streams.toLocaleString('en-US')} streams (${formatRate(seed.events_per_s)}, data ≈ ${seed.avg_data_bytes} bytes)`,
  );

  const readAll = await measureReadAll(pool, events);
  ctx.log(`read_all    batch ${READ_BATCH}: ${formatRate(readAll.events_per_s)} events (${readAll.seconds} s)`);
  ctx.check('replay_read_all_events_per_s', readAll.events_per_s, TARGET_EVENTS_PER_S);

  const runner: Record<string, ReplayMeasurement> = {};
  for (const batch of runnerBatches) {
    const result = await measureRunner(pool, events, seed.streams, batch);
    runner[`batch_${batch}`] = result;
    ctx.log(`runner      batch ${batch}: ${formatRate(result.events_per_s)} events (${result.seconds} s)`);
  }
  ctx.check('replay_runner_events_per_s', runner[`batch_${READ_BATCH}`]?.events_per_s ?? 0, TARGET_EVENTS_PER_S);

  return { seed, read_all: readAll, runner };
}

// ---------------------------------------------------------------------------------------------
// Seeding
// ---------------------------------------------------------------------------------------------

interface SeedResult {
  events: number;
  transactions: number;
  streams: number;
  seconds: number;
  events_per_s: number;
  avg_data_bytes: number;
  avg_metadata_bytes: number;
  table_bytes: number;
}

/**
 * Session events spread round-robin over `events / STREAM_LENGTH` streams, so each stream's events
 * are scattered over the history as in real traffic. Each INSERT … SELECT is its own transaction:
 * the events of one share a transaction_id, as events appended together would.
 */
const SEED_SQL = `
INSERT INTO events (stream_id, stream_position, event_id, type, data, metadata)
SELECT
  'session-ses_' || lpad((i % $3::int)::text, 20, '0'),
  i / $3::int,
  gen_random_uuid(),
  (ARRAY['session.created', 'session.ringing', 'session.answered', 'session.transcript_updated', 'session.ended'])[1 + (i / $3::int) % 5],
  jsonb_build_object(
    'session_id', 'ses_' || lpad((i % $3::int)::text, 20, '0'),
    'tenant_id', 'ten_' || lpad((i % 97)::text, 20, '0'),
    'agent_id', 'agt_' || lpad((i % 1013)::text, 20, '0'),
    'direction', CASE WHEN i % 3 = 0 THEN 'inbound' ELSE 'outbound' END,
    'from', '+1415555' || lpad((i % 10000)::text, 4, '0'),
    'to', '+4420718' || lpad((i % 100000)::text, 5, '0'),
    'status', 'in_progress',
    'sequence', i / $3::int,
    'duration_ms', (i % 600000),
    'cost_cents', (i % 900),
    'campaign_id', 'cmp_' || lpad((i % 31)::text, 20, '0'),
    'occurred_at', to_char(timestamp '2025-01-01' + i * interval '10 ms', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'reason', NULL),
  jsonb_build_object(
    'tenant_id', 'ten_' || lpad((i % 97)::text, 20, '0'),
    'created_at', to_char(timestamp '2025-01-01' + i * interval '10 ms', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'correlation_id', 'req_' || left(md5(i::text), 20),
    'causation_id', 'cmd_' || left(md5((i + 1)::text), 20))
FROM generate_series($1::int, $2::int) AS i`;

async function seedHistory(pool: Pool, events: number, transactions: number): Promise<SeedResult> {
  const streams = Math.max(1, Math.round(events / STREAM_LENGTH));
  const { ms } = await timed(async () => {
    for (let t = 0; t < transactions; t++) {
      const from = Math.floor((events * t) / transactions);
      const to = Math.floor((events * (t + 1)) / transactions) - 1;
      if (to >= from) await pool.query(SEED_SQL, [from, to, streams]);
    }
  });
  // What autovacuum would have done on a live system; also warms the cache for every measurement alike.
  await pool.query('VACUUM (ANALYZE) events');
  await checkpoint(pool);
  const { rows } = await pool.query<{ data: string; metadata: string; table_bytes: string }>(
    `SELECT round(avg(length(data::text))) AS data, round(avg(length(metadata::text))) AS metadata,
            pg_total_relation_size('events') AS table_bytes FROM events`,
  );
  const stats = rows[0];
  return {
    events,
    transactions,
    streams,
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
}

async function measureReadAll(pool: Pool, expected: number): Promise<ReplayMeasurement> {
  const store = new PostgresEventStore(pool);
  try {
    const { result: count, ms } = await timed(async () => {
      let after: Position = START;
      let total = 0;
      for (;;) {
        const page = await store.readAll(after, READ_BATCH);
        const last = page[page.length - 1];
        if (!last) return total;
        total += page.length;
        after = last.position;
      }
    });
    if (count !== expected) throw new Error(`readAll returned ${count} events, ${expected} were seeded`);
    return { events: count, batch: READ_BATCH, seconds: Math.round(ms) / 1000, events_per_s: perSecond(count, ms) };
  } finally {
    await store.close();
  }
}

async function measureRunner(pool: Pool, expected: number, streams: number, batch: number): Promise<ReplayMeasurement> {
  await pool.query(
    `CREATE TABLE IF NOT EXISTS bench_stream_counters (
       stream_id text PRIMARY KEY, events integer NOT NULL, last_position integer NOT NULL)`,
  );
  await pool.query('TRUNCATE bench_stream_counters');
  await checkpoint(pool);
  const store = new PostgresEventStore(pool);
  const runner = new ProcessorRunner(pool, store, streamCounterProjection(`bench_counter_${batch}`), { batchSize: batch });
  try {
    const { result: count, ms } = await timed(() => runner.drain());
    if (count !== expected) throw new Error(`runner processed ${count} events, ${expected} were seeded`);
    await verifyCounters(pool, expected, streams);
    return { events: count, batch, seconds: Math.round(ms) / 1000, events_per_s: perSecond(count, ms) };
  } finally {
    await store.close();
  }
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
        [[...perStream.keys()], [...perStream.values()].map((r) => r.events), [...perStream.values()].map((r) => r.last)],
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
    throw new Error(`counters hold ${got?.events} events over ${got?.rows} streams, expected ${expected} over ${streams}`);
  }
}
