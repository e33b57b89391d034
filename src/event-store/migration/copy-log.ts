import type { Pool } from 'pg';
import { EventStore, ExpectedVersion, NewEvent, pageEnd, Position, START, StoredEvent } from '../event-store.port';

/**
 * Copying one store's log into another (PostgreSQL to KurrentDB: `npm run events:migrate-to-kurrentdb`,
 * docs/kurrentdb.md), through the port on both sides:
 *
 * - in commit order: the source is read page after page as every processor reads it, and each run of
 *   events of one stream is appended before the next run starts, so the target's $all has the
 *   source's order (the outbox and the projections depend on it);
 * - preserving ids, types, data and metadata; each append expects the revision before its first
 *   event (`no_stream` for revision 0), so a stream whose revisions have a gap stops the copy;
 * - resumable: the position of the last event the target acknowledged is saved after each page
 *   (`event_log_copies`); a copy started again goes on from there. A page whose acknowledgement was
 *   lost is sent again and stores nothing twice: the same ids at the same expected revision are a
 *   retry to both stores (decision 50). On a cluster the resend may time out instead (the server
 *   drops its reply while it cannot yet tell the first write is stored: `IdempotentNotReady`); the
 *   operator runs the copy again;
 * - in appends the target can take: a run of one stream is split before it passes `maxAppendBytes`
 *   of serialized events (KurrentDB refuses an append over its MaxAppendSize, 1 MiB by default).
 */

export interface CopyProgress {
  /** Where the copy is in the source's log: every event up to it is in the target. */
  readonly position: Position;
  /** Events appended to the target by this run. */
  readonly copied: number;
}

export interface CopyOptions {
  /** Source events per page. Default 1,000. */
  readonly batchSize?: number;
  /** Where to start in the source's log (exclusive). Default: the start. */
  readonly from?: Position;
  /** After each page the target acknowledged, before the next is read: where to save the progress. */
  readonly onPage?: (progress: CopyProgress) => Promise<void>;
  /** How long to wait when the source says committed events are not readable yet. Default 50 ms. */
  readonly hiddenWaitMs?: number;
  /**
   * At most this many bytes of serialized events per append (ids, types, data and metadata as JSON),
   * under the target's maximum append size (KurrentDB's MaxAppendSize: 1 MiB by default). An event
   * larger than this alone is sent alone. Default 512 KiB.
   */
  readonly maxAppendBytes?: number;
}

export const DEFAULT_MAX_APPEND_BYTES = 512 * 1024;

/** Copies every event after `options.from` from `source` to `target`, in commit order; returns where it ended. */
export async function copyLog(
  source: EventStore,
  target: EventStore,
  options: CopyOptions = {},
): Promise<CopyProgress> {
  const batchSize = options.batchSize ?? 1000;
  let position = options.from ?? START;
  let copied = 0;
  for (;;) {
    const page = await source.readPage(position, batchSize);
    if (page.events.length === 0) {
      // events behind a transaction still running: the copy of a live source waits for them
      if (!page.hidden) return { position: pageEnd(position, page), copied };
      await new Promise((resolve) => setTimeout(resolve, options.hiddenWaitMs ?? 50));
      continue;
    }
    for (const run of runsOfOneStream(page.events, options.maxAppendBytes ?? DEFAULT_MAX_APPEND_BYTES)) {
      const first = run[0] as StoredEvent;
      await target.append(first.streamId, run.map(asNew), expectedBefore(first));
    }
    copied += page.events.length;
    position = pageEnd(position, page);
    await options.onPage?.({ position, copied });
  }
}

/**
 * The events split where the stream changes (or its revisions do not follow), and where a run would
 * pass `maxBytes` of serialized events: each run is one append the target can take.
 */
export function runsOfOneStream(
  events: readonly StoredEvent[],
  maxBytes: number = DEFAULT_MAX_APPEND_BYTES,
): StoredEvent[][] {
  const runs: StoredEvent[][] = [];
  let run: StoredEvent[] = [];
  let bytes = 0;
  for (const event of events) {
    const last = run[run.length - 1];
    const size = serializedBytes(event);
    if (
      last &&
      (last.streamId !== event.streamId || last.streamPosition + 1 !== event.streamPosition || bytes + size > maxBytes)
    ) {
      runs.push(run);
      run = [];
      bytes = 0;
    }
    run.push(event);
    bytes += size;
  }
  if (run.length > 0) runs.push(run);
  return runs;
}

/** An event's size as an append carries it: its id, type, and data and metadata as JSON (UTF-8). */
export function serializedBytes(event: NewEvent): number {
  return (
    Buffer.byteLength(event.id) +
    Buffer.byteLength(event.type) +
    Buffer.byteLength(JSON.stringify(event.data)) +
    Buffer.byteLength(JSON.stringify(event.metadata))
  );
}

/** What an append of `event` (and those after it in its run) expects of the target stream. */
export function expectedBefore(event: StoredEvent): ExpectedVersion {
  return event.streamPosition === 0 ? 'no_stream' : event.streamPosition - 1;
}

function asNew(event: StoredEvent): NewEvent {
  return { id: event.id, type: event.type, data: event.data, metadata: event.metadata };
}

/** The saved progress of the copy into `target` (an `EventStore.identity` or a label), START when none. */
export async function loadCopyPosition(pool: Pool, target: string): Promise<Position> {
  const { rows } = await pool.query<{ commit_position: string; prepare_position: string }>(
    'SELECT commit_position, prepare_position FROM event_log_copies WHERE target = $1',
    [target],
  );
  const row = rows[0];
  return row ? { commit: BigInt(row.commit_position), prepare: BigInt(row.prepare_position) } : START;
}

export async function saveCopyPosition(pool: Pool, target: string, progress: CopyProgress): Promise<void> {
  await pool.query(
    `INSERT INTO event_log_copies (target, commit_position, prepare_position, copied) VALUES ($1, $2, $3, $4)
     ON CONFLICT (target) DO UPDATE SET commit_position = EXCLUDED.commit_position,
       prepare_position = EXCLUDED.prepare_position, copied = event_log_copies.copied + $4, updated_at = now()`,
    [target, progress.position.commit.toString(), progress.position.prepare.toString(), progress.copied],
  );
}

/**
 * Moves every processor checkpoint written against `source`'s log (PostgreSQL, whose events are in
 * `pool`), or recorded before checkpoints named their store, to the same place in `target`'s:
 * the position there of the last event at or before it in the source (START when there is none).
 * Run once the copy is complete and no instance runs: the checkpoints then say, in the target's
 * positions, exactly what every processor has applied, and the platform goes on where it stopped
 * (no webhook sent twice, no read model rebuilt). Returns the checkpoints moved.
 */
export async function moveCheckpoints(
  pool: Pool,
  source: EventStore,
  target: EventStore,
): Promise<{ name: string; from: Position; to: Position }[]> {
  // A checkpoint recorded before checkpoints named their store (NULL) is, on the database of a
  // platform moving from PostgreSQL, a PostgreSQL position: moved too, never left to be claimed by
  // the target with a position of the source's log.
  const { rows } = await pool.query<{
    name: string;
    commit_position: string;
    prepare_position: string;
    event_store: string | null;
  }>(
    `SELECT name, commit_position, prepare_position, event_store FROM projection_checkpoints
     WHERE event_store = $1 OR event_store IS NULL ORDER BY name`,
    [source.identity],
  );
  const moved: { name: string; from: Position; to: Position }[] = [];
  for (const row of rows) {
    const from = { commit: BigInt(row.commit_position), prepare: BigInt(row.prepare_position) };
    const to = await targetPositionOf(pool, from, target);
    await pool.query(
      `UPDATE projection_checkpoints SET commit_position = $2, prepare_position = $3, event_store = $4, updated_at = now()
       WHERE name = $1 AND event_store IS NOT DISTINCT FROM $5 AND commit_position = $6 AND prepare_position = $7`,
      [
        row.name,
        to.commit.toString(),
        to.prepare.toString(),
        target.identity,
        row.event_store,
        row.commit_position,
        row.prepare_position,
      ],
    );
    moved.push({ name: row.name, from, to });
  }
  return moved;
}

/** The target position of the last source event at or before `position` (PostgreSQL source). */
async function targetPositionOf(sourcePool: Pool, position: Position, target: EventStore): Promise<Position> {
  if (position.commit < 0n) return START;
  const { rows } = await sourcePool.query<{ stream_id: string; stream_position: number }>(
    `SELECT stream_id, stream_position FROM events
     WHERE (transaction_id, global_position) <= ($1::text::xid8, $2::bigint)
     ORDER BY transaction_id DESC, global_position DESC LIMIT 1`,
    [position.commit.toString(), position.prepare.toString()],
  );
  const last = rows[0];
  if (!last) return START;
  const copy = (await target.readStream(last.stream_id)).find((e) => e.streamPosition === last.stream_position);
  if (!copy) {
    throw new Error(`event ${last.stream_id}@${last.stream_position} is not in the target: finish the copy first`);
  }
  return copy.position;
}
