/**
 * The sessions read model folds a batch's changes per session into one statement. Whatever the
 * batching, the rows must be what applying the events one at a time gives: the same history is
 * applied once event by event and once as a single batch, and the two rows must be equal.
 */
import type { StoredEvent } from '../../../src/event-store/event-store.port';
import { inTransaction } from '../../../src/infra/database/transaction';
import { sessionsProjection } from '../../../src/sessions/projections/sessions.projection';
import type { SessionEvent } from '../../../src/sessions/domain/session.decider';
import { createTestDatabase, TestDatabase } from '../../support/database';
import {
  answered,
  at,
  ended,
  PARTIES,
  placed,
  recordingCompleted,
  SESSION_ID,
  turn,
} from '../../support/session-decider-fixtures';

jest.setTimeout(60_000);

const OTHER_ID = 'ses_abcdefghij0123456789';

/** A call held, released, answered (at 5 s, before it was stored at 10 s), talked, disposed, ended and recorded. */
function history(sessionId: string): SessionEvent[] {
  const events: SessionEvent[] = [
    ...placed(),
    { type: 'session.dispatch_held', data: { session_id: SESSION_ID, reason: 'outside_calling_hours' } },
    { type: 'session.dispatch_released', data: { session_id: SESSION_ID } },
    ...answered(1, 5),
    ...turn(2, { role: 'agent', content: 'Hello.', t: 0 }),
    {
      type: 'session.transfer_initiated',
      data: {
        session_id: SESSION_ID,
        transfer_number: '+14155550123',
        to_number: PARTIES.to_number,
        from_number: PARTIES.from_number,
        transferred_at: at(29),
      },
    },
    ended({
      end_reason: 'transferred',
      started_at: at(5),
      ended_at: at(30),
      duration_seconds: 25,
      actual_cost_cents: 7,
    }),
    recordingCompleted(5, 30),
  ];
  // Every event of the fixtures names SESSION_ID; the stream decides whose row it changes.
  return events.map((e) => JSON.parse(JSON.stringify(e).replaceAll(SESSION_ID, sessionId)) as SessionEvent);
}

function stored(sessionId: string, events: SessionEvent[]): StoredEvent[] {
  return events.map((e, i) => ({
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    type: e.type,
    data: e.data as Record<string, unknown>,
    metadata: { tenant_id: 'ten_projection', created_at: at(10) },
    streamId: `session-${sessionId}`,
    streamPosition: i,
    position: { commit: BigInt(i + 1), prepare: BigInt(i + 1) },
  }));
}

describe('sessions projection', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db?.drop();
  });

  const row = async (id: string) => {
    const { rows } = await db.pool.query('SELECT * FROM sessions WHERE session_id = $1', [id]);
    const { session_id, ...rest } = rows[0];
    void session_id;
    return rest;
  };

  it('gives the same row for a history applied as one batch as event by event', async () => {
    for (const event of stored(SESSION_ID, history(SESSION_ID))) {
      await inTransaction(db.pool, (tx) => sessionsProjection.handle(tx, [event]));
    }
    await inTransaction(db.pool, (tx) => sessionsProjection.handle(tx, stored(OTHER_ID, history(OTHER_ID))));

    const oneByOne = await row(SESSION_ID);
    expect(await row(OTHER_ID)).toEqual(oneByOne);
    expect(oneByOne).toMatchObject({
      status: 'completed',
      end_reason: 'transferred',
      hold_reason: null,
      transfer_number: '+14155550123',
      duration_seconds: 25,
      actual_cost_cents: 7,
      recording_status: 'available',
      recording_id: 'rec_abcdefghij0123456789',
      transcript: [{ role: 'agent', content: 'Hello.', t: 0 }],
    });
    // Answered before it was stored: created no later than it started.
    expect(oneByOne.created_at.toISOString()).toBe(at(5));
    expect(oneByOne.started_at.toISOString()).toBe(at(5));
  });

  it('keeps a column the batch cleared cleared, and one it set last set', async () => {
    const id = 'ses_held0123456789abcde';
    const events = history(id).slice(0, 4); // placed, created, held, released
    await inTransaction(db.pool, (tx) => sessionsProjection.handle(tx, stored(id, events.slice(0, 3))));
    expect(await row(id)).toMatchObject({ status: 'queued', hold_reason: 'outside_calling_hours' });
    await inTransaction(db.pool, (tx) => sessionsProjection.handle(tx, stored(id, events.slice(3))));
    expect(await row(id)).toMatchObject({ status: 'queued', hold_reason: null });
  });
});
