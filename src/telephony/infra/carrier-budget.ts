import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Pool, PoolClient } from 'pg';
import type { BudgetAnswer, InboundAdmission } from '../domain/carrier-budget.port';

/**
 * The carrier's limits, shared by every instance on the database (docs/telephony.md, "Carrier
 * limits"): at most SIP_CPS new outbound calls in every sliding second, SIP_MAX_CALLS calls at once
 * (both directions), and TENANT_MAX_CALLS of one tenant's at once (both directions).
 * `acquire` decides in one short transaction under a transaction-scoped advisory lock, so two
 * instances never grant past a limit; times are the database's (`clock_timestamp()`), one clock for all.
 * An outbound call over a limit is never refused: it is told when to ask again and keeps its place in
 * the queue (its first asking), and calls are granted oldest first. A call whose tenant is at its own
 * limit leaves the queue while it waits, so that it never holds back another tenant's calls. An
 * inbound call over a limit is refused (`admitInbound`): the caller's carrier tries elsewhere.
 *
 * Each granted slot names its holder: this process (the one that places the call and holds its RTP),
 * whose lease in `sip_media_holders` the budget renews while it runs (`start`/`stop`, a runtime worker).
 * When a holder's lease runs out the media watchdog ends its calls and frees their slots.
 */

export interface CarrierBudgetOptions {
  cps: number;
  maxCalls: number;
  /** TENANT_MAX_CALLS; default: no limit beyond maxCalls. */
  tenantMaxCalls?: number;
  /** A holder whose heartbeat is older than this is dead (SIP_MEDIA_LEASE). */
  leaseMs: number;
  /** This process's name in the slots; default host:pid:random. */
  holder?: string;
}

export type { BudgetAnswer, InboundAdmission } from '../domain/carrier-budget.port';

/** The one advisory lock key of the budget (pg_advisory_xact_lock takes a bigint). */
const BUDGET_LOCK = 0x5_1b_ca_11n;
/** A caller waiting on a concurrent slot asks again this soon (a slot frees at a release, unannounced). */
const SLOT_POLL_MS = 250;
/** Whatever the queue, a waiting caller asks again within this, which keeps its waiting row fresh. */
const MAX_RETRY_MS = 2000;
/** A waiting row not asked again within this is a caller that gave up (or died): it leaves the queue. */
const STALE_WAITING_MS = 10_000;
/** Starts older than this no longer count in any window; they are pruned. */
const STARTS_KEPT_MS = 5000;

export class CarrierBudget {
  readonly holder: string;
  readonly name = 'telephony.carrier-budget';
  private heartbeat: NodeJS.Timeout | null = null;
  private beating: Promise<void> = Promise.resolve();
  /** The calls this process holds (granted or tracked, not yet released): checked at each heartbeat. */
  private readonly holding = new Set<string>();
  private readonly lostListeners = new Set<(sessionId: string) => void>();

  constructor(
    private readonly pool: Pool,
    private readonly options: CarrierBudgetOptions,
  ) {
    this.holder = options.holder ?? `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  }

  /**
   * A slot for one new outbound call now, within SIP_CPS and SIP_MAX_CALLS across all instances;
   * calls that wait are granted in the order they first asked, never refused. Asking again for a call
   * that already holds its slot answers granted (a retried step).
   */
  async acquire(req: { sessionId: string; tenantId: string }): Promise<BudgetAnswer> {
    return this.inTransaction(async (db) => {
      await db.query('SELECT pg_advisory_xact_lock($1)', [BUDGET_LOCK.toString()]);
      const held = await db.query('SELECT 1 FROM sip_call_slots WHERE session_id = $1', [req.sessionId]);
      if (held.rowCount) return { granted: true };
      // The clock read after the lock: every grant is later than the one before it.
      const nowRow = await db.query<{ now: Date }>('SELECT clock_timestamp() AS now');
      const now = nowRow.rows[0]?.now ?? new Date();
      if (await this.tenantFull(db, req.tenantId)) {
        // Out of the queue while its tenant is full: it holds back no one else's calls.
        await db.query('DELETE FROM sip_call_waiting WHERE session_id = $1', [req.sessionId]);
        return {
          granted: false,
          retryAt: new Date(now.getTime() + SLOT_POLL_MS),
          reason: 'concurrency_limit',
        };
      }
      await db.query(
        `DELETE FROM sip_call_waiting WHERE last_asked_at < $1::timestamptz - make_interval(secs => $2::float8 / 1000)`,
        [now, STALE_WAITING_MS],
      );
      await db.query(
        `INSERT INTO sip_call_waiting (session_id, tenant_id, first_asked_at, last_asked_at) VALUES ($1, $2, $3, $3)
         ON CONFLICT (session_id) DO UPDATE SET last_asked_at = EXCLUDED.last_asked_at`,
        [req.sessionId, req.tenantId, now],
      );
      const ahead = await db.query<{ n: string }>(
        `SELECT count(*) AS n FROM sip_call_waiting w, sip_call_waiting me
          WHERE me.session_id = $1 AND (w.first_asked_at, w.session_id) < (me.first_asked_at, me.session_id)`,
        [req.sessionId],
      );
      const waitersAhead = Number(ahead.rows[0]?.n ?? 0);
      const slots = await db.query<{ n: string }>(`SELECT count(*) AS n FROM sip_call_slots`);
      const inUse = Number(slots.rows[0]?.n ?? 0);
      const starts = await db.query<{ started_at: Date }>(
        `SELECT started_at FROM sip_call_starts
          WHERE started_at > $1::timestamptz - interval '1 second' ORDER BY started_at`,
        [now],
      );
      const window = starts.rows.map((r) => r.started_at.getTime());

      if (waitersAhead === 0 && inUse < this.options.maxCalls && window.length < this.options.cps) {
        await db.query(
          `INSERT INTO sip_call_slots (session_id, tenant_id, holder, started_at, direction)
           VALUES ($1, $2, $3, $4, 'outbound')`,
          [req.sessionId, req.tenantId, this.holder, now],
        );
        await db.query(
          'INSERT INTO sip_call_starts (session_id, started_at) VALUES ($1, $2) ON CONFLICT (session_id) DO NOTHING',
          [req.sessionId, now],
        );
        await db.query('DELETE FROM sip_call_waiting WHERE session_id = $1', [req.sessionId]);
        await db.query(
          `DELETE FROM sip_call_starts WHERE started_at < $1::timestamptz - make_interval(secs => $2::float8 / 1000)`,
          [now, STARTS_KEPT_MS],
        );
        await this.renewLease(db);
        this.holding.add(req.sessionId);
        return { granted: true };
      }
      return {
        granted: false,
        retryAt: retryAt(now.getTime(), window, waitersAhead, inUse, this.options),
        reason: 'carrier_limit',
      };
    });
  }

  /**
   * An inbound call to be answered by this process: taken while the trunk has fewer than SIP_MAX_CALLS
   * calls and the tenant fewer than TENANT_MAX_CALLS (both directions, every instance), else refused
   * with the limit that is full. Taken, it is watched like an outbound call, so that it ends
   * `media_lost` if this process dies; `release` frees it. Idempotent.
   */
  async admitInbound(req: { sessionId: string; tenantId: string }): Promise<InboundAdmission> {
    // One round trip (telephony.migrations.ts): every inbound INVITE waits on the budget's lock, which
    // must not stay held while this process's event loop, busy with calls' media, gets round to a
    // next statement (eight statements under the lock capped the inbound call rate: the figures are in
    // docs/benchmarks/history/2026-11-28-hardening-3.md).
    const { rows } = await this.pool.query<{ answer: string }>({
      name: 'telephony.admit_inbound',
      text: 'SELECT telephony_admit_inbound($1, $2, $3, $4, $5, $6) AS answer',
      values: [
        req.sessionId,
        req.tenantId,
        this.holder,
        this.options.maxCalls,
        this.options.tenantMaxCalls ?? this.options.maxCalls,
        BUDGET_LOCK.toString(),
      ],
    });
    const answer = rows[0]?.answer;
    if (answer === 'admitted') {
      this.holding.add(req.sessionId);
      return { admitted: true };
    }
    return { admitted: false, limit: answer === 'tenant' ? 'tenant' : 'trunk' };
  }

  private async tenantFull(db: PoolClient, tenantId: string): Promise<boolean> {
    const limit = this.options.tenantMaxCalls;
    if (limit === undefined) return false;
    const { rows } = await db.query<{ n: string }>('SELECT count(*) AS n FROM sip_call_slots WHERE tenant_id = $1', [
      tenantId,
    ]);
    return Number(rows[0]?.n ?? 0) >= limit;
  }

  /** The call ended (any way), or gave up waiting: its slot is free and it leaves the queue. Idempotent. */
  async release(sessionId: string): Promise<void> {
    this.holding.delete(sessionId);
    await this.pool.query('DELETE FROM sip_call_slots WHERE session_id = $1', [sessionId]);
    await this.pool.query('DELETE FROM sip_call_waiting WHERE session_id = $1', [sessionId]);
  }

  /**
   * Calls `listener` with each call this process holds whose slot is gone without a `release`: the
   * watchdog ended it (this process's lease ran out while it was frozen or cut off). The call is over
   * for the platform; the listener hangs it up. Checked at each heartbeat.
   */
  onSlotLost(listener: (sessionId: string) => void): () => void {
    this.lostListeners.add(listener);
    return () => this.lostListeners.delete(listener);
  }

  /** Starts renewing this holder's lease every third of SIP_MEDIA_LEASE (a runtime worker). */
  start(): void {
    if (this.heartbeat) return;
    const beat = (): void => {
      this.beating = this.renewLease(this.pool)
        .then(() => this.checkHolding())
        .then(
          () => undefined,
          () => undefined,
        );
    };
    beat();
    this.heartbeat = setInterval(beat, Math.max(1000, Math.floor(this.options.leaseMs / 3)));
    this.heartbeat.unref();
  }

  /** Stops renewing; the lease then runs out unless another start renews it. */
  async stop(): Promise<void> {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
    await this.beating;
  }

  /** The held calls whose slots the watchdog took: reported once each, then forgotten. */
  async checkHolding(): Promise<string[]> {
    if (this.holding.size === 0) return [];
    const asked = [...this.holding];
    const { rows } = await this.pool.query<{ session_id: string }>(
      'SELECT session_id FROM sip_call_slots WHERE session_id = ANY($1::text[]) AND holder = $2',
      [asked, this.holder],
    );
    const still = new Set(rows.map((r) => r.session_id));
    // A call released meanwhile is no longer in `holding`: only those still held and gone are lost.
    const lost = asked.filter((id) => !still.has(id) && this.holding.has(id));
    for (const id of lost) {
      this.holding.delete(id);
      for (const listener of this.lostListeners) listener(id);
    }
    return lost;
  }

  private async renewLease(db: Pool | PoolClient): Promise<void> {
    await db.query(
      `INSERT INTO sip_media_holders (holder, heartbeat_at) VALUES ($1, clock_timestamp())
       ON CONFLICT (holder) DO UPDATE SET heartbeat_at = EXCLUDED.heartbeat_at`,
      [this.holder],
    );
  }

  private async inTransaction<T>(work: (db: PoolClient) => Promise<T>): Promise<T> {
    const db = await this.pool.connect();
    try {
      await db.query('BEGIN');
      const result = await work(db);
      await db.query('COMMIT');
      return result;
    } catch (error) {
      await db.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      db.release();
    }
  }
}

/**
 * When a call that was not granted should ask again: when the sliding second has room for it and the
 * calls ahead of it (about one window per SIP_CPS of them), or a short poll while every concurrent
 * slot is taken; never later than MAX_RETRY_MS, so that its place in the queue stays fresh.
 */
export function retryAt(
  nowMs: number,
  windowStartsMs: readonly number[],
  waitersAhead: number,
  inUse: number,
  limits: { cps: number; maxCalls: number },
): Date {
  let at = nowMs + 20;
  // The moment the window has room for one more: the start that must leave it, plus a second.
  const needed = windowStartsMs.length - limits.cps;
  if (needed >= 0) at = Math.max(at, (windowStartsMs[needed] ?? nowMs) + 1000 + 1);
  at += Math.floor(waitersAhead / limits.cps) * 1000;
  if (inUse >= limits.maxCalls) at = Math.max(at, nowMs + SLOT_POLL_MS);
  return new Date(Math.min(at, nowMs + MAX_RETRY_MS));
}
