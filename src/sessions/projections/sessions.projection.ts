import type { PoolClient } from 'pg';
import { defineProjection, type Handled } from '../../runtime/processing/processor';
import { sessionEdge, SessionEvent, sessionStream } from '../domain/session.decider';
import { RowWrites } from './session-row-writes';

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

/** Events that write nothing in their turn: appended at the end of the batch, or not kept here. */
const NOT_WRITTEN_NOW = new Set<string>([
  'session.transcript_appended',
  'session.turn_measured',
  'session.function_invoked',
  'session.created',
  'session.signal_applied',
  'function.timeout',
  'session.disposition_set',
]);

/**
 * The sessions read model behind GET /v1/sessions, transcripts and recordings. A batch's new sessions
 * and starts are written with one statement each (`RowWrites`), and so are transcript entries,
 * turn metrics and function invocations (most of a call's events) appended; the other events update
 * their session's row one by one, in order.
 */
export const sessionsProjection = defineProjection({
  name: 'sessions',
  edge: sessionEdge,
  stream: sessionStream,
  tables: ['sessions'],
  async applyBatch(tx, events) {
    const rows = new RowWrites();
    const transcripts = new Appends();
    const invocations = new Appends();
    const metrics = new Appends();
    for (const event of events) {
      // A session's later write finds its row as the writes before it left it (appends come last anyway).
      if (!NOT_WRITTEN_NOW.has(event.type) && rows.has(event.entityId)) await rows.flush(tx);
      if (!rows.add(event)) await applyOne(tx, event, transcripts, invocations, metrics);
    }
    await rows.flush(tx);
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
    case 'session.dispatch_held':
      await set(`hold_reason = $2`, [event.data.reason]);
      break;
    case 'session.dispatch_released':
      await set(`hold_reason = NULL`, []);
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
    case 'session.placed':
    case 'session.started':
      break; // written by RowWrites
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
