import { defineProjection } from '../../runtime/processing/processor';
import { voiceCloneEdge, voiceCloneStream } from '../domain/voice-clone.decider';

/** Voice clones as `GET /v1/voice_clones…` shows them, with each sample's measurement. */
export const voicesProjection = defineProjection({
  name: 'voice_clones',
  edge: voiceCloneEdge,
  stream: voiceCloneStream,
  tables: ['voice_clones'],
  async apply(tx, event) {
    const id = event.entityId;
    const at = event.metadata.created_at;
    switch (event.type) {
      case 'voice_clone.uploaded':
        await tx.query(
          `INSERT INTO voice_clones (voice_id, tenant_id, name, status, samples, created_at)
           VALUES ($1, $2, $3, 'queued', $4, $5) ON CONFLICT (voice_id) DO NOTHING`,
          [
            id,
            event.metadata.tenant_id,
            event.data.name,
            JSON.stringify(event.data.samples.map((s) => ({ ...s, measurement: null }))),
            at,
          ],
        );
        return;
      case 'voice_clone.training_started':
        await tx.query(`UPDATE voice_clones SET status = 'training', training_started_at = $2 WHERE voice_id = $1`, [
          id,
          at,
        ]);
        return;
      case 'voice_clone.sample_measured':
        await tx.query(
          `UPDATE voice_clones SET samples = jsonb_set(samples, ARRAY[$2::text, 'measurement'], $3::jsonb)
           WHERE voice_id = $1`,
          [id, String(event.data.index), JSON.stringify(event.data.measurement)],
        );
        return;
      case 'voice_clone.model_trained':
        await tx.query('UPDATE voice_clones SET model = $2 WHERE voice_id = $1', [
          id,
          JSON.stringify(event.data.model),
        ]);
        return;
      case 'voice_clone.training_succeeded':
        await tx.query(`UPDATE voice_clones SET status = 'ready', ready_at = $2 WHERE voice_id = $1`, [
          id,
          event.data.ready_at,
        ]);
        return;
      case 'voice_clone.training_failed':
        await tx.query(
          `UPDATE voice_clones SET status = 'failed', error_code = $2, error_message = $3, failed_at = $4
           WHERE voice_id = $1`,
          [id, event.data.error_code, event.data.error_message, at],
        );
        return;
      case 'voice_clone.deleted':
        await tx.query('DELETE FROM voice_clones WHERE voice_id = $1', [id]);
        return;
      default: {
        const unreachable: never = event;
        void unreachable;
      }
    }
  },
});
