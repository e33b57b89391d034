import type { DomainEvent } from '../../kernel/decider';
import { defineProjection } from '../../runtime/processing/processor';
import { defineEdge } from '../../kernel/event-edge';
import { dncEdge } from '../domain/dnc.decider';

/**
 * A caller's opt-out (the sessions context's `session.opt_out_detected`), as far as this read model
 * needs it. Its number is on the list from the page that stores the opt-out on: the
 * `dnc.number_added` that the opt-out also causes (through a timer) comes a moment later, and a
 * campaign's next dispatch must not be able to pass in between (the pacer is woken by the call's
 * outcome, which a later page carries).
 */
type OptOutDetected = DomainEvent<'session.opt_out_detected', { phone_number: string | null; session_id: string }>;
const optOutEdge = defineEdge<OptOutDetected>({ 'session.opt_out_detected': { phone_number: true, session_id: true } });

export const dncProjection = defineProjection({
  name: 'dnc_numbers',
  edge: dncEdge.and(optOutEdge),
  tables: ['dnc_numbers'],
  async apply(tx, event) {
    const tenantId = event.metadata.tenant_id;
    if (event.type === 'dnc.number_added' || event.type === 'session.opt_out_detected') {
      const source = event.type === 'session.opt_out_detected' ? 'opt_out' : event.data.source;
      if (!tenantId || !event.data.phone_number) return;
      await tx.query(
        `INSERT INTO dnc_numbers (tenant_id, phone_number, source, session_id, created_at) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (tenant_id, phone_number) DO NOTHING`,
        [tenantId, event.data.phone_number, source, event.data.session_id, event.metadata.created_at],
      );
    } else {
      await tx.query('DELETE FROM dnc_numbers WHERE tenant_id = $1 AND phone_number = $2', [
        tenantId,
        event.data.phone_number,
      ]);
    }
  },
});
