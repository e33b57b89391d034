import type { Migration } from '../runtime/bounded-context';

/** Read models of the tenants context. Databases from before the split created them in `0002_core`. */
export const tenantsMigrations: readonly Migration[] = [
  {
    id: '0002_tenants',
    sql: `
  CREATE TABLE IF NOT EXISTS tenants (
    tenant_id text PRIMARY KEY,
    name text NOT NULL,
    email text,
    plan text NOT NULL,
    status text NOT NULL,
    credit_balance_cents bigint NOT NULL DEFAULT 0,
    created_at timestamptz NOT NULL
  );
  CREATE TABLE IF NOT EXISTS api_keys (
    key_prefix text PRIMARY KEY,
    tenant_id text NOT NULL,
    key_hash text NOT NULL,
    created_at timestamptz NOT NULL,
    revoked_at timestamptz
  );
  CREATE INDEX IF NOT EXISTS api_keys_tenant ON api_keys (tenant_id);
  `,
  },
];
