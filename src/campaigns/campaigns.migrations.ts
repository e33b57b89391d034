import type { QueryRunner } from 'typeorm';
import { ForwardOnlyMigration, type Migration } from '../runtime/bounded-context';

/** Forward-only migrations of the campaigns context: its read models (projections/). */
const CAMPAIGNS_SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS campaigns (
  campaign_id text PRIMARY KEY,
  tenant_id text NOT NULL,
  name text NOT NULL,
  status text NOT NULL,
  from_number text NOT NULL,
  test_mode boolean NOT NULL,
  agent_config jsonb,
  settings jsonb NOT NULL,
  total_contacts integer NOT NULL DEFAULT 0,
  pending_contacts integer NOT NULL DEFAULT 0,
  dispatched_contacts integer NOT NULL DEFAULT 0,
  completed_contacts integer NOT NULL DEFAULT 0,
  failed_contacts integer NOT NULL DEFAULT 0,
  skipped_contacts integer NOT NULL DEFAULT 0,
  next_open_at timestamptz,
  created_at timestamptz NOT NULL,
  started_at timestamptz,
  paused_at timestamptz,
  completed_at timestamptz
);
CREATE INDEX IF NOT EXISTS campaigns_tenant_created ON campaigns (tenant_id, created_at DESC, campaign_id DESC);
CREATE TABLE IF NOT EXISTS campaign_contacts (
  contact_id text PRIMARY KEY,
  campaign_id text NOT NULL,
  tenant_id text NOT NULL,
  ordinal integer NOT NULL,
  phone_number text NOT NULL,
  email text,
  first_name text,
  last_name text,
  timezone text,
  zones jsonb NOT NULL,
  status text NOT NULL,
  skip_reason text,
  session_id text,
  dispatched_at timestamptz,
  finished_at timestamptz,
  duration_seconds integer,
  actual_cost_cents integer,
  created_at timestamptz NOT NULL,
  UNIQUE (campaign_id, ordinal)
);
`;

export class Campaigns0000000000120 extends ForwardOnlyMigration {
  async up(db: QueryRunner): Promise<void> {
    await db.query(CAMPAIGNS_SCHEMA_SQL);
  }
}

export const campaignsMigrations: readonly Migration[] = [Campaigns0000000000120];
