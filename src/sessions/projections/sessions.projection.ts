import type { PoolClient } from 'pg';
import { defineProjection, type Handled } from '../../runtime/processing/processor';
import { sessionEdge, SessionEvent, sessionStream } from '../domain/session.decider';

/** Entries appended to one jsonb array column, by session, in the batch's order. */
class Appends {
  private readonly bySession = new Map<string, unknown[]>();

  add(sessionId: string, entry: unknown): void {
    const entries = this.bySession.get(sessionId);
    if (entries) entries.push(entry);
    else this.bySession.set(sessionId, [entry]);
  }

  /** One statement for every session of the batch (after the batch's inserts, which create the rows). */
  async flush(tx: PoolClient, column: 'transcript' | 'function_invocations' | 'turn_metrics'): Promise<void> {
    if (this.bySession.size === 0) return;
    await tx.query(
      `UPDATE sessions s SET ${column} = s.${column} || u.entries
       FROM unnest($1::text[], $2::jsonb[]) AS u(id, entries) WHERE s.session_id = u.id`,
      [[...this.bySession.keys()], [...this.bySession.values()].map((e) => JSON.stringify(e))],
    );
  }
}

/**
 * New sessions' rows, inserted with one statement for the batch's `session.placed` events (under a
 * burst of calls, one statement per insert was most of the read model's statements). Each event
 * touches its own session's row only, so the inserts may wait until the end of the batch, or until
 * a later event of one of those sessions, without changing the outcome.
 */
class Placements {
  private readonly pending = new Map<string, Handled<SessionEvent & { type: 'session.placed' }>>();

  add(event: Handled<SessionEvent & { type: 'session.placed' }>): void {
    // The first placement of a session wins, as with ON CONFLICT DO NOTHING one by one.
    if (!this.pending.has(event.entityId)) this.pending.set(event.entityId, event);
  }

  has(sessionId: string): boolean {
    return this.pending.has(sessionId);
  }

  async flush(tx: PoolClient): Promise<void> {
    if (this.pending.size === 0) return;
    const events = [...this.pending.values()];
    this.pending.clear();
    const column = <T>(of: (e: (typeof events)[number]) => T): T[] => events.map(of);
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
}

/**
 * The sessions read model behind GET /v1/sessions, transcripts and recordings. New sessions' rows are
 * inserted with one statement per batch, and so are transcript entries, turn metrics and function
 * invocations (most of a call's events) appended; the other events update their session's row one by
 * one, in order.
 */
export const sessionsProjection = defineProjection({
  name: 'sessions',
  edge: sessionEdge,
  stream: sessionStream,
  tables: ['sessions'],
  async applyBatch(tx, events) {
    const placed = new Placements();
    const transcripts = new Appends();
    const invocations = new Appends();
    const metrics = new Appends();
    for (const event of events) {
      if (event.type === 'session.placed') {
        placed.add(event);
        continue;
      }
      // A session's own later events find its row: its pending insert goes first.
      if (placed.has(event.entityId)) await placed.flush(tx);
      await applyOne(tx, event, transcripts, invocations, metrics);
    }
    await placed.flush(tx);
    await transcripts.flush(tx, 'transcript');
    await invocations.flush(tx, 'function_invocations');
    await metrics.flush(tx, 'turn_metrics');
  },
});

async function applyOne(
  tx: PoolClient,
  event: Handled<SessionEvent>,
  transcripts: Appends,
  invocations: Appends,
  metrics: Appends,
): Promise<void> {
  const id = event.entityId;
  const set = (sql: string, params: unknown[]) =>
    tx.query(`UPDATE sessions SET ${sql} WHERE session_id = $1`, [id, ...params]);
  switch (event.type) {
    case 'session.placed': {
      const d = event.data;
      await tx.query(
        `INSERT INTO sessions (session_id, tenant_id, status, to_number, from_number, campaign_id, contact_id,
               client_reference_id, voice_id, test_mode, created_at, email, first_name, last_name, direction)
             VALUES ($1, $2, 'queued', $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
             ON CONFLICT (session_id) DO NOTHING`,
        [
          id,
          event.metadata.tenant_id,
          d.to_number,
          d.from_number,
          d.campaign_id,
          d.contact_id,
          d.client_reference_id,
          d.voice_id,
          d.test_mode,
          event.metadata.created_at,
          d.email,
          d.first_name,
          d.last_name,
          d.direction,
        ],
      );
      break;
    }
    case 'session.dispatch_held':
      await set(`hold_reason = $2`, [event.data.reason]);
      break;
    case 'session.dispatch_released':
      await set(`hold_reason = NULL`, []);
      break;
    case 'session.started':
      // A room's session starts at the join, before it was stored: it was created then too (created_at ≤ started_at).
      await set(`status = 'in_progress', started_at = $2, hold_reason = NULL, created_at = LEAST(created_at, $2)`, [
        event.data.started_at,
      ]);
      break;
    case 'session.transcript_appended':
      transcripts.add(id, event.data.entry);
      break;
    case 'session.turn_measured':
      metrics.add(id, event.data.turn);
      break;
    case 'session.function_invoked':
      invocations.add(id, event.data.invocation);
      break;
    case 'session.agent_disposition_given':
      await set('agent_disposition = $2', [
        JSON.stringify({ code: event.data.code, note: event.data.note, given_at: event.data.at }),
      ]);
      break;
    case 'session.transfer_initiated':
      await set('transfer_number = $2', [event.data.transfer_number]);
      break;
    case 'session.opt_out_detected':
      await set('opted_out = true', []);
      break;
    case 'session.consent_refused':
      await set('consent_refused = true', []);
      break;
    case 'session.ended':
    case 'session.failed':
      await set(
        'status = $2, end_reason = $3, ended_at = $4, duration_seconds = $5, actual_cost_cents = $6, hold_reason = NULL',
        [
          event.data.status,
          event.data.end_reason,
          event.data.ended_at,
          event.data.duration_seconds,
          event.data.actual_cost_cents,
        ],
      );
      break;
    case 'session.recording_completed':
      await set(`recording_id = $2, recording_status = 'available', recording_url = $3`, [
        event.data.recording_id,
        event.data.recording_url,
      ]);
      break;
    case 'session.opt_out_recording_pending_purge':
      await set(`recording_status = 'pending_purge', purge_after = $2`, [event.data.purge_after]);
      break;
    case 'session.opt_out_recording_purged':
      await set(`recording_status = 'purged'`, []);
      break;
    case 'session.created':
    case 'session.signal_applied':
    case 'function.timeout':
    case 'session.disposition_set':
      break;
    default: {
      const unreachable: never = event;
      void unreachable;
    }
  }
}
