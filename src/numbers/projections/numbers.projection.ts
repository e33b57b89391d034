import { defineProjection } from '../../runtime/processing/processor';
import { type PhoneNumberEvent, phoneNumberEdge, phoneNumberStream } from '../domain/phone-number.decider';

type Projected = Extract<
  PhoneNumberEvent,
  {
    type:
      | 'phone_number.registered'
      | 'phone_number.assigned'
      | 'phone_number.updated'
      | 'phone_number.released'
      | 'phone_number.verified';
  }
>;

/** The tenants' registered numbers, as `GET /v1/phone_numbers…` shows them, and who owns each number. */
export const numbersProjection = defineProjection<Projected>({
  name: 'phone_numbers',
  edge: phoneNumberEdge.only(
    'phone_number.registered',
    'phone_number.assigned',
    'phone_number.updated',
    'phone_number.released',
    'phone_number.verified',
  ),
  stream: phoneNumberStream,
  tables: ['phone_numbers'],
  async apply(tx, event) {
    const at = event.metadata.created_at;
    switch (event.type) {
      case 'phone_number.registered':
      case 'phone_number.assigned': {
        const d = event.data;
        // The number changes hands first: at most one registration owns it.
        if (event.type === 'phone_number.assigned' && event.data.replaced_phone_number_id !== null)
          await tx.query('UPDATE phone_numbers SET owns = false, updated_at = $2 WHERE phone_number_id = $1', [
            event.data.replaced_phone_number_id,
            at,
          ]);
        const owns = event.type === 'phone_number.assigned' || event.data.ownership_shown !== false;
        await tx.query(
          `INSERT INTO phone_numbers (phone_number_id, tenant_id, phone_number, agent_config, test_mode, owns, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $7)
           ON CONFLICT (phone_number_id) DO UPDATE SET agent_config = $4, test_mode = $5, owns = $6, updated_at = $7`,
          [d.phone_number_id, d.tenant_id, d.phone_number, JSON.stringify(d.agent_config), d.test_mode, owns, at],
        );
        return;
      }
      case 'phone_number.updated':
        await tx.query(
          'UPDATE phone_numbers SET agent_config = $2, test_mode = $3, updated_at = $4 WHERE phone_number_id = $1',
          [event.data.phone_number_id, JSON.stringify(event.data.agent_config), event.data.test_mode, at],
        );
        return;
      case 'phone_number.released':
        await tx.query('DELETE FROM phone_numbers WHERE phone_number_id = $1', [event.data.phone_number_id]);
        return;
      case 'phone_number.verified':
        await tx.query('UPDATE phone_numbers SET owns = true, updated_at = $2 WHERE phone_number_id = $1', [
          event.data.phone_number_id,
          at,
        ]);
        return;
      default: {
        const unreachable: never = event;
        void unreachable;
      }
    }
  },
});
