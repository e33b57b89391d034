import type { QueryRunner } from 'typeorm';
import { ForwardOnlyMigration, type Migration } from '../runtime/bounded-context';

/** Forward-only migrations of the dnc context, run by TypeORM at start (src/infra/database/migrations.ts). */
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

/** Was 0006_dnc. */
export class Dnc0000000000060 extends ForwardOnlyMigration {
  async up(db: QueryRunner): Promise<void> {
    await db.query(DNC_SCHEMA_SQL);
  }
}

export const dncMigrations: readonly Migration[] = [Dnc0000000000060];
