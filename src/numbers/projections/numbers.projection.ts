import { defineProjection } from '../../runtime/processor';
import { PHONE_NUMBER_EVENT_TYPES, type PhoneNumberEvent, phoneNumberStream } from '../domain/phone-number.decider';

/** The tenants' registered numbers, as `GET /v1/phone_numbers…` shows them. */
export const numbersProjection = defineProjection<PhoneNumberEvent>({
  name: 'phone_numbers',
  handles: PHONE_NUMBER_EVENT_TYPES,
  stream: phoneNumberStream,
  tables: ['phone_numbers'],
  async apply(tx, event) {
    const at = event.metadata.created_at;
    switch (event.type) {
      case 'phone_number.registered':
        await tx.query(
          `INSERT INTO phone_numbers (phone_number_id, tenant_id, phone_number, agent_config, test_mode, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $6) ON CONFLICT (phone_number_id) DO NOTHING`,
          [
            event.data.phone_number_id,
            event.data.tenant_id,
            event.data.phone_number,
            JSON.stringify(event.data.agent_config),
            event.data.test_mode,
            at,
          ],
        );
        return;
      case 'phone_number.updated':
        await tx.query(
          'UPDATE phone_numbers SET agent_config = $2, test_mode = $3, updated_at = $4 WHERE phone_number_id = $1',
          [event.data.phone_number_id, JSON.stringify(event.data.agent_config), event.data.test_mode, at],
        );
        return;
      case 'phone_number.released':
        await tx.query('DELETE FROM phone_numbers WHERE phone_number_id = $1', [event.data.phone_number_id]);
        return;
      default: {
        const unreachable: never = event;
        void unreachable;
      }
    }
  },
});
