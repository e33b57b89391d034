import { randomBytes } from 'node:crypto';
import type { Pool } from 'pg';
import type { ExpectedVersion, NewEvent } from '../src/event-store/event-store.port';
import { PostgresEventStore } from '../src/event-store/postgres/postgres-event-store';
import { newEventId } from '../src/kernel/ids';
import {
  BenchContext,
  checkpoint,
  formatRate,
  LoadResult,
  loadResult,
  LoadSample,
  numberFromEnv,
  round2,
  runLoad,
} from './support';

/**
 * Append throughput of the event store against the floor it can hope for: a plain single-row
 * INSERT into a table with the same columns and the same uniqueness guarantees. One event per
 * append (what a command handler usually produces), each client writing to its own streams.
 *
 *   insert              plain_events: bigserial pk, unique event id, unique (stream, position)
 *   insert_same_indexes plain_events_indexed: additionally the events table's xid8 default and its
 *                       two secondary indexes, to tell index cost from statement cost
 *   append_expected     PostgresEventStore.append(stream, [event], <current version>)
 *   append_any          PostgresEventStore.append(stream, [event], 'any')
 */

const TARGET_RATIO = 0.7;
/** Events per stream before a client moves on to a new stream (a session has a few dozen). */
const STREAM_LENGTH = 20;
/** Streams each client keeps open at once and writes to in turn. */
const STREAMS_PER_CLIENT = 8;

const MODES = ['insert', 'insert_same_indexes', 'append_expected', 'append_any'] as const;
type Mode = (typeof MODES)[number];

const PLAIN_TABLES_SQL = `
CREATE TABLE plain_events (
  global_position bigserial PRIMARY KEY,
  stream_id text NOT NULL,
  stream_position integer NOT NULL,
  event_id uuid NOT NULL UNIQUE,
  type text NOT NULL,
  data jsonb NOT NULL,
  metadata jsonb NOT NULL,
  UNIQUE (stream_id, stream_position)
);
CREATE TABLE plain_events_indexed (
  global_position bigserial PRIMARY KEY,
  transaction_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
  stream_id text NOT NULL,
  stream_position integer NOT NULL,
  event_id uuid NOT NULL UNIQUE,
  type text NOT NULL,
  data jsonb NOT NULL,
  metadata jsonb NOT NULL,
  UNIQUE (stream_id, stream_position)
);
CREATE INDEX ON plain_events_indexed (transaction_id, global_position);
CREATE INDEX ON plain_events_indexed ((metadata->>'tenant_id'), type);
`;

export async function appendVsInsertBench(ctx: BenchContext): Promise<object> {
  const clientCounts = clientsFromEnv();
  const rounds = Math.max(1, Math.round(numberFromEnv('BENCH_ROUNDS', 5)));
  const setup = ctx.pool(1);
  await setup.query(PLAIN_TABLES_SQL);

  const byClients: Record<string, Record<Mode, LoadResult> & { ratio_expected: number; ratio_any: number }> = {};
  for (const clients of clientCounts) {
    await resetTables(setup);
    const results = await measureModes(ctx, clients, rounds);
    for (const mode of MODES) ctx.log(describe(mode, results[mode]));
    const ratioExpected = ratio(results.append_expected, results.insert);
    const ratioAny = ratio(results.append_any, results.insert);
    ctx.log(`clients=${clients}: append/insert = ${ratioExpected} (expected version), ${ratioAny} (any)`);
    ctx.check(`append_ratio_c${clients}`, ratioExpected, TARGET_RATIO);
    byClients[String(clients)] = { ...results, ratio_expected: ratioExpected, ratio_any: ratioAny };
  }
  return {
    settings: {
      seconds: ctx.seconds,
      warmup_seconds: ctx.warmupSeconds,
      rounds,
      clients: clientCounts,
      stream_length: STREAM_LENGTH,
      streams_per_client: STREAMS_PER_CLIENT,
      event_data_bytes: JSON.stringify(sampleEvent('x', 0).data).length,
      event_metadata_bytes: JSON.stringify(sampleEvent('x', 0).metadata).length,
    },
    by_clients: byClients,
  };
}

function clientsFromEnv(): number[] {
  const raw = process.env.BENCH_CLIENTS ?? '1,16';
  const list = raw.split(',').map((s) => Number(s.trim()));
  if (list.some((n) => !Number.isInteger(n) || n < 1))
    throw new Error(`BENCH_CLIENTS must list positive integers, got "${raw}"`);
  return list;
}

async function resetTables(pool: Pool): Promise<void> {
  await pool.query('TRUNCATE events, plain_events, plain_events_indexed RESTART IDENTITY');
  await checkpoint(pool);
}

interface Phase {
  readonly mode: Mode;
  readonly op: (client: number) => Promise<void>;
  close(): Promise<void>;
}

/**
 * Each mode warms up once, then the modes take turns in `rounds` slices of seconds/rounds each, so
 * that whatever else the machine does at the time weighs on all of them alike.
 */
async function measureModes(ctx: BenchContext, clients: number, rounds: number): Promise<Record<Mode, LoadResult>> {
  const phases = MODES.map((mode) => openPhase(ctx, mode, clients));
  const samples = new Map<Mode, LoadSample[]>(MODES.map((m) => [m, []]));
  const slice = (phase: Phase, ms: number): Promise<LoadSample> =>
    runLoad({ clients, warmupMs: 0, durationMs: ms, op: phase.op });
  try {
    for (const phase of phases) await slice(phase, ctx.warmupSeconds * 1000);
    for (let round = 0; round < rounds; round++) {
      for (const phase of phases) samples.get(phase.mode)?.push(await slice(phase, (ctx.seconds * 1000) / rounds));
    }
  } finally {
    for (const phase of phases) await phase.close();
  }
  return Object.fromEntries(MODES.map((m) => [m, loadResult(samples.get(m) ?? [])])) as Record<Mode, LoadResult>;
}

/** A pool of `clients` connections (the store shares it, as in the service) and one StreamWriter per client. */
function openPhase(ctx: BenchContext, mode: Mode, clients: number): Phase {
  const pool = ctx.pool(clients);
  const store = new PostgresEventStore(pool);
  const writers = Array.from({ length: clients }, () => new StreamWriter());
  const op = operation(mode, pool, store);
  return {
    mode,
    op: (client) => op(writers[client] as StreamWriter),
    close: async () => {
      await store.close();
      await pool.end();
    },
  };
}

function operation(mode: Mode, pool: Pool, store: PostgresEventStore): (writer: StreamWriter) => Promise<void> {
  switch (mode) {
    case 'insert':
      return (w) => w.write((stream, position) => insertPlain(pool, 'plain_events', stream, position));
    case 'insert_same_indexes':
      return (w) => w.write((stream, position) => insertPlain(pool, 'plain_events_indexed', stream, position));
    case 'append_expected':
      return (w) => w.write((stream, position) => appendOne(store, stream, position, expectedFor(position)));
    case 'append_any':
      return (w) => w.write((stream, position) => appendOne(store, stream, position, 'any'));
  }
}

function expectedFor(position: number): ExpectedVersion {
  return position === 0 ? 'no_stream' : position - 1;
}

async function appendOne(
  store: PostgresEventStore,
  stream: string,
  position: number,
  expected: ExpectedVersion,
): Promise<void> {
  const result = await store.append(stream, [sampleEvent(stream, position)], expected);
  if (result.nextExpectedVersion !== position) {
    throw new Error(`append to ${stream} landed at ${result.nextExpectedVersion}, expected ${position}`);
  }
}

async function insertPlain(pool: Pool, table: string, stream: string, position: number): Promise<void> {
  const e = sampleEvent(stream, position);
  await pool.query(
    `INSERT INTO ${table} (stream_id, stream_position, event_id, type, data, metadata) VALUES ($1, $2, $3, $4, $5, $6)`,
    [stream, position, e.id, e.type, JSON.stringify(e.data), JSON.stringify(e.metadata)],
  );
}

/** One client's streams: writes to each in turn, knows each one's next position, and replaces a
 *  stream by a new one once it has STREAM_LENGTH events. */
class StreamWriter {
  private readonly streams: { id: string; next: number }[] = Array.from({ length: STREAMS_PER_CLIENT }, newStream);
  private turn = 0;

  async write(fn: (stream: string, position: number) => Promise<void>): Promise<void> {
    const index = this.turn++ % this.streams.length;
    const stream = this.streams[index] as { id: string; next: number };
    await fn(stream.id, stream.next);
    stream.next++;
    if (stream.next >= STREAM_LENGTH) this.streams[index] = newStream();
  }
}

function newStream(): { id: string; next: number } {
  return { id: `session-ses_${randomBytes(10).toString('hex')}`, next: 0 };
}

const TYPES = ['session.created', 'session.ringing', 'session.answered', 'session.transcript_updated', 'session.ended'];

/** A session event of about 300 bytes of data, with the metadata every stored event carries. */
export function sampleEvent(stream: string, position: number): NewEvent {
  const now = new Date().toISOString();
  return {
    id: newEventId(),
    type: TYPES[position % TYPES.length] as string,
    data: {
      session_id: stream.slice('session-'.length),
      tenant_id: 'ten_4k2m9x0q7r3s8t1v5w6y',
      agent_id: 'agt_0p9o8i7u6y5t4r3e2w1q',
      direction: 'outbound',
      from: '+14155550123',
      to: '+442071838750',
      status: 'in_progress',
      sequence: position,
      duration_ms: position * 1375,
      cost_cents: position * 3,
      campaign_id: 'cmp_z8x7c6v5b4n3m2l1k0j9',
      occurred_at: now,
      reason: null,
    },
    metadata: {
      tenant_id: 'ten_4k2m9x0q7r3s8t1v5w6y',
      created_at: now,
      correlation_id: 'req_0a1b2c3d4e5f6a7b8c9d',
      causation_id: 'cmd_9f8e7d6c5b4a3f2e1d0c',
    },
  };
}

function ratio(a: LoadResult, b: LoadResult): number {
  return b.ops_per_s > 0 ? round2(a.ops_per_s / b.ops_per_s) : 0;
}

function describe(mode: Mode, r: LoadResult): string {
  const errors = r.errors > 0 ? `, ${r.errors} errors` : '';
  return (
    `clients=${String(r.clients).padStart(2)} ${mode.padEnd(19)} ${formatRate(r.ops_per_s).padStart(10)} events` +
    `  p50 ${r.latency_ms.p50} ms  p99 ${r.latency_ms.p99} ms${errors}`
  );
}
