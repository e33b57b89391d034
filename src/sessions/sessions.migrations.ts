import type { QueryRunner } from 'typeorm';
import { ForwardOnlyMigration, type Migration } from '../runtime/bounded-context';

/** Forward-only migrations of the sessions context, run by TypeORM at start (src/infra/database/migrations.ts). */
const SESSIONS_SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS sessions (
  session_id text PRIMARY KEY,
  tenant_id text NOT NULL,
  status text NOT NULL,
  to_number text,
  from_number text,
  campaign_id text,
  contact_id text,
  client_reference_id text,
  voice_id text NOT NULL,
  test_mode boolean NOT NULL,
  end_reason text,
  created_at timestamptz NOT NULL,
  started_at timestamptz,
  ended_at timestamptz,
  duration_seconds integer NOT NULL DEFAULT 0,
  actual_cost_cents integer NOT NULL DEFAULT 0,
  transcript jsonb NOT NULL DEFAULT '[]',
  function_invocations jsonb NOT NULL DEFAULT '[]',
  transfer_number text,
  opted_out boolean NOT NULL DEFAULT false,
  consent_refused boolean NOT NULL DEFAULT false,
  agent_disposition jsonb,
  recording_id text,
  recording_status text,
  recording_url text,
  purge_after timestamptz
);
CREATE INDEX IF NOT EXISTS sessions_tenant_created ON sessions (tenant_id, created_at DESC, session_id DESC);
CREATE INDEX IF NOT EXISTS sessions_recording ON sessions (recording_id) WHERE recording_id IS NOT NULL;
`;

/** Was 0005_sessions. */
export class Sessions0000000000050 extends ForwardOnlyMigration {
  async up(db: QueryRunner): Promise<void> {
    await db.query(SESSIONS_SCHEMA_SQL);
  }
}

/**
 * The contact's identity on campaign sessions, from session.placed. Rows of sessions placed before
 * stay null, as their events carry none.
 */
export class SessionsContactIdentity0000000000115 extends ForwardOnlyMigration {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE sessions
        ADD COLUMN IF NOT EXISTS email text,
        ADD COLUMN IF NOT EXISTS first_name text,
        ADD COLUMN IF NOT EXISTS last_name text`);
  }
}

/** The campaign pacer's daily cap counts a tenant's recent calls to a number. */
export class SessionsToNumber0000000000130 extends ForwardOnlyMigration {
  async up(db: QueryRunner): Promise<void> {
    await db.query(
      'CREATE INDEX IF NOT EXISTS sessions_tenant_to_number ON sessions (tenant_id, to_number, created_at)',
    );
  }
}

/**
 * Inbound calls: a session's direction. Rows of sessions placed before are outbound, as their events
 * carry none.
 */
export class SessionsDirection0000000000181 extends ForwardOnlyMigration {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE sessions ADD COLUMN IF NOT EXISTS direction text NOT NULL DEFAULT 'outbound'`);
  }
}

/** POST /v1/calls counts the tenant's queued production calls against MAX_QUEUED_CALLS_PER_TENANT. */
export class SessionsQueuedProduction0000000000311 extends ForwardOnlyMigration {
  async up(db: QueryRunner): Promise<void> {
    await db.query(
      `CREATE INDEX IF NOT EXISTS sessions_queued_production ON sessions (tenant_id) WHERE status = 'queued' AND NOT test_mode`,
    );
  }
}

/**
 * Production calls admitted by POST /v1/calls that the sessions read model may not show yet: the
 * queue cap counts them with the queued sessions, so a burst cannot pass the cap while the read
 * model catches up (decision 56).
 */
export class SessionsCallAdmissions0000000000312 extends ForwardOnlyMigration {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`
CREATE TABLE IF NOT EXISTS call_admissions (
  admission_id uuid PRIMARY KEY,
  tenant_id text NOT NULL,
  session_id text,
  admitted_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS call_admissions_tenant ON call_admissions (tenant_id, admitted_at);
`);
  }
}

/**
 * Why a queued session waits (`hold_reason`, from session.dispatch_held), and the rows of rooms'
 * sessions brought to what the projection now writes: inbound, created no later than started
 * (a rebuild from the events gives the same). A room's session is the one with no phone legs.
 */
export class SessionsHoldReason1795639474242 extends ForwardOnlyMigration {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE sessions ADD COLUMN IF NOT EXISTS hold_reason text`);
    await db.query(`
      UPDATE sessions SET direction = 'inbound', created_at = LEAST(created_at, COALESCE(started_at, created_at))
       WHERE to_number IS NULL AND from_number IS NULL
         AND (direction <> 'inbound' OR created_at > started_at)`);
  }
}

/**
 * Each measured agent turn (`session.turn_measured`), shown as the session's `metrics`: sessions
 * stored before have none (`[]`), as a rebuild from their events gives.
 */
export class SessionsTurnMetrics1795772756107 extends ForwardOnlyMigration {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE sessions ADD COLUMN IF NOT EXISTS turn_metrics jsonb NOT NULL DEFAULT '[]'`);
  }
}

/**
 * Test persona calls a tenant runs at once are capped (decision 181): the read model tells a
 * persona call's session (`test_persona`, from session.placed; the sessions already stored get
 * false, a rebuild gives each its own), and an admission says which cap it counts for.
 */
export class SessionsTestPersona1795836277416 extends ForwardOnlyMigration {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE sessions ADD COLUMN IF NOT EXISTS test_persona boolean NOT NULL DEFAULT false`);
    await db.query(
      `CREATE INDEX IF NOT EXISTS sessions_persona_live ON sessions (tenant_id) WHERE test_persona AND status IN ('queued', 'in_progress')`,
    );
    await db.query(`ALTER TABLE call_admissions ADD COLUMN IF NOT EXISTS kind text NOT NULL DEFAULT 'production'`);
  }
}

/**
 * The post-call analysis (`session.analysis_completed`), shown as the session's `analysis`: null
 * until it is done and for sessions whose agent asked none (those stored before included, as a
 * rebuild from their events gives).
 */
export class SessionsAnalysis1795885800550 extends ForwardOnlyMigration {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE sessions ADD COLUMN IF NOT EXISTS analysis jsonb`);
  }
}

/**
 * Answering-machine detection on outbound calls: the session's `amd` (`session.amd_decided`), and
 * whether the agent left its voicemail message (`session.failed`'s `voicemail_message_left`).
 */
export class SessionsVoicemail1795891000000 extends ForwardOnlyMigration {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE sessions ADD COLUMN IF NOT EXISTS amd jsonb`);
    await db.query(
      `ALTER TABLE sessions ADD COLUMN IF NOT EXISTS voicemail_message_left boolean NOT NULL DEFAULT false`,
    );
  }
}

export const sessionsMigrations: readonly Migration[] = [
  Sessions0000000000050,
  SessionsContactIdentity0000000000115,
  SessionsToNumber0000000000130,
  SessionsDirection0000000000181,
  SessionsQueuedProduction0000000000311,
  SessionsCallAdmissions0000000000312,
  SessionsHoldReason1795639474242,
  SessionsTurnMetrics1795772756107,
  SessionsTestPersona1795836277416,
  SessionsAnalysis1795885800550,
  SessionsVoicemail1795891000000,
];
