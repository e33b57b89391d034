import type { QueryRunner } from 'typeorm';
import { ForwardOnlyMigration, type Migration } from '../runtime/bounded-context';

/**
 * Forward-only migrations of the numbers context: the registered numbers (projection) and the
 * inbound calls in progress (the numbers reactor's own table, written with its checkpoint).
 */
export class Numbers0000000000190 extends ForwardOnlyMigration {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`
CREATE TABLE IF NOT EXISTS phone_numbers (
  phone_number_id text PRIMARY KEY,
  tenant_id text NOT NULL,
  phone_number text NOT NULL UNIQUE,
  agent_config jsonb NOT NULL,
  test_mode boolean NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS phone_numbers_tenant_created ON phone_numbers (tenant_id, created_at DESC, phone_number_id DESC);
CREATE TABLE IF NOT EXISTS inbound_calls (
  session_id text PRIMARY KEY,
  tenant_id text NOT NULL,
  phone_number text NOT NULL
);
`);
  }
}

/**
 * Several tenants may register one number (decision 61): the number is no longer unique, and each
 * row says whether its registration owns the number (the one that takes the gateway's calls, at most
 * one per number). Rows from before were their number's only registration: they own it.
 */
export class Numbers0000000000340 extends ForwardOnlyMigration {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`
ALTER TABLE phone_numbers DROP CONSTRAINT IF EXISTS phone_numbers_phone_number_key;
ALTER TABLE phone_numbers ADD COLUMN IF NOT EXISTS owns boolean NOT NULL DEFAULT true;
ALTER TABLE phone_numbers ALTER COLUMN owns DROP DEFAULT;
CREATE UNIQUE INDEX IF NOT EXISTS phone_numbers_owner ON phone_numbers (phone_number) WHERE owns;
CREATE INDEX IF NOT EXISTS phone_numbers_number ON phone_numbers (phone_number);
`);
  }
}

export const numbersMigrations: readonly Migration[] = [Numbers0000000000190, Numbers0000000000340];
