import type { PoolClient } from 'pg';
import { defineProjection, type Handled } from '../../runtime/processing/processor';
import { ledgerEdge, LedgerEvent, ledgerStream } from '../domain/ledger.decider';

/** The balance as of `event`: one row per tenant, created at its first ledger event. */
async function setBalance(tx: PoolClient, event: Handled<LedgerEvent>, set: string, params: unknown[]): Promise<void> {
  await tx.query(
    `INSERT INTO credit_balances (tenant_id, balance_cents, threshold_cents, depleted, updated_at)
     VALUES ($1, 0, 0, false, $2) ON CONFLICT (tenant_id) DO NOTHING`,
    [event.entityId, event.metadata.created_at],
  );
  await tx.query(`UPDATE credit_balances SET updated_at = $2${set} WHERE tenant_id = $1`, [
    event.entityId,
    event.metadata.created_at,
    ...params,
  ]);
}

/** Balances and top-ups, as `GET /v1/credits…` shows them. */
export const creditsProjection = defineProjection({
  name: 'credits',
  edge: ledgerEdge,
  stream: ledgerStream,
  tables: ['credit_balances', 'credit_topups'],
  async apply(tx, event) {
    switch (event.type) {
      case 'credits.granted':
      case 'credits.debited':
        await setBalance(tx, event, ', balance_cents = $3', [event.data.balance_cents]);
        return;
      case 'credits.topup_settled':
        await setBalance(tx, event, ', balance_cents = $3', [event.data.balance_cents]);
        // A failed top-up whose payment then succeeded (the processor's word) drops its failure reason.
        await tx.query(
          `UPDATE credit_topups SET status = 'succeeded', failure_reason = NULL, settled_at = $2 WHERE topup_id = $1`,
          [event.data.topup_id, event.metadata.created_at],
        );
        return;
      case 'credits.threshold_changed':
        await setBalance(tx, event, ', threshold_cents = $3', [event.data.threshold_cents]);
        return;
      case 'credits.depleted':
        await setBalance(tx, event, ', depleted = true', []);
        return;
      case 'credits.replenished':
        await setBalance(tx, event, ', depleted = false', []);
        return;
      case 'credits.topup_requested':
        await tx.query(
          `INSERT INTO credit_topups (topup_id, tenant_id, amount_cents, status, processor_payment_intent_id, created_at)
           VALUES ($1, $2, $3, 'pending', $4, $5) ON CONFLICT (topup_id) DO NOTHING`,
          [
            event.data.topup_id,
            event.entityId,
            event.data.amount_cents,
            event.data.processor_payment_intent_id,
            event.metadata.created_at,
          ],
        );
        return;
      case 'credits.topup_failed':
        await tx.query(
          `UPDATE credit_topups SET status = 'failed', failure_reason = $2, settled_at = $3 WHERE topup_id = $1`,
          [event.data.topup_id, event.data.reason, event.metadata.created_at],
        );
        return;
      case 'credits.low_balance':
      case 'credits.topup_succeeded':
        return;
      default: {
        const unreachable: never = event;
        void unreachable;
      }
    }
  },
});
