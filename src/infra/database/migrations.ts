import type { Pool } from 'pg';
import { EVENTS_SCHEMA_SQL } from '../../event-store/postgres/postgres-event-store';
import type { Migration } from '../../runtime/bounded-context';

/**
 * Forward-only migrations, applied at start under an advisory lock so that several instances
 * starting together apply each once. The platform's own tables are here; each bounded context
 * brings its own (`<context>.migrations.ts`, listed by its module). All run in id order.
 */
export const PLATFORM_MIGRATIONS: readonly Migration[] = [
  { id: '0001_events', sql: EVENTS_SCHEMA_SQL },
  {
    // The tenants tables were here before contexts owned their migrations (now 0002_tenants).
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
  `,
  },

  // Stored idempotent responses can carry a secret shown once (a new API key): sealed like other secrets.
  {
    id: '0008_idempotency_sealed',
    sql: 'ALTER TABLE idempotency_keys ADD COLUMN IF NOT EXISTS response_sealed text; ALTER TABLE idempotency_keys DROP COLUMN IF EXISTS response_body',
  },
];

export async function migrate(pool: Pool, contextMigrations: readonly Migration[] = []): Promise<void> {
  const migrations = [...PLATFORM_MIGRATIONS, ...contextMigrations].sort((a, b) => a.id.localeCompare(b.id));
  const ids = new Set<string>();
  for (const m of migrations) {
    if (ids.has(m.id)) throw new Error(`two migrations have the id ${m.id}`);
    ids.add(m.id);
  }
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
