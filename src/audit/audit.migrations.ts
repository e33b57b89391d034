import type { QueryRunner } from 'typeorm';
import { ForwardOnlyMigration, type Migration } from '../runtime/bounded-context';

/** Forward-only migrations of the audit context, run by TypeORM at start (src/infra/database/migrations.ts). */
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

/** Was 0003_audit_events. */
export class AuditEvents0000000000030 extends ForwardOnlyMigration {
  async up(db: QueryRunner): Promise<void> {
    await db.query(AUDIT_SCHEMA_SQL);
  }
}

/**
 * Was 0007_audit_envelope_json. json keeps the envelope's key order (id, type, tenant_id,
 * created_at, data); jsonb sorts keys. Re-running it on a json column changes nothing.
 */
export class AuditEnvelopeJson0000000000070 extends ForwardOnlyMigration {
  async up(db: QueryRunner): Promise<void> {
    await db.query('ALTER TABLE audit_events ALTER COLUMN envelope TYPE json USING envelope::json');
  }
}

export const auditMigrations: readonly Migration[] = [AuditEvents0000000000030, AuditEnvelopeJson0000000000070];
