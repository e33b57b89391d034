import type { Migration } from '../runtime/bounded-context';

/** Forward-only migrations of the dnc context, applied in id order at start (src/infra/database/migrations.ts). */
const DNC_SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS dnc_numbers (
  tenant_id text NOT NULL,
  phone_number text NOT NULL,
  source text NOT NULL,
  session_id text,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (tenant_id, phone_number)
);
`;

export const dncMigrations: readonly Migration[] = [{ id: '0006_dnc', sql: DNC_SCHEMA_SQL }];
