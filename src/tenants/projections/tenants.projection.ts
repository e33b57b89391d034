import { defineProjection } from '../../runtime/processing/processor';
import { tenantEdge, tenantStream } from '../domain/tenant.decider';

/**
 * Read models `tenants` and `api_keys`, used by the guards and the operator API. A suspension also
 * ends the tenant's dashboard sessions in the same transaction (decision 64); a replay of an old one
 * (a rebuild) ends no session opened after it.
 */
export const tenantsProjection = defineProjection({
  name: 'tenants',
  edge: tenantEdge,
  stream: tenantStream,
  tables: ['api_keys', 'tenants'],
  async apply(tx, event) {
    const tenantId = event.entityId;
    const at = event.metadata.created_at;
    switch (event.type) {
      case 'tenant.created':
        await tx.query(
          `INSERT INTO tenants (tenant_id, name, email, plan, status, created_at) VALUES ($1, $2, $3, $4, 'active', $5)
             ON CONFLICT (tenant_id) DO NOTHING`,
          [tenantId, event.data.name, event.data.email, event.data.plan, at],
        );
        break;
      case 'tenant.api_key_issued':
        await tx.query(
          `INSERT INTO api_keys (key_prefix, tenant_id, key_hash, created_at) VALUES ($1, $2, $3, $4)
             ON CONFLICT (key_prefix) DO NOTHING`,
          [event.data.key_prefix, tenantId, event.data.key_hash, at],
        );
        break;
      case 'tenant.api_key_revoked':
        await tx.query('UPDATE api_keys SET revoked_at = $2 WHERE key_prefix = $1', [event.data.key_prefix, at]);
        break;
      case 'tenant.credit_granted':
        // Legacy: the credits ledger (src/credits/) keeps balances now.
        break;
      case 'tenant.suspended':
        await tx.query(`UPDATE tenants SET status = 'suspended' WHERE tenant_id = $1`, [tenantId]);
        // Applied as it happens (within minutes of the event): every session, including one opened
        // since the event was stored; replayed later (a rebuild): only those opened before it.
        await tx.query(
          `UPDATE dashboard_sessions SET ended_at = now()
           WHERE tenant_id = $1 AND ended_at IS NULL
             AND created_at <= CASE WHEN $2::timestamptz > now() - interval '10 minutes' THEN now() ELSE $2::timestamptz END`,
          [tenantId, at],
        );
        break;
      case 'tenant.reactivated':
        await tx.query(`UPDATE tenants SET status = 'active' WHERE tenant_id = $1`, [tenantId]);
        break;
      default: {
        const unreachable: never = event;
        void unreachable;
      }
    }
  },
});
