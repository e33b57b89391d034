import type { Pool, PoolClient } from 'pg';
import { PollingWorker } from '../../runtime/workers/polling-worker';

/**
 * The media watchdog (docs/telephony.md, "Media processes"): every live instance sweeps, every third
 * of SIP_MEDIA_LEASE, the calls whose holder (the process holding their RTP) stopped renewing its
 * lease for longer than SIP_MEDIA_LEASE: a process killed, frozen or cut off from the database. Each
 * such call is handed to `onLost` (production: the session ends `failed` with `media_lost`) and its
 * slot is freed in the same transaction. Rows are locked with SKIP LOCKED, so two sweepers never take
 * one call; a failing `onLost` rolls its call back to the next sweep (the session command is
 * idempotent, so a call handed twice after a crash between the two still ends once).
 */

export interface LostCall {
  sessionId: string;
  tenantId: string;
  holder: string;
  startedAt: Date;
}

export interface MediaWatchdogOptions {
  leaseMs: number;
  onLost: (call: LostCall) => Promise<void>;
  onError?: (error: unknown) => void;
  /** Calls handled per transaction. */
  batch?: number;
}

/** Leases of holders with no slot left are deleted once this old (an hour). */
const FORGET_HOLDER_MS = 3_600_000;

export class MediaWatchdog extends PollingWorker {
  constructor(
    private readonly pool: Pool,
    private readonly options: MediaWatchdogOptions,
  ) {
    super('telephony.media-watchdog', { ...(options.onError ? { onError: options.onError } : {}) });
  }

  protected override idleMs(): number {
    return Math.max(1000, Math.floor(this.options.leaseMs / 3));
  }

  /** One sweep; true when a full batch was handled (more may be waiting). */
  protected override async tick(): Promise<boolean> {
    return (await this.sweep()) >= (this.options.batch ?? 50);
  }

  /** Ends and frees the calls of dead holders (one batch); answers how many. */
  async sweep(): Promise<number> {
    const db = await this.pool.connect();
    try {
      await db.query('BEGIN');
      const lost = await this.lostCalls(db);
      for (const call of lost) {
        await this.options.onLost(call);
        await db.query('DELETE FROM sip_call_slots WHERE session_id = $1', [call.sessionId]);
      }
      await db.query(
        `DELETE FROM sip_media_holders h WHERE heartbeat_at < clock_timestamp() - make_interval(secs => $1::float8 / 1000)
           AND NOT EXISTS (SELECT 1 FROM sip_call_slots s WHERE s.holder = h.holder)`,
        [FORGET_HOLDER_MS],
      );
      await db.query('COMMIT');
      return lost.length;
    } catch (error) {
      await db.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      db.release();
    }
  }

  private async lostCalls(db: PoolClient): Promise<LostCall[]> {
    const { rows } = await db.query<{ session_id: string; tenant_id: string; holder: string; started_at: Date }>(
      `SELECT s.session_id, s.tenant_id, s.holder, s.started_at
         FROM sip_call_slots s LEFT JOIN sip_media_holders h ON h.holder = s.holder
        WHERE h.holder IS NULL OR h.heartbeat_at < clock_timestamp() - make_interval(secs => $1::float8 / 1000)
        ORDER BY s.started_at
        LIMIT $2
        FOR UPDATE OF s SKIP LOCKED`,
      [this.options.leaseMs, this.options.batch ?? 50],
    );
    return rows.map((r) => ({
      sessionId: r.session_id,
      tenantId: r.tenant_id,
      holder: r.holder,
      startedAt: r.started_at,
    }));
  }
}
