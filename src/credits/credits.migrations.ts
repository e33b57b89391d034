import type { QueryRunner } from 'typeorm';
import { ForwardOnlyMigration, type Migration } from '../runtime/bounded-context';

/** Forward-only migrations of the credits context: its read models (projections/). */
export class Credits0000000000140 extends ForwardOnlyMigration {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`
CREATE TABLE IF NOT EXISTS credit_balances (
  tenant_id text PRIMARY KEY,
  balance_cents bigint NOT NULL,
  threshold_cents bigint NOT NULL,
  depleted boolean NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE TABLE IF NOT EXISTS credit_topups (
  topup_id text PRIMARY KEY,
  tenant_id text NOT NULL,
  amount_cents bigint NOT NULL,
  status text NOT NULL,
  processor_payment_intent_id text NOT NULL,
  failure_reason text,
  created_at timestamptz NOT NULL,
  settled_at timestamptz
);
CREATE INDEX IF NOT EXISTS credit_topups_tenant_created ON credit_topups (tenant_id, created_at DESC, topup_id DESC);
`);
  }
}

export const creditsMigrations: readonly Migration[] = [Credits0000000000140];
