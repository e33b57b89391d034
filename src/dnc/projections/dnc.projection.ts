import { defineProjection } from '../../runtime/processor';
import { DNC_EVENT_TYPES, DncEvent } from '../domain/dnc.decider';

export const dncProjection = defineProjection<DncEvent>({
  name: 'dnc_numbers',
  handles: DNC_EVENT_TYPES,
  tables: ['dnc_numbers'],
  async apply(tx, event) {
    const tenantId = event.metadata.tenant_id;
    if (event.type === 'dnc.number_added') {
      await tx.query(
        `INSERT INTO dnc_numbers (tenant_id, phone_number, source, session_id, created_at) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (tenant_id, phone_number) DO NOTHING`,
        [tenantId, event.data.phone_number, event.data.source, event.data.session_id, event.metadata.created_at],
      );
    } else {
      await tx.query('DELETE FROM dnc_numbers WHERE tenant_id = $1 AND phone_number = $2', [
        tenantId,
        event.data.phone_number,
      ]);
    }
  },
});
