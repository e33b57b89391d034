import type { Pool } from 'pg';
import { EVENTS_SCHEMA_SQL } from '../../event-store/postgres/postgres-event-store';
import { WEBHOOKS_SCHEMA_SQL } from '../../webhooks/webhooks.migrations';
import { SESSIONS_SCHEMA_SQL } from '../../sessions/projections/sessions.projection';
import { DNC_SCHEMA_SQL } from '../../dnc/projections/dnc.projection';
import { AUDIT_SCHEMA_SQL } from '../../audit/projections/audit-events.projection';

/**
 * Forward-only migrations, applied at start under an advisory lock so that several instances
 * starting together apply each once. A feature adds its tables by adding an entry at the end.
 */
export interface Migration {
  readonly id: string;
  readonly sql: string;
}

const migrations: Migration[] = [];

export function registerMigration(migration: Migration): void {
  if (!migrations.some((m) => m.id === migration.id)) migrations.push(migration);
}

registerMigration({ id: '0001_events', sql: EVENTS_SCHEMA_SQL });
registerMigration({
  id: '0002_core',
  sql: `
  CREATE TABLE IF NOT EXISTS projection_checkpoints (
    name text PRIMARY KEY,
    commit_position bigint NOT NULL,
    prepare_position bigint NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now()
  );
  CREATE TABLE IF NOT EXISTS timers (
    timer_id uuid PRIMARY KEY,
    kind text NOT NULL,
    dedupe_key text UNIQUE,
    due_at timestamptz NOT NULL,
    payload jsonb NOT NULL,
    attempts integer NOT NULL DEFAULT 0,
    locked_until timestamptz,
    last_error text,
    created_at timestamptz NOT NULL DEFAULT now()
  );
  CREATE INDEX IF NOT EXISTS timers_due ON timers (due_at);
  CREATE TABLE IF NOT EXISTS idempotency_keys (
    tenant_id text NOT NULL,
    key text NOT NULL,
    method text NOT NULL,
    path text NOT NULL,
    request_hash text NOT NULL,
    status text NOT NULL,
    response_status integer,
    response_body jsonb,
    locked_until timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (tenant_id, key)
  );
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
});

registerMigration({ id: '0003_audit_events', sql: AUDIT_SCHEMA_SQL });
registerMigration({ id: '0004_webhooks', sql: WEBHOOKS_SCHEMA_SQL });
registerMigration({ id: '0005_sessions', sql: SESSIONS_SCHEMA_SQL });
registerMigration({ id: '0006_dnc', sql: DNC_SCHEMA_SQL });
// json keeps the envelope's key order (id, type, tenant_id, created_at, data); jsonb sorts keys.
registerMigration({
  id: '0007_audit_envelope_json',
  sql: 'ALTER TABLE audit_events ALTER COLUMN envelope TYPE json USING envelope::json',
});
// Stored idempotent responses can carry a secret shown once (a new API key): sealed like other secrets.
registerMigration({
  id: '0008_idempotency_sealed',
  sql: 'ALTER TABLE idempotency_keys ADD COLUMN IF NOT EXISTS response_sealed text; ALTER TABLE idempotency_keys DROP COLUMN IF EXISTS response_body',
});

export async function migrate(pool: Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock(7210001)');
    await client.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (id text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const { rows } = await client.query<{ id: string }>('SELECT id FROM schema_migrations');
    const applied = new Set(rows.map((r) => r.id));
    for (const migration of migrations) {
      if (applied.has(migration.id)) continue;
      await client.query('BEGIN');
      try {
        await client.query(migration.sql);
        await client.query('INSERT INTO schema_migrations (id) VALUES ($1)', [migration.id]);
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK');
        throw err;
      }
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock(7210001)').catch(() => undefined);
    client.release();
  }
}
