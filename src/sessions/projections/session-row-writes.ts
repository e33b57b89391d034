import type { PoolClient } from 'pg';
import type { Handled } from '../../runtime/processing/processor';
import type { SessionEvent } from '../domain/session.decider';

type Placed = Handled<SessionEvent & { type: 'session.placed' }>;
type Started = Handled<SessionEvent & { type: 'session.started' }>;

/**
 * The sessions read model's most frequent row writes, one statement per kind for a whole batch: the
 * rows of new sessions (`session.placed`) and their starts. Under a burst of calls, one statement per
 * event was most of the read model's statements. (An end stays one statement per event: its numbers
 * go to integer columns an operator may have widened, which a typed array here would not follow.)
 *
 * Every event writes its own session's row only, so a write may wait for the end of the batch
 * without changing the outcome, provided that a session's writes stay in order: a session holds at
 * most one pending write, and the projection flushes them all before another event of a session
 * that has one (`has`).
 */
export class RowWrites {
  private readonly placed = new Map<string, Placed>();
  private readonly started = new Map<string, Started>();

  has(sessionId: string): boolean {
    return this.placed.has(sessionId) || this.started.has(sessionId);
  }

  /** Takes the event's write if it is one of these kinds (its session has none pending); false otherwise. */
  add(event: Handled<SessionEvent>): boolean {
    switch (event.type) {
      case 'session.placed':
        this.placed.set(event.entityId, event);
        return true;
      case 'session.started':
        this.started.set(event.entityId, event);
        return true;
      default:
        return false;
    }
  }

  /** Writes what is pending: inserts first, so that no update misses a row inserted in the same batch. */
  async flush(tx: PoolClient): Promise<void> {
    const placed = [...this.placed.values()];
    const started = [...this.started.values()];
    this.placed.clear();
    this.started.clear();
    if (placed.length > 0) await insertPlaced(tx, placed);
    if (started.length > 0) await updateStarted(tx, started);
  }
}

async function insertPlaced(tx: PoolClient, events: readonly Placed[]): Promise<void> {
  const column = <T>(of: (e: Placed) => T): T[] => events.map(of);
  await tx.query(
    `INSERT INTO sessions (session_id, tenant_id, status, to_number, from_number, campaign_id, contact_id,
           client_reference_id, voice_id, test_mode, created_at, email, first_name, last_name, direction)
     SELECT u.session_id, u.tenant_id, 'queued', u.to_number, u.from_number, u.campaign_id, u.contact_id,
            u.client_reference_id, u.voice_id, u.test_mode, u.created_at, u.email, u.first_name, u.last_name,
            u.direction
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
                 $9::boolean[], $10::timestamptz[], $11::text[], $12::text[], $13::text[], $14::text[])
       AS u(session_id, tenant_id, to_number, from_number, campaign_id, contact_id, client_reference_id, voice_id,
            test_mode, created_at, email, first_name, last_name, direction)
     ON CONFLICT (session_id) DO NOTHING`,
    [
      column((e) => e.entityId),
      column((e) => e.metadata.tenant_id),
      column((e) => e.data.to_number),
      column((e) => e.data.from_number),
      column((e) => e.data.campaign_id),
      column((e) => e.data.contact_id),
      column((e) => e.data.client_reference_id),
      column((e) => e.data.voice_id),
      column((e) => e.data.test_mode),
      column((e) => e.metadata.created_at),
      column((e) => e.data.email),
      column((e) => e.data.first_name),
      column((e) => e.data.last_name),
      column((e) => e.data.direction),
    ],
  );
}

// A room's session starts at the join, before it was stored: it was created then too (created_at ≤ started_at).
async function updateStarted(tx: PoolClient, events: readonly Started[]): Promise<void> {
  await tx.query(
    `UPDATE sessions s SET status = 'in_progress', started_at = u.started_at, hold_reason = NULL,
       created_at = LEAST(s.created_at, u.started_at)
     FROM unnest($1::text[], $2::timestamptz[]) AS u(id, started_at) WHERE s.session_id = u.id`,
    [events.map((e) => e.entityId), events.map((e) => e.data.started_at)],
  );
}
