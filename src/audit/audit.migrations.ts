import type { Migration } from '../runtime/bounded-context';

/** Forward-only migrations of the audit context, applied in id order at start (src/infra/database/migrations.ts). */
const AUDIT_SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS audit_events (
  seq bigserial PRIMARY KEY,
  event_id uuid NOT NULL UNIQUE,
  tenant_id text NOT NULL,
  type text NOT NULL,
  session_id text,
  envelope jsonb NOT NULL
);
CREATE INDEX IF NOT EXISTS audit_events_tenant ON audit_events (tenant_id, seq);
CREATE INDEX IF NOT EXISTS audit_events_session ON audit_events (tenant_id, session_id, seq) WHERE session_id IS NOT NULL;
`;

export const auditMigrations: readonly Migration[] = [
  { id: '0003_audit_events', sql: AUDIT_SCHEMA_SQL },
  // json keeps the envelope's key order (id, type, tenant_id, created_at, data); jsonb sorts keys.
  {
    id: '0007_audit_envelope_json',
    sql: 'ALTER TABLE audit_events ALTER COLUMN envelope TYPE json USING envelope::json',
  },
];
