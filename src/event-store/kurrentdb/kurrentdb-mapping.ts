import { createHash } from 'node:crypto';
import {
  ANY,
  ErrorType,
  NO_STREAM,
  PersistentSubscriptionDoesNotExistError,
  PersistentSubscriptionExistsError,
  START as KDB_START,
  StreamNotFoundError,
  WrongExpectedVersionError as KurrentWrongExpectedVersionError,
} from '@kurrent/kurrentdb-client';
import type { AppendStreamState, ReadPosition, RecordedEvent } from '@kurrent/kurrentdb-client';
import {
  EventMetadata,
  ExpectedVersion,
  Position,
  START,
  StoredEvent,
  WrongExpectedVersionError,
} from '../event-store.port';

/** The pure half of the KurrentDB adapter: positions, versions, records and errors mapped to the port's. */

export const UNKNOWN_POSITION = 2n ** 64n - 1n;
/** Guard streams reserving event ids store-wide; never a `$` prefix (system-stream ACLs). */
export const EVENT_ID_GUARD_PREFIX = '__event-id-';
export const EVENT_ID_GUARD_TYPE = 'event-id.reserved';

export function reasonOf(err: unknown): string {
  const text = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  return text.length > 500 ? `${text.slice(0, 497)}...` : text;
}

export function toStreamState(expected: ExpectedVersion): AppendStreamState {
  if (expected === 'any') return ANY;
  if (expected === 'no_stream') return NO_STREAM;
  if (!Number.isSafeInteger(expected)) throw new RangeError(`Invalid expected version ${String(expected)}`);
  // -1 is the conventional "no stream" revision
  return expected < 0 ? NO_STREAM : BigInt(expected);
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

export function mapAppendError(err: unknown, streamId: string, expected: ExpectedVersion): unknown {
  if (err instanceof KurrentWrongExpectedVersionError || hasErrorType(err, ErrorType.WRONG_EXPECTED_VERSION)) {
    const actualState = (err as KurrentWrongExpectedVersionError).actualState;
    const actual: number | 'no_stream' =
      typeof actualState === 'bigint' && actualState >= 0n ? Number(actualState) : 'no_stream';
    return new WrongExpectedVersionError(streamId, expected, actual);
  }
  return err;
}

export function hasErrorType(err: unknown, type: ErrorType): boolean {
  return typeof err === 'object' && err !== null && (err as { type?: unknown }).type === type;
}

export function isStreamNotFound(err: unknown): boolean {
  return err instanceof StreamNotFoundError || hasErrorType(err, ErrorType.STREAM_NOT_FOUND);
}

export function isPersistentGroupExists(err: unknown): boolean {
  return (
    err instanceof PersistentSubscriptionExistsError || hasErrorType(err, ErrorType.PERSISTENT_SUBSCRIPTION_EXISTS)
  );
}

export function isPersistentGroupMissing(err: unknown): boolean {
  return (
    err instanceof PersistentSubscriptionDoesNotExistError ||
    hasErrorType(err, ErrorType.PERSISTENT_SUBSCRIPTION_DOES_NOT_EXIST)
  );
}

/** System events ($-typed: $metadata, $>, $statsCollected, …), anything in a $-stream, and our id guards. */
export function isSystemRecord(record: { type: string; streamId: string }): boolean {
  return (
    record.type.startsWith('$') || record.streamId.startsWith('$') || record.streamId.startsWith(EVENT_ID_GUARD_PREFIX)
  );
}

/** A name-based (v5-style) UUID of (stream, event id): the same pair always yields the same guard event id. */
export function guardEventId(streamId: string, eventId: string): string {
  const hash = createHash('sha1').update(`${streamId}\n${eventId}`).digest();
  hash[6] = ((hash[6] ?? 0) & 0x0f) | 0x50;
  hash[8] = ((hash[8] ?? 0) & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

export function toStoredEvent(
  record: RecordedEvent,
  commitPosition: bigint | undefined,
  position?: Position,
): StoredEvent {
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

/** Servers before 22.6 send no $all position on stream reads: use the commit position for both numbers. */
export function fallbackPosition(commitPosition: bigint | undefined): Position {
  const known =
    commitPosition === undefined ? undefined : knownPosition({ commit: commitPosition, prepare: commitPosition });
  return known ?? START;
}

export function toData(data: unknown): Record<string, unknown> {
  const value = data instanceof Uint8Array ? parseJson(Buffer.from(data).toString('utf8')) : data;
  if (isPlainObject(value)) return value;
  // a foreign (non-object) payload is kept rather than dropped
  return { value };
}

export function toMetadata(metadata: unknown, created: Date): EventMetadata {
  const value = metadata instanceof Uint8Array ? parseJson(Buffer.from(metadata).toString('utf8')) : metadata;
  if (isPlainObject(value) && typeof value['created_at'] === 'string') return value as unknown as EventMetadata;
  // written by something other than this platform: keep what we can
  const tenant = isPlainObject(value) && typeof value['tenant_id'] === 'string' ? value['tenant_id'] : null;
  return { tenant_id: tenant, created_at: created.toISOString() };
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
