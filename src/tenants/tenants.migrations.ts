import type { QueryRunner } from 'typeorm';
import { ForwardOnlyMigration, type Migration } from '../runtime/bounded-context';

/**
 * Was 0002_tenants: read models of the tenants context. Databases from before the split created
 * them in 0002_core (now PlatformTables0000000000020).
 */
export class Tenants0000000000021 extends ForwardOnlyMigration {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`
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
  `);
  }
}

/** Balances moved to the credits ledger (src/credits/, credit_balances). */
export class TenantsDropCreditBalance0000000000141 extends ForwardOnlyMigration {
  async up(db: QueryRunner): Promise<void> {
    await db.query('ALTER TABLE tenants DROP COLUMN IF EXISTS credit_balance_cents');
  }
}

/** The dashboard's one-time sign-in links and browser sessions, stored hashed (decision 46). */
export class DashboardSignIn0000000000200 extends ForwardOnlyMigration {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`
  CREATE TABLE IF NOT EXISTS dashboard_links (
    token_hash text PRIMARY KEY,
    tenant_id text NOT NULL,
    next_path text,
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL,
    used_at timestamptz
  );
  CREATE TABLE IF NOT EXISTS dashboard_sessions (
    session_hash text PRIMARY KEY,
    tenant_id text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL,
    ended_at timestamptz
  );
  `);
  }
}

/**
 * `POST /dashboard/login` looks a tenant up by `lower(email)`, and a suspension or the operator ends
 * a tenant's dashboard sessions (decision 64): indexes, so that neither scans a whole table.
 */
export class TenantsLowerEmail0000000000351 extends ForwardOnlyMigration {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`
  CREATE INDEX IF NOT EXISTS tenants_lower_email ON tenants (lower(email));
  CREATE INDEX IF NOT EXISTS dashboard_sessions_tenant ON dashboard_sessions (tenant_id) WHERE ended_at IS NULL;
  `);
  }
}

export const tenantsMigrations: readonly Migration[] = [
  Tenants0000000000021,
  TenantsDropCreditBalance0000000000141,
  DashboardSignIn0000000000200,
  TenantsLowerEmail0000000000351,
];
