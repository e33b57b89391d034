import type { QueryRunner } from 'typeorm';
import { ForwardOnlyMigration, type Migration } from '../runtime/bounded-context';

/** Forward-only migrations of the voices context: its read model (projections/). */
export class Voices0000000000180 extends ForwardOnlyMigration {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`
CREATE TABLE IF NOT EXISTS voice_clones (
  voice_id text PRIMARY KEY,
  tenant_id text NOT NULL,
  name text NOT NULL,
  status text NOT NULL,
  samples jsonb NOT NULL,
  error_code text,
  error_message text,
  model jsonb,
  created_at timestamptz NOT NULL,
  training_started_at timestamptz,
  ready_at timestamptz,
  failed_at timestamptz
);
CREATE INDEX IF NOT EXISTS voice_clones_tenant_created ON voice_clones (tenant_id, created_at DESC, voice_id DESC);
`);
  }
}

/**
 * Room held for an upload between its quota check and its recording (VoiceQuota): counted in the
 * tenant's usage until the voice is in voice_clones or the reservation is released or expires. One
 * per voice id: a second upload under the same id (an Idempotency-Key taken over) is refused.
 */
export class Voices0000000000380 extends ForwardOnlyMigration {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`
CREATE TABLE IF NOT EXISTS voice_upload_reservations (
  voice_id text PRIMARY KEY,
  tenant_id text NOT NULL,
  upload_id text NOT NULL,
  bytes bigint NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS voice_upload_reservations_tenant ON voice_upload_reservations (tenant_id);
`);
  }
}

export const voicesMigrations: readonly Migration[] = [Voices0000000000180, Voices0000000000380];
