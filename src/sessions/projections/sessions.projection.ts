import { defineProjection } from '../../runtime/processor';
import { SESSION_EVENT_TYPES, SessionEvent, sessionStream } from '../domain/session.decider';

/** The sessions read model behind GET /v1/sessions, transcripts and recordings. */
export const sessionsProjection = defineProjection<SessionEvent>({
  name: 'sessions',
  handles: SESSION_EVENT_TYPES,
  stream: sessionStream,
  tables: ['sessions'],
  async apply(tx, event) {
    const id = event.entityId;
    const set = (sql: string, params: unknown[]) =>
      tx.query(`UPDATE sessions SET ${sql} WHERE session_id = $1`, [id, ...params]);
    switch (event.type) {
      case 'session.placed': {
        const d = event.data;
        await tx.query(
          `INSERT INTO sessions (session_id, tenant_id, status, to_number, from_number, campaign_id, contact_id,
               client_reference_id, voice_id, test_mode, created_at)
             VALUES ($1, $2, 'queued', $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (session_id) DO NOTHING`,
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
          ],
        );
        break;
      }
      case 'session.started':
        await set(`status = 'in_progress', started_at = $2`, [event.data.started_at]);
        break;
      case 'session.transcript_appended':
        await set('transcript = transcript || $2::jsonb', [JSON.stringify([event.data.entry])]);
        break;
      case 'session.function_invoked':
        await set('function_invocations = function_invocations || $2::jsonb', [
          JSON.stringify([event.data.invocation]),
        ]);
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
        await set('status = $2, end_reason = $3, ended_at = $4, duration_seconds = $5, actual_cost_cents = $6', [
          event.data.status,
          event.data.end_reason,
          event.data.ended_at,
          event.data.duration_seconds,
          event.data.actual_cost_cents,
        ]);
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
        break;
      default: {
        const unreachable: never = event;
        void unreachable;
      }
    }
  },
});
