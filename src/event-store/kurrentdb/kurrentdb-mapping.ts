import {
  AccessDeniedError,
  ANY,
  ErrorType,
  NO_STREAM,
  START as KDB_START,
  StreamNotFoundError,
  WrongExpectedVersionError as KurrentWrongExpectedVersionError,
} from '@kurrent/kurrentdb-client';
import type { AppendStreamState, ReadPosition } from '@kurrent/kurrentdb-client';

/** What the adapter reads of a record the client returns (a `RecordedEvent` is one). */
export interface ClientRecord {
  readonly id: string;
  readonly type: string;
  readonly streamId: string;
  readonly revision: bigint;
  readonly data: unknown;
  readonly metadata: unknown;
  readonly created: Date;
  readonly position?: { commit: bigint; prepare: bigint };
}
import {
  AppendResult,
  DuplicateEventIdError,
  EventMetadata,
  ExpectedVersion,
  NewEvent,
  Position,
  StoredEvent,
  WrongExpectedVersionError,
} from '../event-store.port';

/** The pure half of the KurrentDB adapter: positions, versions, records and errors mapped to the port's. */

/** The client reports "no $all position known" as the largest unsigned 64-bit value. */
export const UNKNOWN_POSITION = 2n ** 64n - 1n;

export function reasonOf(err: unknown): string {
  const text = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  return text.length > 500 ? `${text.slice(0, 497)}...` : text;
}

/** The port's expected version as the client's stream state (negative revisions never get here: `checkAppend`). */
export function toStreamState(expected: ExpectedVersion): AppendStreamState {
  if (expected === 'any') return ANY;
  if (expected === 'no_stream') return NO_STREAM;
  if (!Number.isSafeInteger(expected) || expected < 0) {
    throw new RangeError(`Invalid expected version ${String(expected)}`);
  }
  return BigInt(expected);
}

export function toReadPosition(position: Position): ReadPosition {
  if (position.commit < 0n || position.prepare < 0n) return KDB_START;
  return { commit: position.commit, prepare: position.prepare };
}

export function knownPosition(position: { commit: bigint; prepare: bigint } | undefined): Position | undefined {
  if (position === undefined) return undefined;
  const { commit, prepare } = position;
  if (commit < 0n || prepare < 0n || commit >= UNKNOWN_POSITION || prepare >= UNKNOWN_POSITION) return undefined;
  return { commit, prepare };
}

/** A failed append as the port reports it: a wrong expected version as the port's error, anything else explained. */
export function mapAppendError(err: unknown, streamId: string, expected: ExpectedVersion): unknown {
  if (err instanceof KurrentWrongExpectedVersionError || hasErrorType(err, ErrorType.WRONG_EXPECTED_VERSION)) {
    const actualState = (err as KurrentWrongExpectedVersionError).actualState;
    const actual: number | 'no_stream' =
      typeof actualState === 'bigint' && actualState >= 0n ? Number(actualState) : 'no_stream';
    return new WrongExpectedVersionError(streamId, expected, actual);
  }
  return explainError(err);
}

/**
 * Errors an operator must act on, with what to do: access denied names the permissions the platform
 * needs (docs/kurrentdb.md). The client's error is kept as the cause; others pass unchanged.
 */
export function explainError(err: unknown): unknown {
  if (err instanceof AccessDeniedError || hasErrorType(err, ErrorType.ACCESS_DENIED)) {
    const message = err instanceof Error ? err.message : String(err);
    return new Error(
      `KurrentDB denied access (${message}): the platform's user needs read and write on its streams and read on $all (docs/kurrentdb.md)`,
      { cause: err },
    );
  }
  return err;
}

export function hasErrorType(err: unknown, type: ErrorType): boolean {
  return typeof err === 'object' && err !== null && (err as { type?: unknown }).type === type;
}

export function isStreamNotFound(err: unknown): boolean {
  return err instanceof StreamNotFoundError || hasErrorType(err, ErrorType.STREAM_NOT_FOUND);
}

/** Records the port leaves out: system events ($-typed: $metadata, $>, $statsCollected, …) and anything in a $-stream. */
export function isSystemRecord(record: { type: string; streamId: string }): boolean {
  return record.type.startsWith('$') || record.streamId.startsWith('$');
}

/**
 * A record as a port event. `position`: its $all position when the caller knows it better than the
 * record (a read of $all); else the record's own, else `(commitPosition, commitPosition)` (an upper
 * bound of the real one: an event's prepare never comes after its commit), else undefined (a server
 * before 22.6 sends no $all position on stream reads: see `withUpperBound`).
 */
export function toEvent(
  record: ClientRecord,
  commitPosition: bigint | undefined,
  position?: Position,
): Omit<StoredEvent, 'position'> & { position: Position | undefined } {
  return {
    id: record.id,
    type: record.type,
    data: toData(record.data),
    metadata: toMetadata(record.metadata, record.created),
    streamId: record.streamId,
    streamPosition: Number(record.revision),
    position: position ?? knownPosition(record.position) ?? fallbackPosition(commitPosition),
  };
}

export function fallbackPosition(commitPosition: bigint | undefined): Position | undefined {
  return commitPosition === undefined ? undefined : knownPosition({ commit: commitPosition, prepare: commitPosition });
}

/**
 * Events whose position is unknown get `bound`: a position read after them (the head of $all), so
 * at or after theirs. A reader waiting for such a position (read-your-writes) may wait for a few
 * events more, never returns before the event was processed.
 */
export function withUpperBound(
  events: readonly (Omit<StoredEvent, 'position'> & { position: Position | undefined })[],
  bound: Position,
): StoredEvent[] {
  return events.map((e) => ({ ...e, position: e.position ?? bound }));
}

/** Whether some event of `events` has no known position. */
export function lacksPosition(events: readonly { position: Position | undefined }[]): boolean {
  return events.some((e) => e.position === undefined);
}

/**
 * Whether the last events of a stream (`tail`, in stream order) already hold `events`: the result of
 * the append that stored them when they are there in the same order (a retry whose acknowledgement
 * was lost), undefined when none of their ids is there, DuplicateEventIdError otherwise.
 */
export function storedBefore(
  tail: readonly StoredEvent[],
  events: readonly NewEvent[],
  streamId: string,
): AppendResult | undefined {
  const ids = events.map((e) => e.id.toLowerCase());
  const at = tail.findIndex((e) => e.id.toLowerCase() === ids[0]);
  if (at >= 0) {
    const stored = tail.slice(at, at + ids.length);
    const last = stored[stored.length - 1];
    if (last && stored.length === ids.length && stored.every((e, i) => e.id.toLowerCase() === ids[i])) {
      return { nextExpectedVersion: last.streamPosition, position: last.position };
    }
  }
  const clash = tail.find((e) => ids.includes(e.id.toLowerCase()));
  if (clash) throw new DuplicateEventIdError(clash.id, streamId);
  return undefined;
}

export function toData(data: unknown): Record<string, unknown> {
  const value = data instanceof Uint8Array ? parseJson(Buffer.from(data).toString('utf8')) : data;
  if (isPlainObject(value)) return value;
  // a foreign (non-object) payload is kept rather than dropped
  return { value };
}

export function toMetadata(metadata: unknown, created: Date): EventMetadata {
  const value = metadata instanceof Uint8Array ? parseJson(Buffer.from(metadata).toString('utf8')) : metadata;
  if (isEventMetadata(value)) return value;
  // written by something other than this platform: keep what we can
  const tenant = isPlainObject(value) && typeof value['tenant_id'] === 'string' ? value['tenant_id'] : null;
  return { tenant_id: tenant, created_at: created.toISOString() };
}

/** Metadata this platform wrote: a creation time, a tenant (or null), and the optional ids as strings. */
function isEventMetadata(value: unknown): value is EventMetadata {
  if (!isPlainObject(value)) return false;
  const { tenant_id: tenant, created_at: created, correlation_id, causation_id, idempotency_key } = value;
  const optional = (v: unknown) => v === undefined || typeof v === 'string';
  return (
    typeof created === 'string' &&
    (tenant === null || typeof tenant === 'string') &&
    optional(correlation_id) &&
    optional(causation_id) &&
    optional(idempotency_key)
  );
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);
}
