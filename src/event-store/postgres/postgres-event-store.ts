import type { Pool } from 'pg';
import { AppendWakeups } from './append-wakeups';
import { ErrorListeners } from '../error-listeners';
import { EVENT_COLUMNS, type EventRow, RAW_ROWS, toStoredEvent } from './event-rows';
import { readPage, readPages } from './page-reads';
import { isUniqueViolation, statementRolledBack } from './pg-errors';
import {
  type AppendOrigin,
  AppendResult,
  checkAppend,
  EventStore,
  ExpectedVersion,
  NewEvent,
  Page,
  Position,
  StoredEvent,
  WrongExpectedVersionError,
} from '../event-store.port';
import { takeGroup } from './append-groups';
import { afterConflict, afterConflictOf, storedBefore } from './append-retries';

/** The schema this adapter needs; applied by the migrations (infra/database/schema.ts). */
export const EVENTS_SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS events (
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
CREATE INDEX IF NOT EXISTS events_commit_order ON events (transaction_id, global_position);
CREATE INDEX IF NOT EXISTS events_tenant_type ON events ((metadata->>'tenant_id'), type);
`;

interface AppendedRow {
  stream_position: number;
  tx: string;
  global_position: string;
}

const CURRENT_VERSION = 'SELECT coalesce(max(stream_position), -1) AS v FROM events WHERE stream_id = $1';

const APPEND_ONE_SQL = `
  INSERT INTO events (stream_id, stream_position, event_id, type, data, metadata)
  SELECT $1, cur.v + 1, $3, $4, $5, $6 FROM (${CURRENT_VERSION}) cur
  WHERE $2::int IS NULL OR cur.v = $2::int
  RETURNING stream_position, transaction_id::text AS tx, global_position`;

const APPEND_MANY_SQL = `
  INSERT INTO events (stream_id, stream_position, event_id, type, data, metadata)
  SELECT $1, cur.v + input.ord, input.id, input.type, input.data, input.metadata
  FROM unnest($3::uuid[], $4::text[], $5::jsonb[], $6::jsonb[]) WITH ORDINALITY AS input(id, type, data, metadata, ord),
       (${CURRENT_VERSION}) cur
  WHERE $2::int IS NULL OR cur.v = $2::int
  ORDER BY input.ord
  RETURNING stream_position, transaction_id::text AS tx, global_position`;

/**
 * One statement appends a whole group: the appends of concurrent commands, at most one per stream
 * (decision 27). Parameters are per event, the first event of each append carrying ord = 1, and
 * `expected` is null for `any`, -1 for `no_stream`.
 *
 * Each stream's current version is read from the statement's snapshot and checked against the
 * expectation; a stream that fails it gets no row, and the others go on. A writer that committed
 * after that snapshot (another instance) is caught by the unique (stream_id, stream_position) index,
 * with ON CONFLICT DO NOTHING so that it too costs only that stream's rows.
 *
 * All or nothing per append, in one statement: only each append's FIRST event is inserted with
 * ON CONFLICT DO NOTHING (`heads`); the others (`tails`) are inserted only for the heads that went in,
 * and WITHOUT ON CONFLICT. If a racing writer took the head's position, the head is skipped and so
 * is the rest of that append. A stream's rows only ever grow as contiguous ranges from a version every
 * writer saw, so once the head's position is free, so are the following ones; should a tail conflict
 * all the same, it raises a unique violation that rolls the whole statement back (never a partial
 * append) and the group is retried one append at a time. Heads are inserted in stream order, so two
 * groups waiting on each other's uncommitted heads cannot deadlock. Every head is inserted before any
 * tail (the tails read the heads' output), and tails in (stream, ord) order, so within the group's
 * one transaction global_position follows each stream's order.
 *
 * One row per append: the version the snapshot saw, how many events went in, and the last one's place.
 */
const APPEND_GROUP_SQL = `
  WITH input AS (
    SELECT * FROM unnest($1::text[], $2::int[], $3::int[], $4::uuid[], $5::text[], $6::jsonb[], $7::jsonb[])
           AS t(stream_id, expected, ord, id, type, data, metadata)
  ), cur AS (
    SELECT i.*, coalesce((SELECT max(e.stream_position) FROM events e WHERE e.stream_id = i.stream_id), -1) AS v
    FROM input i WHERE i.ord = 1
  ), heads AS (
    INSERT INTO events (stream_id, stream_position, event_id, type, data, metadata)
    SELECT stream_id, v + 1, id, type, data, metadata FROM cur
    WHERE expected IS NULL OR v = expected
    ORDER BY stream_id
    ON CONFLICT (stream_id, stream_position) DO NOTHING
    RETURNING stream_id, stream_position, transaction_id::text AS tx, global_position
  ), tails AS (
    INSERT INTO events (stream_id, stream_position, event_id, type, data, metadata)
    SELECT i.stream_id, h.stream_position + i.ord - 1, i.id, i.type, i.data, i.metadata
    FROM input i JOIN heads h ON h.stream_id = i.stream_id
    WHERE i.ord > 1
    ORDER BY i.stream_id, i.ord
    RETURNING stream_id, stream_position, transaction_id::text AS tx, global_position
  )
  SELECT stream_id, max(v) AS current, count(stream_position)::int AS appended, max(stream_position) AS last_position,
         min(tx) AS tx, max(global_position)::text AS global_position
  FROM (SELECT stream_id, v, NULL::int AS stream_position, NULL::text AS tx, NULL::bigint AS global_position FROM cur
        UNION ALL SELECT stream_id, NULL, stream_position, tx, global_position FROM heads
        UNION ALL SELECT stream_id, NULL, stream_position, tx, global_position FROM tails) r
  GROUP BY stream_id`;

interface GroupRow {
  stream_id: string;
  current: number;
  appended: number;
  last_position: number | null;
  tx: string | null;
  global_position: string | null;
}

/** One append waiting for its group. */
interface PendingAppend {
  readonly streamId: string;
  readonly events: readonly NewEvent[];
  readonly expected: ExpectedVersion;
  readonly resolve: (result: AppendResult) => void;
  readonly reject: (err: unknown) => void;
}

/** At most this many events per group statement (one append larger than that goes alone). */
const MAX_GROUP_EVENTS = 500;

/** How much grouping happened, for tests and benchmarks. */
export interface GroupCommitStats {
  /** Append attempts sent (an `any` append retried after a race counts once per attempt). */
  readonly appends: number;
  /** Append statements sent: one per group, plus one per append retried alone after a group failed. */
  readonly statements: number;
  /** Statements that carried more than one append. */
  readonly groups: number;
  /** The most appends one statement carried. */
  readonly largestGroup: number;
}

/**
 * Appends with group commit: an append that finds no other in flight goes at once, in its own
 * statement; appends that arrive meanwhile queue up, and when the statement in flight returns they
 * go together in one statement, so one transaction and one WAL flush serve them all. Each caller
 * still gets its own result or its own WrongExpectedVersionError.
 *
 * The next stream position comes from the unique (stream_id, stream_position) index, so optimistic
 * concurrency needs no lock and no extra round trip. Readers order by (transaction_id,
 * global_position) and stop below the oldest running transaction, so an event that commits late is
 * never skipped (ARCHITECTURE.md).
 */
export class PostgresEventStore implements EventStore {
  readonly identity = 'postgresql';
  private readonly wakeups: AppendWakeups;
  private readonly errors = new ErrorListeners();
  private readonly queue: PendingAppend[] = [];
  /** Streams of the groups in flight: an append to one of them waits for the next group. */
  private readonly busyStreams = new Set<string>();
  private inFlight = 0;
  /** Set for one turn of the event loop after a group returns (see `pump`). */
  private holding = false;
  private readonly maxInFlight: number;
  private stats = { appends: 0, statements: 0, groups: 0, largestGroup: 0 };

  /**
   * `groupsInFlight`: how many append statements may run at once (default 1: appends that arrive
   * while one runs wait for it, then go together).
   */
  constructor(
    private readonly pool: Pool,
    options: { groupsInFlight?: number } = {},
  ) {
    this.maxInFlight = Math.max(1, Math.floor(options.groupsInFlight ?? 1));
    this.wakeups = new AppendWakeups(pool, (err) => this.errors.report(err));
  }

  async append(streamId: string, events: readonly NewEvent[], expected: ExpectedVersion): Promise<AppendResult> {
    checkAppend(streamId, events, expected);
    // `any` has no expectation to break: a race with another writer on the same stream just retries.
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.enqueue(streamId, events, expected);
      } catch (err) {
        if (!(expected === 'any' && err instanceof WrongExpectedVersionError && attempt < 20)) throw err;
      }
    }
  }

  groupCommitStats(): GroupCommitStats {
    return { ...this.stats };
  }

  private enqueue(streamId: string, events: readonly NewEvent[], expected: ExpectedVersion): Promise<AppendResult> {
    return new Promise<AppendResult>((resolve, reject) => {
      this.queue.push({ streamId, events, expected, resolve, reject });
      this.pump();
    });
  }

  /**
   * Starts groups while fewer than `maxInFlight` run and something can go: the first append of a
   * quiet moment goes at once, alone; what queues meanwhile goes as one group when a statement returns.
   * A group's slot and streams are released before its callers learn their outcome, so a caller's
   * next append never waits behind the bookkeeping of its previous one.
   */
  private pump(): void {
    if (this.holding) return;
    while (this.inFlight < this.maxInFlight && this.queue.length > 0) {
      const group = takeGroup(this.queue, MAX_GROUP_EVENTS, this.busyStreams);
      if (group.length === 0) return;
      this.stats.appends += group.length;
      this.stats.largestGroup = Math.max(this.stats.largestGroup, group.length);
      this.inFlight++;
      for (const pending of group) this.busyStreams.add(pending.streamId);
      const release = (): void => {
        this.inFlight--;
        for (const pending of group) this.busyStreams.delete(pending.streamId);
        // Hold new groups until the callers about to learn their outcome have reacted (their promise
        // continuations all run before the next turn of the event loop), so that what they append
        // next joins what is already queued, in one group, instead of one of them going alone first.
        // A lone append meets no hold: nothing is in flight or just returned then.
        if (this.holding) return;
        this.holding = true;
        setImmediate(() => {
          this.holding = false;
          this.pump();
        });
      };
      const sent = group.length === 1 ? this.appendAlone(group[0] as PendingAppend) : this.appendGroup(group);
      sent.then(
        (settle) => {
          release();
          settle();
        },
        (err: unknown) => {
          // Not expected (neither throws), but no caller may be left waiting.
          release();
          for (const pending of group) pending.reject(err);
        },
      );
    }
  }

  /** The old single-append statements: a group of one costs no more than before. Returns how to
   *  settle the caller. */
  private async appendAlone(pending: PendingAppend): Promise<() => void> {
    this.stats.statements++;
    try {
      const result = await this.appendOnce(pending.streamId, pending.events, pending.expected);
      return () => pending.resolve(result);
    } catch (err) {
      return () => pending.reject(err);
    }
  }

  /** One statement for the whole group. Returns how to settle every caller. */
  private async appendGroup(candidates: readonly PendingAppend[]): Promise<() => void> {
    const settles: (() => void)[] = [];
    const settleAll = (): void => settles.forEach((settle) => settle());
    const streamIds: string[] = [];
    const expected: (number | null)[] = [];
    const ord: number[] = [];
    const ids: string[] = [];
    const types: string[] = [];
    const data: string[] = [];
    const metadata: string[] = [];
    const group: PendingAppend[] = [];
    for (const pending of candidates) {
      let serialized: { data: string[]; metadata: string[] };
      try {
        serialized = {
          data: pending.events.map((e) => JSON.stringify(e.data)),
          metadata: pending.events.map((e) => JSON.stringify(e.metadata)),
        };
      } catch (err) {
        settles.push(() => pending.reject(err));
        continue;
      }
      const expectedParam = toExpectedParam(pending.expected);
      pending.events.forEach((e, i) => {
        streamIds.push(pending.streamId);
        expected.push(expectedParam);
        ord.push(i + 1);
        ids.push(e.id);
        types.push(e.type);
      });
      data.push(...serialized.data);
      metadata.push(...serialized.metadata);
      group.push(pending);
    }
    if (group.length === 0) return settleAll;
    this.stats.statements++;
    if (group.length > 1) this.stats.groups++;
    let rows: GroupRow[];
    try {
      ({ rows } = await this.pool.query<GroupRow>({
        name: 'events_append_group',
        text: APPEND_GROUP_SQL,
        values: [streamIds, expected, ord, ids, types, data, metadata],
      }));
    } catch (err) {
      if (!statementRolledBack(err)) {
        // The connection or the server failed: the group may or may not have committed, as a lone
        // append may or may not have; every caller learns it.
        for (const pending of group) settles.push(() => pending.reject(err));
        return settleAll;
      }
      // The server refused the statement as a whole (a duplicate event id, an invalid value, a tail
      // that met a racing writer, a deadlock with a foreign writer): nothing was stored. Each append
      // is tried again alone, so that the error reaches only the caller it belongs to.
      for (const pending of group) settles.push(await this.appendAlone(pending));
      return settleAll;
    }

    const byStream = new Map(rows.map((row) => [row.stream_id, row]));
    const conflicted: PendingAppend[] = [];
    const stored: string[] = [];
    for (const pending of group) {
      const outcome = groupOutcome(pending, byStream.get(pending.streamId));
      if (outcome === 'raced' || outcome instanceof WrongExpectedVersionError) conflicted.push(pending);
      else if (outcome instanceof Error) settles.push(() => pending.reject(outcome));
      else {
        stored.push(pending.streamId);
        settles.push(() => pending.resolve(outcome));
      }
    }
    if (stored.length > 0) this.wakeups.appended(stored);
    // An expectation that failed (or another instance took the next position after the statement's
    // snapshot): a retry of a stored append, or a conflict whose actual version is read. Rare; the
    // next group does not wait for it.
    if (conflicted.length > 0) {
      void afterConflict(this.pool, conflicted).then((outcomes) =>
        outcomes.forEach((outcome, i) => {
          const pending = conflicted[i] as PendingAppend;
          if (outcome.status === 'fulfilled') pending.resolve(outcome.value);
          else pending.reject(outcome.reason);
        }),
      );
    }
    return settleAll;
  }

  private async appendOnce(
    streamId: string,
    events: readonly NewEvent[],
    expected: ExpectedVersion,
  ): Promise<AppendResult> {
    // The SQL text never changes (the expectation is a parameter) and the statements are named, so
    // each connection plans them once: re-planning cost more than the insert itself.
    const expectedParam = toExpectedParam(expected);
    let rows: AppendedRow[];
    try {
      const first = events[0];
      const result =
        events.length === 1 && first
          ? await this.pool.query<AppendedRow>({
              name: 'events_append_one',
              text: APPEND_ONE_SQL,
              values: [
                streamId,
                expectedParam,
                first.id,
                first.type,
                JSON.stringify(first.data),
                JSON.stringify(first.metadata),
              ],
            })
          : await this.pool.query<AppendedRow>({
              name: 'events_append_many',
              text: APPEND_MANY_SQL,
              values: [
                streamId,
                expectedParam,
                events.map((e) => e.id),
                events.map((e) => e.type),
                events.map((e) => JSON.stringify(e.data)),
                events.map((e) => JSON.stringify(e.metadata)),
              ],
            });
      rows = result.rows;
    } catch (err) {
      if (isUniqueViolation(err, 'events_stream_id_stream_position_key'))
        return afterConflictOf(this.pool, streamId, events, expected);
      if (isUniqueViolation(err, 'events_event_id_key')) return storedBefore(this.pool, streamId, events, expected);
      throw err;
    }
    const last = rows[rows.length - 1];
    if (!last) return afterConflictOf(this.pool, streamId, events, expected);
    this.wakeups.appended([streamId]);
    return {
      nextExpectedVersion: Number(last.stream_position),
      position: { commit: BigInt(last.tx), prepare: BigInt(last.global_position) },
    };
  }

  async readStream(streamId: string): Promise<StoredEvent[]> {
    const { rows } = await this.pool.query<EventRow>({
      text: `SELECT ${EVENT_COLUMNS} FROM events WHERE stream_id = $1 ORDER BY stream_position`,
      values: [streamId],
      ...RAW_ROWS,
    });
    return rows.map(toStoredEvent);
  }

  async readAll(after: Position, limit: number): Promise<StoredEvent[]> {
    return (await this.readPage(after, limit)).events;
  }

  readPage(after: Position, limit: number): Promise<Page> {
    return readPage(this.pool, after, limit);
  }

  readPages(after: Position, limit: number, count: number): Promise<Page[]> {
    return readPages(this.pool, after, limit, count);
  }

  async readByIds(ids: readonly string[]): Promise<StoredEvent[]> {
    if (ids.length === 0) return [];
    const { rows } = await this.pool.query<EventRow>({
      text: `SELECT ${EVENT_COLUMNS} FROM events WHERE event_id = ANY($1::uuid[]) ORDER BY transaction_id, global_position`,
      values: [ids],
      ...RAW_ROWS,
    });
    return rows.map(toStoredEvent);
  }

  onAppended(listener: (origin?: AppendOrigin, streams?: readonly string[]) => void): () => void {
    return this.wakeups.subscribe(listener);
  }

  onError(listener: (err: unknown) => void): () => void {
    return this.errors.add(listener);
  }

  async ping(): Promise<void> {
    await this.pool.query('SELECT 1 FROM events LIMIT 1');
  }

  close(): Promise<void> {
    this.wakeups.close();
    this.errors.clear();
    return Promise.resolve();
  }
}

/** One caller's result from its row of the group statement; 'raced' when the actual version is unknown. */
function groupOutcome(pending: PendingAppend, row: GroupRow | undefined): AppendResult | Error | 'raced' {
  if (!row) return new Error(`append group returned no row for stream ${pending.streamId}`);
  if (row.appended > 0) {
    if (row.appended !== pending.events.length || row.last_position === null || !row.tx || !row.global_position) {
      return new Error(`append group stored ${row.appended} of ${pending.events.length} events of ${pending.streamId}`);
    }
    return {
      nextExpectedVersion: Number(row.last_position),
      position: { commit: BigInt(row.tx), prepare: BigInt(row.global_position) },
    };
  }
  const expectedParam = toExpectedParam(pending.expected);
  const current = Number(row.current);
  // The expectation failed against the version the statement saw: that is the actual one.
  if (expectedParam !== null && current !== expectedParam) {
    return new WrongExpectedVersionError(pending.streamId, pending.expected, current < 0 ? 'no_stream' : current);
  }
  return 'raced';
}

function toExpectedParam(expected: ExpectedVersion): number | null {
  return expected === 'any' ? null : expected === 'no_stream' ? -1 : Number(expected);
}
