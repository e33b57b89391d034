/**
 * The event store port. Two adapters implement it: PostgreSQL (default) and EventStoreDB/KurrentDB.
 * One contract suite (test/int/event-store.contract.ts) runs against both.
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

export interface Page {
  readonly events: StoredEvent[];
  /** Committed events beyond the page that a read cannot return yet; false when the store has no such horizon. */
  readonly hidden: boolean;
}

export interface EventStore {
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
   *  Only a hint: readers must also poll. */
  onAppended(listener: () => void): () => void;
  close(): Promise<void>;
}

export const EVENT_STORE = Symbol('EVENT_STORE');
