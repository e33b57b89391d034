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

/**
 * `telephony_admit_inbound`: an inbound call's admission (carrier-budget.ts `admitInbound`) in one
 * round trip. Every inbound INVITE takes the budget's advisory lock; taken and released inside the
 * server, it is never held while the service's event loop (busy with calls' media) gets round to
 * the next statement. Each statement of a volatile function sees a snapshot taken after the lock.
 * Answers `admitted`, `trunk` (SIP_MAX_CALLS calls hold a slot) or `tenant` (the tenant holds
 * TENANT_MAX_CALLS).
 */
export class TelephonyAdmitInbound1795840000000 extends ForwardOnlyMigration {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`
CREATE OR REPLACE FUNCTION telephony_admit_inbound(
  p_session_id text, p_tenant_id text, p_holder text, p_max_calls bigint, p_tenant_max bigint, p_lock bigint
) RETURNS text LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(p_lock);
  IF EXISTS (SELECT 1 FROM sip_call_slots WHERE session_id = p_session_id) THEN
    RETURN 'admitted';
  END IF;
  IF (SELECT count(*) FROM sip_call_slots) >= p_max_calls THEN
    RETURN 'trunk';
  END IF;
  IF (SELECT count(*) FROM sip_call_slots WHERE tenant_id = p_tenant_id) >= p_tenant_max THEN
    RETURN 'tenant';
  END IF;
  INSERT INTO sip_media_holders (holder, heartbeat_at) VALUES (p_holder, clock_timestamp())
    ON CONFLICT (holder) DO UPDATE SET heartbeat_at = EXCLUDED.heartbeat_at;
  INSERT INTO sip_call_slots (session_id, tenant_id, holder, started_at, direction)
    VALUES (p_session_id, p_tenant_id, p_holder, clock_timestamp(), 'inbound');
  RETURN 'admitted';
END
$$;
`);
  }
}

export const telephonyMigrations: readonly Migration[] = [Telephony1795775328756, TelephonyAdmitInbound1795840000000];
