/**
 * The event store port. Two adapters implement it: PostgreSQL (default) and EventStoreDB/KurrentDB.
 * One contract suite (test/int/event-store/event-store.contract.ts) runs against both.
 */

/** Where an event sits in the global commit order: (commit, prepare) compared lexicographically.
 *  PostgreSQL: (transaction_id, global_position). EventStoreDB: (commit_position, prepare_position). */
export interface Position {
  readonly commit: bigint;
  readonly prepare: bigint;
}

export const START: Position = { commit: -1n, prepare: -1n };

export function comparePositions(a: Position, b: Position): number {
  if (a.commit !== b.commit) return a.commit < b.commit ? -1 : 1;
  if (a.prepare !== b.prepare) return a.prepare < b.prepare ? -1 : 1;
  return 0;
}

export interface EventMetadata {
  readonly tenant_id: string | null;
  /** ISO-8601 UTC with milliseconds: the envelope's created_at. */
  readonly created_at: string;
  readonly correlation_id?: string;
  readonly causation_id?: string;
  /** The request's Idempotency-Key (`<principal>:<key>`) when it sent one: a retry finds its events. */
  readonly idempotency_key?: string;
}

export interface NewEvent {
  /** UUIDv7, generated once where the event is decided; it is the webhook envelope id. */
  readonly id: string;
  /** Catalog name (`session.ended`) or an internal name (`tenant.api_key_issued`). */
  readonly type: string;
  readonly data: Record<string, unknown>;
  readonly metadata: EventMetadata;
}

export interface StoredEvent extends NewEvent {
  readonly streamId: string;
  /** 0-based revision within the stream. */
  readonly streamPosition: number;
  readonly position: Position;
}

/** `no_stream`: the stream must not exist; a number: the revision of its last event; `any`: no check. */
export type ExpectedVersion = 'any' | 'no_stream' | number;

export interface AppendResult {
  /** Revision of the last appended event, to pass as the next expected version. */
  readonly nextExpectedVersion: number;
  /** Position of the last appended event. */
  readonly position: Position;
}

export class WrongExpectedVersionError extends Error {
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedVersion,
    readonly actual: number | 'no_stream',
  ) {
    super(`Wrong expected version for stream ${streamId}: expected ${String(expected)}, actual ${String(actual)}`);
    this.name = 'WrongExpectedVersionError';
  }
}

/** An event id already stored elsewhere (another stream, another place in this one), or twice in one append. */
export class DuplicateEventIdError extends Error {
  constructor(
    readonly eventId: string,
    readonly streamId: string,
  ) {
    super(`Event id ${eventId} is already stored, or given twice, outside its place in stream ${streamId}`);
    this.name = 'DuplicateEventIdError';
  }
}

/**
 * What every adapter checks before it sends anything: at least one event, an expected version that
 * is `any`, `no_stream` or a revision (a non-negative safe integer), and no id twice in one append.
 */
export function checkAppend(streamId: string, events: readonly NewEvent[], expected: ExpectedVersion): void {
  if (events.length === 0) throw new RangeError(`append to ${streamId} needs at least one event`);
  if (expected !== 'any' && expected !== 'no_stream' && !(Number.isSafeInteger(expected) && expected >= 0)) {
    throw new RangeError(`Invalid expected version ${String(expected)} for stream ${streamId}`);
  }
  const seen = new Set<string>();
  for (const e of events) {
    const id = e.id.toLowerCase();
    if (seen.has(id)) throw new DuplicateEventIdError(e.id, streamId);
    seen.add(id);
  }
}

export interface Page {
  readonly events: StoredEvent[];
  /** Committed events beyond the page that a read cannot return yet; false when the store has no such horizon. */
  readonly hidden: boolean;
  /**
   * How far the read got when that is past the last event returned: a store that leaves records out
   * of the port's log (KurrentDB's system records) reports the last one it passed, so that a reader
   * moves on from there instead of reading them again. Never before the page's last event; absent
   * when it would be the last event's position (always, on PostgreSQL).
   */
  readonly end?: Position;
}

/** Where a reader of `page` read after `from` is: its `end`, else its last event, else `from`. */
export function pageEnd(from: Position, page: Page): Position {
  const last = page.events[page.events.length - 1]?.position ?? from;
  return page.end !== undefined && comparePositions(page.end, last) > 0 ? page.end : last;
}

/** Where an append that wakes a reader came from: this process, or another instance (NOTIFY). */
export type AppendOrigin = 'local' | 'remote';

export interface EventStore {
  /**
   * Which log the positions belong to (`postgresql`, `kurrentdb`): checkpoints record it, so that a
   * position is never used to read another store's log.
   */
  readonly identity: string;
  /**
   * Appends `events` (at least one; no id twice) if the stream is at `expected`. A retry of an append
   * that was stored (the same events, the same stream and expected version: its acknowledgement was
   * lost) stores nothing and returns the first one's result. An id already stored otherwise raises
   * DuplicateEventIdError (on KurrentDB only within the stream: decision 50).
   */
  append(streamId: string, events: readonly NewEvent[], expected: ExpectedVersion): Promise<AppendResult>;
  /** All events of one stream, in stream order; empty when the stream does not exist. */
  readStream(streamId: string): Promise<StoredEvent[]>;
  /** Up to `limit` events after `after` (exclusive) in commit order, never skipping one that commits later. */
  readAll(after: Position, limit: number): Promise<StoredEvent[]>;
  /** `readAll`, and whether events exist that are committed but not yet readable (they sit behind a
   *  transaction still running): a reader that got them all should look again soon, since no wake-up
   *  announces the moment they become readable. */
  readPage(after: Position, limit: number): Promise<Page>;
  /** Optional: up to `count` consecutive pages as `readPage` would return them one after another,
   *  read concurrently; empty pages are not returned except a single one when nothing is readable. */
  readPages?(after: Position, limit: number, count: number): Promise<Page[]>;
  /** Events of the store whose ids are given (for audit and tests). */
  readByIds(ids: readonly string[]): Promise<StoredEvent[]>;
  /** Registers a wake-up hint fired when new events may be readable; returns an unsubscribe function.
   *  Only a hint: readers must also poll. Its origin, where the store can tell: `local` for an append
   *  of this process, `remote` for another's; none when it cannot (treat it as possibly remote). With
   *  a local append, where the store tells them, the streams appended to: a reader of one stream
   *  need not read for another's (none given: any stream may have changed). */
  onAppended(listener: (origin?: AppendOrigin, streams?: readonly string[]) => void): () => void;
  /** Registers a listener of background failures (a wake-up feed lost, access denied, a wake-up
   *  listener that threw); returns an unsubscribe function. They are never thrown into an append. */
  onError(listener: (err: unknown) => void): () => void;
  /** Whether the store answers, cheaply (the readiness probe). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export const EVENT_STORE = Symbol('EVENT_STORE');
