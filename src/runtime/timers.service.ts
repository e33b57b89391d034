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
}

export type TimerHandler = (timer: DueTimer) => Promise<void>;

export interface ScheduleTimer {
  kind: string;
  dueAt: Date;
  payload: Record<string, unknown>;
  /** A second schedule with the same key is ignored: reactors replaying a batch schedule once. */
  dedupeKey?: string;
}

const LEASE_MS = 30_000;

/**
 * Durable timers: every delay in the platform (retries, simulated call steps, expiries, purges) is a
 * row here, claimed with FOR UPDATE SKIP LOCKED under a lease, so that instances compete safely and
 * a restart loses none. A handler may run again after a crash, so handlers are idempotent.
 */
@Injectable()
export class TimersService extends PollingWorker {
  private readonly logger = new Logger('Timers');
  private readonly handlers = new Map<string, TimerHandler>();
  private readonly inFlight = new Set<Promise<void>>();

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

  async schedule(timer: ScheduleTimer, db: Queryable = this.pool): Promise<void> {
    await db.query(
      `INSERT INTO timers (timer_id, kind, dedupe_key, due_at, payload) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (dedupe_key) DO NOTHING`,
      [randomUUID(), timer.kind, timer.dedupeKey ?? null, timer.dueAt, JSON.stringify(timer.payload)],
    );
    this.poke();
  }

  async cancel(dedupeKey: string, db: Queryable = this.pool): Promise<void> {
    await db.query('DELETE FROM timers WHERE dedupe_key = $1', [dedupeKey]);
  }

  protected override async afterStop(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
  }

  protected async tick(): Promise<boolean> {
    return (await this.runDue()) > 0;
  }

  protected override idleMs(): Promise<number> {
    return this.msUntilNextDue();
  }

  /** Claims and runs every timer due now; returns how many ran (tests drive a manual clock with it). */
  async runDue(limit = 50): Promise<number> {
    const now = this.clock.now();
    const { rows } = await this.pool.query<{
      timer_id: string;
      kind: string;
      payload: Record<string, unknown>;
      due_at: Date;
      attempts: number;
    }>(
      `UPDATE timers SET locked_until = $2, attempts = attempts + 1
       WHERE timer_id IN (
         SELECT timer_id FROM timers
         WHERE due_at <= $1 AND (locked_until IS NULL OR locked_until < $1)
         ORDER BY due_at LIMIT $3 FOR UPDATE SKIP LOCKED)
       RETURNING timer_id, kind, payload, due_at, attempts`,
      [now, new Date(now.getTime() + LEASE_MS), limit],
    );
    await Promise.all(
      rows.map((row) =>
        this.track(
          this.fire({
            timerId: row.timer_id,
            kind: row.kind,
            payload: row.payload,
            dueAt: row.due_at,
            attempts: row.attempts,
          }),
        ),
      ),
    );
    return rows.length;
  }

  private async fire(timer: DueTimer): Promise<void> {
    const handler = this.handlers.get(timer.kind);
    try {
      if (!handler) throw new Error(`no handler for timer kind ${timer.kind}`);
      await handler(timer);
      await this.pool.query('DELETE FROM timers WHERE timer_id = $1', [timer.timerId]);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const backoff = Math.min(300_000, 1000 * 2 ** Math.min(timer.attempts, 8));
      this.logger.warn(`timer ${timer.kind} ${timer.timerId} failed (attempt ${timer.attempts}): ${message}`);
      await this.pool
        .query('UPDATE timers SET locked_until = NULL, due_at = $2, last_error = $3 WHERE timer_id = $1', [
          timer.timerId,
          new Date(this.clock.now().getTime() + backoff),
          message.slice(0, 1000),
        ])
        .catch(() => undefined);
    }
  }

  private track(p: Promise<void>): Promise<void> {
    this.inFlight.add(p);
    return p.finally(() => this.inFlight.delete(p));
  }

  private async msUntilNextDue(): Promise<number> {
    const { rows } = await this.pool.query<{ next: Date | null }>(
      'SELECT min(greatest(due_at, coalesce(locked_until, due_at))) AS next FROM timers',
    );
    const next = rows[0]?.next;
    if (!next) return 1000;
    return Math.max(5, Math.min(1000, next.getTime() - this.clock.now().getTime()));
  }
}
