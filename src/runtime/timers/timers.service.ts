import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { CLOCK, Clock } from '../../kernel/clock';
import { PollingWorker } from '../workers/polling-worker';
import { PG_POOL } from '../../infra/database/database.tokens';
import { TurnBatch } from './turn-batch';
import { ClaimedTimer, TimerClaims, type DueTimer, type Queryable, type TimerPark } from './timer-claims';
import type { ScheduleTimer, TimerKind } from './timer-kind';
import { errorMessage } from '../../kernel/errors';

export type { DueTimer, Queryable, TimerPark } from './timer-claims';
export { defineTimerKind, type ScheduleTimer, type TimerKind } from './timer-kind';

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
 * What a handler returns: nothing when the timer is done (its row is deleted as soon as it finishes),
 * the next run of the same row, which is then updated in place and released, or a park.
 */
export type TimerOutcome<P = object> =
  void | { readonly next: { readonly dueAt: Date; readonly payload: P } } | { readonly park: TimerPark };

export type TimerHandler<P = Readonly<Record<string, unknown>>> = (
  timer: DueTimer<P>,
  context: TimerContext,
) => Promise<TimerOutcome<P>>;

const LEASE_MS = 30_000;
/** A claim held with less than this left is renewed (checked at most once a second). */
const RENEW_WHEN_LEFT_MS = LEASE_MS / 2;
const RENEW_CHECK_EVERY_MS = 1_000;
/** How long after its claim a handler may keep waiting in memory (a third of the lease): a chain of
 *  steps moves its row forward at least that often, so a crash replays little of it (decision 25). */
const HOLD_MS = LEASE_MS / 3;
/** Timers claimed per round, and handlers running at once (a handler waiting in memory is not running). */
const BATCH = 50;
/**
 * Handlers one tenant may have running at once in an instance: so that one tenant's backlog or slow
 * handlers always leave 18 slots to the others' timers (timer-claims.ts). Not fewer: one campaign's
 * outcomes wait their turn on the campaign's stream while holding slots, and its pacer needs one.
 */
const PER_TENANT = 32;
/**
 * Longest idle sleep. Timers scheduled in this instance poke its loop (a local schedule, a reactor's
 * commit), and every instance's reactors schedule for their own loop, so a timer scheduled by
 * ANOTHER instance is found by that instance at once. This instance only needs to find such timers
 * when the other one is gone or busy (and leases that lapsed): a slow fallback poll is enough.
 */
const MAX_IDLE_MS = 5_000;
const MIN_IDLE_MS = 5;
/** A claim this instance holds (its handler running or waiting in memory) and the lease end it set. */
interface Held {
  readonly timer: ClaimedTimer;
  until: number;
}

/**
 * Durable timers: every delay in the platform (retries, simulated call steps, expiries, purges) is a
 * row here, claimed with FOR UPDATE SKIP LOCKED under a lease, so that instances compete safely and
 * a restart loses none. A handler may run again after a crash, so handlers are idempotent.
 *
 * - Claims are fair across tenants (timer-claims.ts): a tenant runs at most PER_TENANT handlers at
 *   once here, and the least busy tenant's due timers are claimed first.
 * - A claim's lease is renewed while its handler runs or waits, so a handler longer than the lease
 *   is never run twice at once, by this instance or another; only a dead instance's claims lapse.
 * - A timer's row goes as soon as its own handler is done (those done together in one statement),
 *   so a slow timer of the same claim delays nothing.
 * - A handler may park its row on a key (`TimerPark`) and `release(key)` makes it due: waiting for an
 *   event costs nothing while it waits.
 *
 * Cost: one statement claims a batch and, in the same round trip, finds when the next timer will be
 * due (the idle sleep); many timers are scheduled with one statement (`scheduleMany`). The loop does
 * not wait for a batch to finish before claiming the next one.
 */
@Injectable()
export class TimersService extends PollingWorker {
  private readonly logger = new Logger('Timers');
  private readonly handlers = new Map<string, (timer: DueTimer, context: TimerContext) => Promise<TimerOutcome>>();
  private readonly claims: TimerClaims;
  /** Batches started by the loop and not yet completed (stop() waits for them). */
  private readonly inFlight = new Set<Promise<void>>();
  /** Claims held now, by timer id: renewed before they lapse, never claimed again here. */
  private readonly held = new Map<string, Held>();
  /** Handlers running now (not counting those waiting in memory), in all and per tenant. */
  private busy = 0;
  private readonly busyByTenant = new Map<string, number>();
  /** The loop found every slot taken: a handler that finishes or starts waiting pokes it. */
  private saturated = false;
  private stopping = false;
  /** Waits in memory, cut short by stop(). */
  private readonly waits = new Set<() => void>();
  private idleFor = MAX_IDLE_MS;
  private nextRenewalCheck = 0;
  /** Timers done and not yet deleted: those that finish in one turn of the event loop go in one statement. */
  private readonly finished = new TurnBatch<ClaimedTimer>(async (timers) => {
    try {
      await this.claims.finish(timers);
    } catch (err) {
      // They stay claimed until their lease lapses, then run again: handlers are idempotent.
      this.logger.warn(`deleting ${timers.length} timers that ran failed: ${errorMessage(err)}`);
    }
  });
  /** Timers moved to their next run, likewise one statement per turn of the event loop. */
  private readonly rescheduled = new TurnBatch<{ timer: ClaimedTimer; dueAt: Date; payload: unknown }>(async (next) => {
    try {
      await this.claims.reschedule(next);
      this.poke();
    } catch (err) {
      // The rows keep their previous run, claimed until the lease lapses, then run again from there.
      for (const { timer } of next)
        this.logger.warn(`rescheduling timer ${timer.kind} ${timer.timerId} failed: ${errorMessage(err)}`);
    }
  });

  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    super('timers', {
      onError: (err) => new Logger('Timers').error(`timer loop: ${err instanceof Error ? err.message : String(err)}`),
      backoffMs: () => 1000,
    });
    this.claims = new TimerClaims(pool);
  }

  /** The handler of a kind's timers: it receives their payloads read through the kind (`TimerKind.decode`). */
  register<P extends object>(kind: TimerKind<P>, handler: TimerHandler<P>): void {
    this.handlers.set(kind.name, (timer, context) =>
      handler({ ...timer, payload: kind.decode(timer.payload) }, context),
    );
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
    await db.query({
      name: 'timers_schedule',
      text: `INSERT INTO timers (timer_id, kind, dedupe_key, due_at, payload, tenant_id)
       SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::timestamptz[], $5::jsonb[], $6::text[])
       ON CONFLICT (dedupe_key) DO NOTHING`,
      values: [
        rows.map(() => randomUUID()),
        rows.map((t) => t.kind),
        rows.map((t) => t.dedupeKey ?? null),
        rows.map((t) => t.dueAt),
        rows.map((t) => JSON.stringify(t.payload)),
        rows.map(tenantOf),
      ],
    });
    if (db === this.pool) this.poke();
  }

  /**
   * Schedules the timer, or brings the one with this key forward to `dueAt` when it is due later: a
   * durable, coalescing wake-up (a campaign's pacer, woken by each call outcome). A timer woken while
   * it runs is neither deleted nor moved later by that run: it runs again at once.
   */
  async wake(timer: ScheduleTimer & { dedupeKey: string }, db: Queryable = this.pool): Promise<void> {
    await db.query(
      `INSERT INTO timers (timer_id, kind, dedupe_key, due_at, payload, tenant_id) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (dedupe_key) DO UPDATE SET due_at = LEAST(timers.due_at, EXCLUDED.due_at), wakes = timers.wakes + 1`,
      [randomUUID(), timer.kind, timer.dedupeKey, timer.dueAt, JSON.stringify(timer.payload), tenantOf(timer)],
    );
    if (db === this.pool) this.poke();
  }

  /**
   * Makes every timer parked on `key` due now (`TimerPark`). Inside a caller's transaction (a
   * reactor's, with the event that lifts what they wait for) the caller pokes the loop after commit.
   */
  async release(key: string, db?: Queryable): Promise<void> {
    await this.claims.release(key, this.clock.now(), db);
    if (db === undefined) this.poke();
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
    await db.query({
      name: 'timers_cancel',
      text: 'DELETE FROM timers WHERE dedupe_key = ANY($1::text[])',
      values: [[...dedupeKeys]],
    });
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

  /** One round: renew the leases running short, claim what the free slots can run and start it. */
  protected async tick(): Promise<boolean> {
    await this.renewLeases();
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
      nextDue === null ? MAX_IDLE_MS : Math.min(MAX_IDLE_MS, nextDue.getTime() - this.clock.now().getTime());
    return false;
  }

  /** Until the next due timer, but never past the next lease renewal. */
  protected override idleMs(): number {
    let ms = this.idleFor;
    if (this.held.size > 0) {
      let renewAt = Infinity;
      for (const h of this.held.values()) renewAt = Math.min(renewAt, h.until - RENEW_WHEN_LEFT_MS);
      ms = Math.min(ms, Math.max(renewAt, this.nextRenewalCheck) - this.clock.now().getTime());
    }
    return Math.max(MIN_IDLE_MS, ms);
  }

  /** Claims and runs every timer due now, up to `limit`, and waits for them; returns how many ran (tests drive a manual clock with it). */
  async runDue(limit = BATCH): Promise<number> {
    const { timers, claimedAt } = await this.claim(limit);
    await this.track(this.runBatch(timers, claimedAt));
    return timers.length;
  }

  private async claim(limit: number): Promise<{ timers: ClaimedTimer[]; claimedAt: number; nextDue: Date | null }> {
    const now = this.clock.now();
    const until = now.getTime() + LEASE_MS;
    const { timers, nextDue } = await this.claims.claim({
      now,
      leaseUntil: new Date(until),
      leaseId: randomUUID(),
      limit,
      perTenant: PER_TENANT,
      busy: this.busyByTenant,
      held: [...this.held.keys()],
      kinds: [...this.handlers.keys()],
    });
    for (const timer of timers) this.held.set(timer.timerId, { timer, until });
    return { timers, claimedAt: now.getTime(), nextDue };
  }

  /**
   * Renews the lease of every claim held with less than RENEW_WHEN_LEFT_MS left (checked at most once
   * a second): a handler that runs or waits past its lease is neither claimed again here nor taken
   * over by another instance.
   */
  private async renewLeases(): Promise<void> {
    const now = this.clock.now().getTime();
    if (now < this.nextRenewalCheck || this.held.size === 0) return;
    this.nextRenewalCheck = now + RENEW_CHECK_EVERY_MS;
    const due = [...this.held.values()].filter((h) => h.until - now < RENEW_WHEN_LEFT_MS);
    if (due.length === 0) return;
    const until = now + LEASE_MS;
    const renewed = await this.claims.renew(
      due.map((h) => h.timer),
      new Date(until),
    );
    for (const h of due) {
      if (this.held.get(h.timer.timerId) !== h) continue; // finished meanwhile
      if (renewed.has(h.timer.timerId)) {
        h.until = until;
        continue;
      }
      this.held.delete(h.timer.timerId);
      this.logger.warn(`the claim of timer ${h.timer.kind} ${h.timer.timerId} lapsed while it ran; it may run again`);
    }
  }

  /** Runs a claimed batch: each timer is finished on its own, whatever the others take. */
  private async runBatch(timers: readonly ClaimedTimer[], claimedAt: number): Promise<void> {
    await Promise.all(timers.map((t) => this.fire(t, claimedAt)));
  }

  /** Runs one timer and records its outcome on its row (deleted, moved to its next run, backed off or parked). */
  private async fire(timer: ClaimedTimer, claimedAt: number): Promise<void> {
    const handler = this.handlers.get(timer.kind);
    let outcome: TimerOutcome;
    this.take(timer.tenantId);
    let counted = true;
    const stopping = (): boolean => this.stopping;
    const context: TimerContext = {
      get stopping() {
        return stopping();
      },
      waitUntil: async (at, horizonMs) => {
        counted = false;
        this.free(timer.tenantId);
        try {
          return await this.waitUntil(claimedAt, at, horizonMs);
        } finally {
          this.take(timer.tenantId);
          counted = true;
        }
      },
    };
    try {
      if (!handler) throw new Error(`no handler for timer kind ${timer.kind}`);
      const { timerId, kind, payload, dueAt, attempts, wakes } = timer;
      outcome = await handler({ timerId, kind, payload, dueAt, attempts, wakes }, context);
    } catch (err) {
      this.held.delete(timer.timerId);
      const message = errorMessage(err);
      const backoff = Math.min(300_000, 1000 * 2 ** Math.min(timer.attempts, 8));
      this.logger.warn(`timer ${timer.kind} ${timer.timerId} failed (attempt ${timer.attempts}): ${message}`);
      await this.pool
        .query(
          `UPDATE timers SET locked_until = NULL, lease_id = NULL, held_on = NULL, due_at = $2, last_error = $3
           WHERE timer_id = $1 AND lease_id = $4`,
          [timer.timerId, new Date(this.clock.now().getTime() + backoff), message.slice(0, 1000), timer.leaseId],
        )
        .catch(() => undefined);
      return;
    } finally {
      if (counted) this.free(timer.tenantId);
    }
    this.held.delete(timer.timerId);
    if (!outcome) return this.finish(timer);
    if ('park' in outcome) return this.park(timer, outcome.park);
    // The same row, its next run: released at once, so nothing waits for the lease.
    // Woken while it ran (`wakes` moved): it keeps the earlier due time and runs again at once.
    return this.reschedule(timer, outcome.next);
  }

  /** Moves a timer to its next run now, with the others rescheduled in the same turn of the event loop. */
  private reschedule(timer: ClaimedTimer, next: { dueAt: Date; payload: unknown }): Promise<void> {
    return this.rescheduled.add({ timer, ...next });
  }

  /** Deletes a finished timer's row now, with the others that finish in the same turn of the event loop. */
  private finish(timer: ClaimedTimer): Promise<void> {
    return this.finished.add(timer);
  }

  /**
   * Parks the row on its key and releases the claim, under the key's shared lock (a `release` of the
   * key holds it exclusively to its commit), then asks whether it still waits: if what it waits for
   * came meanwhile, the row is due again at once.
   */
  private async park(timer: ClaimedTimer, park: TimerPark): Promise<void> {
    try {
      await this.claims.park(timer, park);
      if (await park.stillWaiting().catch(() => false)) return;
      await this.claims.unpark(timer.timerId, park.key, this.clock.now());
      this.poke();
    } catch (err) {
      // Claimed (or parked) as it was: it runs again once its lease lapses (or its park ends).
      this.logger.warn(`parking timer ${timer.kind} ${timer.timerId} failed: ${errorMessage(err)}`);
    }
  }

  private take(tenantId: string): void {
    this.busy++;
    this.busyByTenant.set(tenantId, (this.busyByTenant.get(tenantId) ?? 0) + 1);
  }

  /** A slot is free again: the loop claims at once if it found none (all taken, or this tenant's all taken). */
  private free(tenantId: string): void {
    this.busy--;
    const left = (this.busyByTenant.get(tenantId) ?? 1) - 1;
    if (left > 0) this.busyByTenant.set(tenantId, left);
    else this.busyByTenant.delete(tenantId);
    if ((this.saturated && this.busy < BATCH) || left === PER_TENANT - 1) {
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

/** The tenant a timer works for: given, or its payload's `tenant_id`, or none (''). */
function tenantOf(timer: ScheduleTimer): string {
  if (timer.tenantId !== undefined) return timer.tenantId;
  const fromPayload = 'tenant_id' in timer.payload ? timer.payload.tenant_id : undefined;
  return typeof fromPayload === 'string' ? fromPayload : '';
}
