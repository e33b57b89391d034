import type { QueryRunner } from 'typeorm';
import { ForwardOnlyMigration, type Migration } from '../runtime/bounded-context';

/**
 * Forward-only migrations of the telephony context: the carrier budget shared by every instance
 * (carrier-budget.ts) and the media processes' leases the watchdog reads (media-watchdog.ts).
 * - `sip_media_holders`: one row per process that holds calls, its heartbeat renewed every third of
 *   SIP_MEDIA_LEASE;
 * - `sip_call_slots`: the calls in progress, each with the process that holds its RTP (its lease);
 *   the outbound ones hold a concurrent slot (SIP_MAX_CALLS), inbound ones are only watched;
 * - `sip_call_starts`: when each call was granted, for the sliding second of SIP_CPS (kept a few
 *   seconds after the call ends: a call that ended still counted in its second);
 * - `sip_call_waiting`: calls that asked and wait, granted oldest first.
 */
export class Telephony1795775328756 extends ForwardOnlyMigration {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`
CREATE TABLE IF NOT EXISTS sip_media_holders (
  holder text PRIMARY KEY,
  heartbeat_at timestamptz NOT NULL
);
CREATE TABLE IF NOT EXISTS sip_call_slots (
  session_id text PRIMARY KEY,
  tenant_id text NOT NULL,
  holder text NOT NULL,
  started_at timestamptz NOT NULL,
  direction text NOT NULL CHECK (direction IN ('outbound', 'inbound'))
);
CREATE INDEX IF NOT EXISTS sip_call_slots_holder ON sip_call_slots (holder);
CREATE TABLE IF NOT EXISTS sip_call_starts (
  session_id text PRIMARY KEY,
  started_at timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS sip_call_starts_at ON sip_call_starts (started_at);
CREATE TABLE IF NOT EXISTS sip_call_waiting (
  session_id text PRIMARY KEY,
  tenant_id text NOT NULL,
  first_asked_at timestamptz NOT NULL,
  last_asked_at timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS sip_call_waiting_order ON sip_call_waiting (first_asked_at, session_id);
`);
  }
}

export const telephonyMigrations: readonly Migration[] = [Telephony1795775328756];
