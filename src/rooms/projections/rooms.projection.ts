import { defineProjection } from '../../runtime/processing/processor';
import { roomEdge, roomStream } from '../domain/room.decider';

/** Rooms as `GET /v1/rooms…` and the landing page show them: one row per room. */
export const roomsProjection = defineProjection({
  name: 'rooms',
  edge: roomEdge,
  stream: roomStream,
  tables: ['rooms'],
  async apply(tx, event) {
    const set = (sql: string, params: unknown[]) =>
      tx.query(`UPDATE rooms SET ${sql} WHERE room_id = $1`, [event.entityId, ...params]);
    const at = event.metadata.created_at;
    switch (event.type) {
      case 'room.defined': {
        const d = event.data;
        await tx.query(
          `INSERT INTO rooms (room_id, tenant_id, status, room_url, participant_id, session_id, client_reference_id,
             agent_config, voice_id, test_scenario, expires_at, created_at)
           VALUES ($1, $2, 'created', '', $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (room_id) DO NOTHING`,
          [
            d.room_id,
            event.metadata.tenant_id,
            d.participant_id,
            d.session_id,
            d.client_reference_id,
            d.agent_config === null ? null : JSON.stringify(d.agent_config),
            d.voice_id,
            d.test_scenario,
            d.expires_at,
            at,
          ],
        );
        return;
      }
      case 'room.created':
        await set('room_url = $2', [event.data.room_url]);
        return;
      case 'room.landing_viewed':
        await set(`status = 'landing_viewed', landing_viewed_at = $2`, [event.data.viewed_at]);
        return;
      case 'room.joined':
        await set(`status = 'joined', joined_at = $2`, [event.data.joined_at]);
        return;
      case 'room.hung_up':
        await set('end_reason = $2', [event.data.reason]);
        return;
      case 'room.call_failed':
        return; // room.failed, right after it, sets the row

      case 'room.completed':
        await set(`status = 'completed', completed_at = $2, duration_seconds = $3`, [
          event.data.completed_at,
          event.data.duration_seconds,
        ]);
        return;
      case 'room.expired':
        await set(`status = 'expired', expired_at = $2`, [event.data.expired_at]);
        return;
      case 'room.failed':
        await set(`status = 'failed', failed_at = $2, error_code = $3, error_message = $4`, [
          at,
          event.data.error_code,
          event.data.error_message,
        ]);
        return;
      case 'room.recorded':
        await set('recording_id = $2', [event.data.recording_id]);
        return;
      default: {
        const unreachable: never = event;
        void unreachable;
      }
    }
  },
});
