import type { Pool } from 'pg';
import {
  AppendResult,
  DuplicateEventIdError,
  ExpectedVersion,
  NewEvent,
  WrongExpectedVersionError,
} from '../event-store.port';

// Appends of PostgresEventStore that did not go in: a retry of an append that was stored, a
// duplicate id, or a conflict with another writer. Only read on those paths, never on a plain append.

/**
 * The outcome of appends whose expectation failed, in one round trip: an append whose first event
 * is stored already is a retry of an append that was stored (its acknowledgement lost), answered
 * by `storedBefore`; the others get a WrongExpectedVersionError with the stream's actual version.
 */
export async function afterConflict(
  pool: Pool,
  appends: readonly { streamId: string; events: readonly NewEvent[]; expected: ExpectedVersion }[],
): Promise<PromiseSettledResult<AppendResult>[]> {
  let rows: { v: number | null; stored: boolean }[];
  try {
    ({ rows } = await pool.query<{ v: number | null; stored: boolean }>(
      `SELECT (SELECT max(e.stream_position) FROM events e WHERE e.stream_id = a.stream_id) AS v,
              EXISTS (SELECT 1 FROM events e WHERE e.event_id = a.first_id) AS stored
       FROM unnest($1::text[], $2::uuid[]) WITH ORDINALITY AS a(stream_id, first_id, ord) ORDER BY a.ord`,
      [appends.map((a) => a.streamId), appends.map((a) => a.events[0]?.id)],
    ));
  } catch (err) {
    return appends.map(() => ({ status: 'rejected', reason: err }));
  }
  return Promise.allSettled(
    appends.map(async (a, i) => {
      const row = rows[i];
      if (row?.stored) return storedBefore(pool, a.streamId, a.events, a.expected);
      const v = row?.v;
      throw new WrongExpectedVersionError(
        a.streamId,
        a.expected,
        v === null || v === undefined ? 'no_stream' : Number(v),
      );
    }),
  );
}

/**
 * An append whose ids are stored already: a retry of an append that was stored (its acknowledgement
 * lost) when they are these events, in this stream, in this order, where `expected` put them; it
 * then gets the first one's result. Otherwise DuplicateEventIdError.
 */
export async function storedBefore(
  pool: Pool,
  streamId: string,
  events: readonly NewEvent[],
  expected: ExpectedVersion,
): Promise<AppendResult> {
  const { rows } = await pool.query<{
    event_id: string;
    stream_id: string;
    stream_position: number;
    tx: string;
    global_position: string;
  }>(
    `SELECT event_id::text, stream_id, stream_position, transaction_id::text AS tx, global_position
     FROM events WHERE event_id = ANY($1::uuid[])`,
    [events.map((e) => e.id)],
  );
  const byId = new Map(rows.map((r) => [r.event_id, r]));
  const stored = events.map((e) => byId.get(e.id.toLowerCase()));
  const first = stored[0];
  const last = stored[stored.length - 1];
  const start = first ? first.stream_position : -1;
  const samePlace =
    stored.every((r, i) => r !== undefined && r.stream_id === streamId && r.stream_position === start + i) &&
    (expected === 'any' || start === (expected === 'no_stream' ? 0 : expected + 1));
  if (samePlace && last) {
    return {
      nextExpectedVersion: Number(last.stream_position),
      position: { commit: BigInt(last.tx), prepare: BigInt(last.global_position) },
    };
  }
  const clash = events.find((e) => byId.has(e.id.toLowerCase())) ?? events[0];
  throw new DuplicateEventIdError(clash?.id ?? '', streamId);
}

/** `afterConflict` of one append: its result, or its error thrown. */
export async function afterConflictOf(
  pool: Pool,
  streamId: string,
  events: readonly NewEvent[],
  expected: ExpectedVersion,
): Promise<AppendResult> {
  const [outcome] = await afterConflict(pool, [{ streamId, events, expected }]);
  if (outcome?.status === 'fulfilled') return outcome.value;
  throw outcome?.reason;
}
