import {
  AccessDeniedError,
  ANY,
  NO_STREAM,
  START as KDB_START,
  StreamDeletedError,
  StreamNotFoundError,
  WrongExpectedVersionError as KurrentWrongExpectedVersionError,
} from '@kurrent/kurrentdb-client';
import type { RecordedEvent } from '@kurrent/kurrentdb-client';
import { DuplicateEventIdError, NewEvent, StoredEvent, WrongExpectedVersionError } from '../event-store.port';
import {
  explainError,
  isStreamNotFound,
  isSystemRecord,
  knownPosition,
  lacksPosition,
  mapAppendError,
  storedBefore,
  toEvent,
  toReadPosition,
  toStreamState,
  UNKNOWN_POSITION,
  withUpperBound,
} from './kurrentdb-mapping';

function record(over: Partial<RecordedEvent> = {}): RecordedEvent {
  return {
    streamId: 'session-1',
    id: '0190f2a4-0000-7000-8000-000000000001',
    revision: 7n,
    type: 'session.ended',
    data: { n: 1 },
    metadata: { tenant_id: 'ten_1', created_at: '2025-01-01T00:00:00.000Z' },
    isJson: true,
    created: new Date('2025-01-01T00:00:01.000Z'),
    position: { commit: 900n, prepare: 880n },
    ...over,
  } as RecordedEvent;
}

function stored(id: string, streamPosition: number): StoredEvent {
  return {
    id,
    type: 't',
    data: {},
    metadata: { tenant_id: null, created_at: '2025-01-01T00:00:00.000Z' },
    streamId: 's',
    streamPosition,
    position: { commit: BigInt(100 + streamPosition), prepare: BigInt(100 + streamPosition) },
  };
}

const newEvent = (id: string): NewEvent => ({ id, type: 't', data: {}, metadata: stored(id, 0).metadata });

describe('KurrentDB mapping: versions', () => {
  it('maps every expectation to an explicit stream state', () => {
    expect(toStreamState('any')).toBe(ANY);
    expect(toStreamState('no_stream')).toBe(NO_STREAM);
    expect(toStreamState(0)).toBe(0n);
    expect(toStreamState(41)).toBe(41n);
  });

  it('refuses negative and fractional revisions instead of reading -1 as no_stream', () => {
    for (const v of [-1, -5, 1.5, Number.NaN]) expect(() => toStreamState(v)).toThrow(RangeError);
  });
});

describe('KurrentDB mapping: positions', () => {
  it('reads from the start of $all for the port START, else from the position itself', () => {
    expect(toReadPosition({ commit: -1n, prepare: -1n })).toBe(KDB_START);
    expect(toReadPosition({ commit: 5n, prepare: 3n })).toEqual({ commit: 5n, prepare: 3n });
  });

  it('treats 2^64-1 and negatives as no position', () => {
    expect(knownPosition({ commit: UNKNOWN_POSITION, prepare: UNKNOWN_POSITION })).toBeUndefined();
    expect(knownPosition({ commit: -1n, prepare: 0n })).toBeUndefined();
    expect(knownPosition(undefined)).toBeUndefined();
    expect(knownPosition({ commit: 10n, prepare: 9n })).toEqual({ commit: 10n, prepare: 9n });
  });

  it('maps a record to a port event with its revision, not its index, and its own $all position', () => {
    const e = toEvent(record(), undefined);
    expect(e).toMatchObject({ streamPosition: 7, position: { commit: 900n, prepare: 880n }, data: { n: 1 } });
    expect(e.metadata).toEqual({ tenant_id: 'ten_1', created_at: '2025-01-01T00:00:00.000Z' });
  });

  it('falls back to (commit, commit), an upper bound, then to nothing: never START', () => {
    const unknown = { commit: UNKNOWN_POSITION, prepare: UNKNOWN_POSITION };
    expect(toEvent(record({ position: unknown }), 950n).position).toEqual({ commit: 950n, prepare: 950n });
    expect(toEvent(record({ position: undefined }), undefined).position).toBeUndefined();
  });

  it('gives events without a position (servers before 22.6) the bound read after them', () => {
    const events = [toEvent(record({ position: undefined }), undefined), toEvent(record(), undefined)];
    expect(lacksPosition(events)).toBe(true);
    const bounded = withUpperBound(events, { commit: 5000n, prepare: 5000n });
    expect(bounded.map((e) => e.position)).toEqual([
      { commit: 5000n, prepare: 5000n },
      { commit: 900n, prepare: 880n },
    ]);
    expect(lacksPosition(bounded)).toBe(false);
  });

  it('keeps foreign metadata as far as it goes', () => {
    const e = toEvent(record({ metadata: new TextEncoder().encode('not json') as never }), undefined);
    expect(e.metadata).toEqual({ tenant_id: null, created_at: '2025-01-01T00:00:01.000Z' });
  });

  it('leaves system records out', () => {
    expect(isSystemRecord({ type: '$metadata', streamId: '$$session-1' })).toBe(true);
    expect(isSystemRecord({ type: '$statsCollected', streamId: '$stats-0.0.0.0:2113' })).toBe(true);
    expect(isSystemRecord({ type: 'session.ended', streamId: '$ce-session' })).toBe(true);
    expect(isSystemRecord({ type: 'session.ended', streamId: 'session-1' })).toBe(false);
    // the guard streams of the first design are gone: an ordinary stream name
    expect(isSystemRecord({ type: 'x', streamId: '__event-id-1' })).toBe(false);
  });
});

describe('KurrentDB mapping: errors', () => {
  it("maps the client's wrong expected version to the port's, with the actual revision", () => {
    const err = new KurrentWrongExpectedVersionError(undefined, { streamName: 's', expected: 3n, current: 5n });
    const mapped = mapAppendError(err, 's', 3) as WrongExpectedVersionError;
    expect(mapped).toBeInstanceOf(WrongExpectedVersionError);
    expect([mapped.streamId, mapped.expected, mapped.actual]).toEqual(['s', 3, 5]);
    const missing = new KurrentWrongExpectedVersionError(undefined, {
      streamName: 's',
      expected: 0n,
      current: 'no_stream',
    });
    expect((mapAppendError(missing, 's', 0) as WrongExpectedVersionError).actual).toBe('no_stream');
  });

  it('explains access denied with the permissions to grant, keeping the cause', () => {
    const denied = new AccessDeniedError();
    const mapped = explainError(denied) as Error;
    expect(mapped.message).toMatch(/denied access.*read on \$all.*docs\/kurrentdb\.md/);
    expect(mapped.cause).toBe(denied);
    expect(mapAppendError(denied, 's', 'any')).toMatchObject({ cause: denied });
  });

  it('passes other errors through unchanged', () => {
    const deleted = StreamDeletedError.fromStreamName('s');
    expect(mapAppendError(deleted, 's', 'no_stream')).toBe(deleted);
    const plain = new Error('boom');
    expect(explainError(plain)).toBe(plain);
  });

  it('knows a missing stream by class or by type', () => {
    expect(isStreamNotFound(new StreamNotFoundError(undefined, 's'))).toBe(true);
    expect(isStreamNotFound({ type: 'stream-not-found' })).toBe(true);
    expect(isStreamNotFound(new Error('x'))).toBe(false);
  });
});

describe('KurrentDB mapping: an append already stored (storedBefore)', () => {
  const tail = [stored('a', 3), stored('b', 4), stored('c', 5), stored('d', 6)];

  it('answers a retry with the first result when its ids are there in order', () => {
    expect(storedBefore(tail, [newEvent('b'), newEvent('c')], 's')).toEqual({
      nextExpectedVersion: 5,
      position: { commit: 105n, prepare: 105n },
    });
    expect(storedBefore(tail, [newEvent('D')], 's')?.nextExpectedVersion).toBe(6);
  });

  it('is nothing when none of the ids is there', () => {
    expect(storedBefore(tail, [newEvent('x'), newEvent('y')], 's')).toBeUndefined();
    expect(storedBefore([], [newEvent('x')], 's')).toBeUndefined();
  });

  it('is a duplicate id when only some are there, or out of order', () => {
    expect(() => storedBefore(tail, [newEvent('x'), newEvent('c')], 's')).toThrow(DuplicateEventIdError);
    expect(() => storedBefore(tail, [newEvent('c'), newEvent('b')], 's')).toThrow(DuplicateEventIdError);
    expect(() => storedBefore(tail, [newEvent('d'), newEvent('e')], 's')).toThrow(DuplicateEventIdError);
  });
});
