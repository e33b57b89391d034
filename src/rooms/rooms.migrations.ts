import type { QueryRunner } from 'typeorm';
import { ForwardOnlyMigration, type Migration } from '../runtime/bounded-context';

/** Forward-only migrations of the rooms context: its read model (projections/). */
const ROOMS_SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS rooms (
  room_id text PRIMARY KEY,
  tenant_id text NOT NULL,
  status text NOT NULL,
  room_url text NOT NULL,
  participant_id text NOT NULL,
  session_id text NOT NULL,
  client_reference_id text,
  agent_config jsonb,
  voice_id text NOT NULL,
  test_scenario text,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL,
  landing_viewed_at timestamptz,
  joined_at timestamptz,
  completed_at timestamptz,
  duration_seconds integer,
  end_reason text,
  expired_at timestamptz,
  failed_at timestamptz,
  error_code text,
  error_message text,
  recording_id text
);
CREATE INDEX IF NOT EXISTS rooms_tenant_created ON rooms (tenant_id, created_at DESC, room_id DESC);
`;

export class Rooms0000000000150 extends ForwardOnlyMigration {
  async up(db: QueryRunner): Promise<void> {
    await db.query(ROOMS_SCHEMA_SQL);
  }
}

/** The live rooms of each tenant, counted across instances for MAX_LIVE_ROOMS_PER_TENANT (infra/room-slots.ts). */
export class Rooms0000000000330 extends ForwardOnlyMigration {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE IF NOT EXISTS room_media_slots (
        room_id text PRIMARY KEY,
        tenant_id text NOT NULL,
        taken_at timestamptz NOT NULL
      );
      CREATE INDEX IF NOT EXISTS room_media_slots_tenant ON room_media_slots (tenant_id);
    `);
  }
}

export const roomsMigrations: readonly Migration[] = [Rooms0000000000150, Rooms0000000000330];
