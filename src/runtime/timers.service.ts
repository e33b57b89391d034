import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { CLOCK, Clock } from '../kernel/clock';
import { PollingWorker } from './polling-worker';
import { PG_POOL } from '../infra/database/database.tokens';

export interface Queryable {
  query(sql: string, params?: unknown[]): Promise<unknown>;
}

export interface DueTimer {
  readonly timerId: string;
  readonly kind: string;
  readonly payload: Record<string, unknown>;
  readonly dueAt: Date;
  readonly attempts: number;
  /** Wake-ups counted when it was claimed (`wake`): one that comes while it runs makes it run again. */
  readonly wakes: number;
}

/** What a handler sees besides its timer: whether the service is stopping, and an in-memory wait. */
export interface TimerContext {
  /** True once `stop()` has begun: a handler that would wait winds up instead. */
  readonly stopping: boolean;
  /**
   * Waits in memory until `at`, still holding this timer's claim, so that one claimed row can run
   * several steps that are due soon one after another. Resolves true once `at` has come; false at
   * once when `at` is more than `horizonMs` away or past the part of the lease a handler may use
   * (a third of it, from the claim), and false when `stop()` cuts the wait short. On false the
   * handler should return its next run (`TimerOutcome`) rather than wait.
   */
  waitUntil(at: Date, horizonMs: number): Promise<boolean>;
}

/**
 * What a handler returns: nothing when the timer is done (its row is deleted with the rest of its
 * batch), or the next run of the same row, which is then updated in place and released.
 */
export type TimerOutcome = void | {
  readonly next: { readonly dueAt: Date; readonly payload: Record<string, unknown> };
};

export type TimerHandler = (timer: DueTimer, context: TimerContext) => Promise<TimerOutcome>;

export interface ScheduleTimer {
  kind: string;
  dueAt: Date;
  payload: Record<string, unknown>;
  /** A second schedule with the same key is ignored: reactors replaying a batch schedule once. */
  dedupeKey?: string;
}

const LEASE_MS = 30_000;
/** How long after its claim a handler may keep waiting in memory: a third of the lease, so that its
 *  last step and the batch's completion finish well before the lease lapses. */
const HOLD_MS = LEASE_MS / 3;
/** Timers claimed per round, and handlers running at once (a handler waiting in memory is not running). */
const BATCH = 50;
/**
 * Longest idle sleep. Timers scheduled in this instance poke its loop (a local schedule, a reactor's
 * commit), and every instance's reactors schedule for their own loop, so a timer scheduled by
 * ANOTHER instance is found by that instance at once. This instance only needs to find such timers
 * when the other one is gone or busy (and leases that lapsed): a slow fallback poll is enough.
 */
const MAX_IDLE_MS = 5_000;
const MIN_IDLE_MS = 5;

interface ClaimedRow {
  timer_id: string | null;
  kind: string;
  payload: Record<string, unknown>;
  due_at: Date;
  attempts: number;
  wakes: number;
  next_due: Date | null;
}

/**
 * Durable timers: every delay in the platform (retries, simulated call steps, expiries, purges) is a
 * row here, claimed with FOR UPDATE SKIP LOCKED under a lease, so that instances compete safely and
 * a restart loses none. A handler may run again after a crash, so handlers are idempotent.
 *
 * Cost per round trip: one statement claims a batch and, in the same round trip, finds when the next
 * timer will be due (the idle sleep); the timers of a batch that ran are deleted with one statement;
 * many timers are scheduled with one statement (`scheduleMany`). The loop does not wait for a batch
 * to finish before claiming the next one, so a handler that waits in memory (`waitUntil`) never holds
 * up other timers.
 */
@Injectable()
export class TimersService extends PollingWorker {
  private readonly logger = new Logger('Timers');
  private readonly handlers = new Map<string, TimerHandler>();
  /** Batches started by the loop and not yet completed (stop() waits for them). */
  private readonly inFlight = new Set<Promise<void>>();
  /** Handlers running now (not counting those waiting in memory). */
  private busy = 0;
  /** The loop found every slot taken: a handler that finishes or starts waiting pokes it. */
  private saturated = false;
  private stopping = false;
  /** Waits in memory, cut short by stop(). */
  private readonly waits = new Set<() => void>();
  private idleFor = MAX_IDLE_MS;

  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    super('timers', {
      onError: (err) => new Logger('Timers').error(`timer loop: ${err instanceof Error ? err.message : String(err)}`),
      backoffMs: () => 1000,
    });
  }

  register(kind: string, handler: TimerHandler): void {
    this.handlers.set(kind, handler);
  }

  /**
   * Inside a caller's transaction (`db` other than the pool) the caller wakes the loop once it has
   * committed (a reactor's `afterCommit`): a poke before the commit would only find nothing.
   */
  async schedule(timer: ScheduleTimer, db: Queryable = this.pool): Promise<void> {
    await this.scheduleMany([timer], db);
  }

  /** Inserts every timer with one statement; of several with one dedupeKey (here or already stored) the first stays. */
  async scheduleMany(timers: readonly ScheduleTimer[], db: Queryable = this.pool): Promise<void> {
    const keys = new Set<string>();
    const rows = timers.filter((t) => {
      if (t.dedupeKey === undefined) return true;
      if (keys.has(t.dedupeKey)) return false;
      keys.add(t.dedupeKey);
      return true;
    });
    if (rows.length === 0) return;
    await db.query(
      `INSERT INTO timers (timer_id, kind, dedupe_key, due_at, payload)
       SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::timestamptz[], $5::jsonb[])
       ON CONFLICT (dedupe_key) DO NOTHING`,
      [
        rows.map(() => randomUUID()),
        rows.map((t) => t.kind),
        rows.map((t) => t.dedupeKey ?? null),
        rows.map((t) => t.dueAt),
        rows.map((t) => JSON.stringify(t.payload)),
      ],
    );
    if (db === this.pool) this.poke();
  }

  /**
   * Schedules the timer, or brings the one with this key forward to `dueAt` when it is due later: a
   * durable, coalescing wake-up (a campaign's pacer, woken by each call outcome). A timer woken while
   * it runs is neither deleted nor moved later by that run: it runs again at once.
   */
  async wake(timer: ScheduleTimer & { dedupeKey: string }, db: Queryable = this.pool): Promise<void> {
    await db.query(
      `INSERT INTO timers (timer_id, kind, dedupe_key, due_at, payload) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (dedupe_key) DO UPDATE SET due_at = LEAST(timers.due_at, EXCLUDED.due_at), wakes = timers.wakes + 1`,
      [randomUUID(), timer.kind, timer.dedupeKey, timer.dueAt, JSON.stringify(timer.payload)],
    );
    if (db === this.pool) this.poke();
  }

  /**
   * Moves the timers of these keys to their new due times, in one statement, unless one is being run
   * now: a heartbeat that keeps a fallback timer from firing while its owner is alive (a room's call).
   */
  async postpone(timers: readonly { dedupeKey: string; dueAt: Date }[]): Promise<void> {
    if (timers.length === 0) return;
    await this.pool.query(
      `UPDATE timers t SET due_at = p.due_at FROM unnest($1::text[], $2::timestamptz[]) AS p(key, due_at)
       WHERE t.dedupe_key = p.key AND t.locked_until IS NULL`,
      [timers.map((t) => t.dedupeKey), timers.map((t) => t.dueAt)],
    );
  }

  async cancel(dedupeKey: string, db: Queryable = this.pool): Promise<void> {
    await this.cancelMany([dedupeKey], db);
  }

  /** Deletes the timers of every key with one statement. */
  async cancelMany(dedupeKeys: readonly string[], db: Queryable = this.pool): Promise<void> {
    if (dedupeKeys.length === 0) return;
    await db.query('DELETE FROM timers WHERE dedupe_key = ANY($1::text[])', [[...dedupeKeys]]);
  }

  override start(): void {
    this.stopping = false;
    super.start();
  }

  /** Handlers waiting in memory wind up at once (each returns its next run); the batches in flight complete. */
  override async stop(): Promise<void> {
    this.stopping = true;
    for (const cut of [...this.waits]) cut();
    await super.stop();
  }

  protected override async afterStop(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  /** One round: claim what the free slots can run and start it, without waiting for it to finish. */
  protected async tick(): Promise<boolean> {
    const free = BATCH - this.busy;
    if (free <= 0) {
      this.saturated = true;
      this.idleFor = MAX_IDLE_MS;
      return false;
    }
    const { timers, claimedAt, nextDue } = await this.claim(free);
    if (timers.length > 0) void this.track(this.runBatch(timers, claimedAt));
    if (timers.length === free) return true;
    this.idleFor =
      nextDue === null
        ? MAX_IDLE_MS
        : Math.max(MIN_IDLE_MS, Math.min(MAX_IDLE_MS, nextDue.getTime() - this.clock.now().getTime()));
    return false;
  }

  protected override idleMs(): number {
    return this.idleFor;
  }

  /** Claims and runs every timer due now, up to `limit`, and waits for them; returns how many ran (tests drive a manual clock with it). */
  async runDue(limit = BATCH): Promise<number> {
    const { timers, claimedAt } = await this.claim(limit);
    await this.track(this.runBatch(timers, claimedAt));
    return timers.length;
  }

  /**
   * One statement: claims up to `limit` due timers under a lease and, in the same round trip, reads
   * when the earliest timer not claimed now becomes claimable (only when fewer than `limit` were
   * claimed; with a full batch the loop claims again at once).
   */
  private async claim(limit: number): Promise<{ timers: DueTimer[]; claimedAt: number; nextDue: Date | null }> {
    const now = this.clock.now();
    const { rows } = await this.pool.query<ClaimedRow>(
      `WITH due AS (
         SELECT timer_id FROM timers
         WHERE due_at <= $1 AND (locked_until IS NULL OR locked_until < $1)
         ORDER BY due_at LIMIT $3 FOR UPDATE SKIP LOCKED
       ), claimed AS (
         UPDATE timers t SET locked_until = $2, attempts = t.attempts + 1
         FROM due WHERE t.timer_id = due.timer_id
         RETURNING t.timer_id, t.kind, t.payload, t.due_at, t.attempts, t.wakes
       )
       SELECT timer_id, kind, payload, due_at, attempts, wakes, NULL::timestamptz AS next_due FROM claimed
       UNION ALL
       SELECT NULL, NULL, NULL, NULL, NULL, NULL,
         (SELECT min(greatest(due_at, coalesce(locked_until, due_at))) FROM timers
          WHERE timer_id NOT IN (SELECT timer_id FROM due))
       WHERE (SELECT count(*) FROM due) < $3`,
      [now, new Date(now.getTime() + LEASE_MS), limit],
    );
    const timers: DueTimer[] = [];
    let nextDue: Date | null = null;
    for (const row of rows) {
      if (row.timer_id === null) {
        nextDue = row.next_due;
        continue;
      }
      timers.push({
        timerId: row.timer_id,
        kind: row.kind,
        payload: row.payload,
        dueAt: row.due_at,
        attempts: row.attempts,
        wakes: row.wakes,
      });
    }
    return { timers, claimedAt: now.getTime(), nextDue };
  }

  /** Runs a claimed batch; the timers that are done are then deleted with one statement. */
  private async runBatch(timers: readonly DueTimer[], claimedAt: number): Promise<void> {
    if (timers.length === 0) return;
    const outcomes = await Promise.all(timers.map((t) => this.fire(t, claimedAt)));
    const done = timers.filter((_, i) => outcomes[i]);
    if (done.length === 0) return;
    try {
      const ids = done.map((t) => t.timerId);
      const { rowCount } = await this.pool.query(
        `DELETE FROM timers t USING unnest($1::uuid[], $2::int[]) AS d(id, wakes)
         WHERE t.timer_id = d.id AND t.wakes = d.wakes`,
        [ids, done.map((t) => t.wakes)],
      );
      // Woken while they ran: released, due now, to run again.
      if ((rowCount ?? 0) < done.length)
        await this.pool.query('UPDATE timers SET locked_until = NULL, attempts = 0 WHERE timer_id = ANY($1::uuid[])', [
          ids,
        ]);
    } catch (err) {
      // They stay claimed until their lease lapses, then run again: handlers are idempotent.
      this.logger.warn(`deleting ${done.length} timers that ran failed: ${describe(err)}`);
    }
  }

  /** Runs one timer; true when it is done and its row should go. */
  private async fire(timer: DueTimer, claimedAt: number): Promise<boolean> {
    const handler = this.handlers.get(timer.kind);
    let outcome: TimerOutcome;
    this.busy++;
    let counted = true;
    const stopping = (): boolean => this.stopping;
    const context: TimerContext = {
      get stopping() {
        return stopping();
      },
      waitUntil: async (at, horizonMs) => {
        counted = false;
        this.released();
        try {
          return await this.waitUntil(claimedAt, at, horizonMs);
        } finally {
          this.busy++;
          counted = true;
        }
      },
    };
    try {
      if (!handler) throw new Error(`no handler for timer kind ${timer.kind}`);
      outcome = await handler(timer, context);
    } catch (err) {
      const message = describe(err);
      const backoff = Math.min(300_000, 1000 * 2 ** Math.min(timer.attempts, 8));
      this.logger.warn(`timer ${timer.kind} ${timer.timerId} failed (attempt ${timer.attempts}): ${message}`);
      await this.pool
        .query('UPDATE timers SET locked_until = NULL, due_at = $2, last_error = $3 WHERE timer_id = $1', [
          timer.timerId,
          new Date(this.clock.now().getTime() + backoff),
          message.slice(0, 1000),
        ])
        .catch(() => undefined);
      return false;
    } finally {
      if (counted) this.released();
    }
    if (!outcome) return true;
    try {
      // The same row, its next run: released at once, so nothing waits for the lease.
      // Woken while it ran (`wakes` moved): it keeps the earlier due time and runs again at once.
      await this.pool.query(
        `UPDATE timers SET due_at = CASE WHEN wakes = $4 THEN $2 ELSE LEAST(due_at, $2) END, payload = $3,
           locked_until = NULL, attempts = 0, last_error = NULL
         WHERE timer_id = $1`,
        [timer.timerId, outcome.next.dueAt, JSON.stringify(outcome.next.payload), timer.wakes],
      );
      this.poke();
    } catch (err) {
      // The row keeps its previous run, claimed until the lease lapses, then runs again from there.
      this.logger.warn(`rescheduling timer ${timer.kind} ${timer.timerId} failed: ${describe(err)}`);
    }
    return false;
  }

  private released(): void {
    this.busy--;
    if (this.saturated && this.busy < BATCH) {
      this.saturated = false;
      this.poke();
    }
  }

  private waitUntil(claimedAt: number, at: Date, horizonMs: number): Promise<boolean> {
    const ms = at.getTime() - this.clock.now().getTime();
    if (this.stopping || ms > horizonMs || at.getTime() > claimedAt + HOLD_MS) return Promise.resolve(false);
    if (ms <= 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const finish = (): void => {
        clearTimeout(timer);
        this.waits.delete(finish);
        resolve(!this.stopping);
      };
      const timer = setTimeout(finish, ms);
      this.waits.add(finish);
    });
  }

  private track(p: Promise<void>): Promise<void> {
    this.inFlight.add(p);
    return p.finally(() => this.inFlight.delete(p));
  }
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
