import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Pool, PoolClient } from 'pg';
import { APP_CONFIG, AppConfig, settingsOf } from '../../config/config';
import { webhooksSettings } from '../webhooks.config';
import { PG_POOL } from '../../infra/database/database.tokens';
import { inTransaction } from '../../infra/database/transaction';
import { CLOCK, Clock } from '../../kernel/clock';
import { decideNext, foldStreaks, StreakStep } from '../domain/delivery-policy';
import type { AttemptResult } from './delivery-sender';
import { WebhookMetrics } from './webhook-metrics';
import { errorMessage } from '../../kernel/errors';

/** The 'SUSPEND_ENDPOINT' provider: suspends through the endpoint command, like every other change. */
export type SuspendEndpoint = (
  tenantId: string,
  endpointId: string,
  failureStreak: number,
  lastStatus: number | null,
) => Promise<void>;

interface Suspension {
  endpointId: string;
  failureStreak: number;
  lastStatus: number | null;
}

const FLUSH_EVERY_MS = 20;

/**
 * Writes attempt results in small batches, one transaction each: an attempt row per try, the
 * delivery's next state and claim release, and the endpoints' failure streaks (delivery-policy.ts).
 * After the commit it counts the attempts in the metrics and suspends the endpoints the batch
 * pushed over the threshold. One flush runs at a time, so streaks are counted in completion order.
 */
@Injectable()
export class AttemptRecorder {
  private readonly logger = new Logger('Webhooks');
  private results: { result: AttemptResult; recorded: () => void }[] = [];
  private flushing: Promise<void> | null = null;
  private flushTimer: NodeJS.Timeout | null = null;
  private flushed: (nextRetry: Date | null) => void = () => undefined;

  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly metrics: WebhookMetrics,
    @Inject('SUSPEND_ENDPOINT') private readonly suspend: SuspendEndpoint,
  ) {}

  /**
   * Called after every flush, committed or not, with the earliest retry the batch scheduled (null:
   * none); a batch that could not be recorded reports now (its claims lapse and are claimed again).
   */
  onFlushed(listener: (nextRetry: Date | null) => void): void {
    this.flushed = listener;
  }

  /**
   * Buffers a result; it is written within FLUSH_EVERY_MS. Resolves once its batch has been
   * recorded, or given up on (then its claim lapses and it is attempted again); never rejects.
   */
  add(result: AttemptResult): Promise<void> {
    const recorded = new Promise<void>((resolve) => this.results.push({ result, recorded: resolve }));
    if (!this.flushTimer) {
      this.flushTimer = setTimeout(() => {
        this.flushTimer = null;
        void this.flush();
      }, FLUSH_EVERY_MS);
    }
    return recorded;
  }

  /** Writes buffered results; one flush at a time, so streaks are counted in completion order. */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing;
    if (this.results.length === 0) return;
    const batch = this.results;
    this.results = [];
    let nextRetry: Date | null = this.clock.now();
    this.flushing = this.recordEach(batch.map((b) => b.result))
      .then((at) => {
        nextRetry = at;
      })
      .finally(() => {
        this.flushing = null;
        for (const b of batch) b.recorded();
        // Retries are claimable from their due time: the worker looks then, not at the next poll.
        this.flushed(nextRetry);
      });
    await this.flushing;
  }

  /**
   * Records the batch in one transaction; if that fails, records each result on its own, so that one
   * result that cannot be stored never rolls back the others (which would send them again). A result
   * that still fails is logged with its delivery; its claim lapses and it is attempted again.
   */
  private async recordEach(batch: AttemptResult[]): Promise<Date | null> {
    try {
      return await this.record(batch);
    } catch (err) {
      const [only] = batch;
      if (batch.length === 1 && only) {
        this.recordFailed(only, err);
        return this.clock.now();
      }
      this.logger.warn(
        `recording ${batch.length} attempts at once failed (${errorMessage(err)}); recording them one by one`,
      );
    }
    let earliest: Date | null = null;
    for (const result of batch) {
      const at = await this.record([result]).catch((err: unknown) => {
        this.recordFailed(result, err);
        return this.clock.now();
      });
      if (at && (!earliest || at < earliest)) earliest = at;
    }
    return earliest;
  }

  private recordFailed(result: AttemptResult, err: unknown): void {
    this.logger.error(`recording the attempt of delivery ${result.delivery.delivery_id} failed: ${errorMessage(err)}`);
  }

  /** Records the batch in one transaction; returns the earliest retry it scheduled, null for none. */
  private async record(batch: AttemptResult[]): Promise<Date | null> {
    const now = this.clock.now();
    const decided = batch.map((result) => ({
      result,
      next: decideNext(
        {
          outcome: result.outcome,
          attemptNumber: result.delivery.attempt_count + 1,
          attemptedAt: result.at,
          firstAttemptAt: result.delivery.first_attempt_at,
        },
        { now, scheduleMs: settingsOf(this.config, webhooksSettings).retryScheduleMs },
      ),
    }));
    // Losing this commit in a crash only means the deliveries are sent again (at least once), so it
    // need not wait for the disk; the stored events it refers to were committed durably.
    const suspensions = await inTransaction(
      this.pool,
      async (tx): Promise<Suspension[]> => {
        await tx.query({
          name: 'webhook_attempts_record',
          text: `INSERT INTO webhook_attempts (delivery_id, attempted_at, http_status, error, duration_ms, response_body)
         SELECT * FROM unnest($1::text[], $2::timestamptz[], $3::int[], $4::text[], $5::int[], $6::text[])`,
          values: [
            batch.map((r) => r.delivery.delivery_id),
            batch.map((r) => r.at),
            batch.map((r) => (r.outcome.kind === 'response' ? r.outcome.status : null)),
            batch.map((r) => r.error),
            batch.map((r) => r.durationMs),
            batch.map((r) => r.responseBody),
          ],
        });
        await tx.query({
          name: 'webhook_deliveries_attempted',
          text: `UPDATE webhook_deliveries d SET status = u.status, attempt_count = d.attempt_count + 1,
           next_attempt_at = u.next_attempt_at, locked_until = NULL, updated_at = $5,
           first_attempt_at = coalesce(d.first_attempt_at, u.attempted_at)
         FROM unnest($1::text[], $2::text[], $3::timestamptz[], $4::timestamptz[]) AS u(delivery_id, status, next_attempt_at, attempted_at)
         WHERE d.delivery_id = u.delivery_id`,
          values: [
            decided.map((d) => d.result.delivery.delivery_id),
            decided.map((d) => d.next.status),
            decided.map((d) => d.next.nextAttemptAt),
            decided.map((d) => d.result.at),
            now,
          ],
        });
        return this.updateHealth(
          tx,
          decided.map(({ result, next }) => ({
            endpointId: result.delivery.endpoint_id,
            streakEffect: next.streakEffect,
            httpStatus: next.httpStatus,
          })),
          now,
        );
      },
      'BEGIN; SET LOCAL synchronous_commit = off',
    );
    for (const { result, next } of decided) this.metrics.observeAttempt(next.verdict, result.durationMs);
    for (const s of suspensions) {
      const tenantId = batch.find((r) => r.delivery.endpoint_id === s.endpointId)?.delivery.tenant_id;
      if (!tenantId) continue;
      await this.suspend(tenantId, s.endpointId, s.failureStreak, s.lastStatus).catch((err: unknown) =>
        this.logger.error(`suspending ${s.endpointId} failed: ${err instanceof Error ? err.message : String(err)}`),
      );
    }
    return decided.reduce<Date | null>((earliest, { next }) => {
      const at = next.status === 'pending' ? next.nextAttemptAt : null;
      return at && (!earliest || at < earliest) ? at : earliest;
    }, null);
  }

  /** Applies the batch's streak effects to the endpoints it touches, rows locked in id order. */
  private async updateHealth(tx: PoolClient, steps: StreakStep[], now: Date): Promise<Suspension[]> {
    const endpointIds = [...new Set(steps.filter((s) => s.streakEffect !== 'none').map((s) => s.endpointId))].sort();
    if (endpointIds.length === 0) return [];
    await tx.query({
      name: 'webhook_endpoint_health_ensure',
      text: `INSERT INTO webhook_endpoint_health (endpoint_id) SELECT unnest($1::text[]) ON CONFLICT DO NOTHING`,
      values: [endpointIds],
    });
    const { rows } = await tx.query<{ endpoint_id: string; failure_streak: number; last_status: number | null }>({
      name: 'webhook_endpoint_health_lock',
      text: 'SELECT endpoint_id, failure_streak, last_status FROM webhook_endpoint_health WHERE endpoint_id = ANY($1) ORDER BY endpoint_id FOR UPDATE',
      values: [endpointIds],
    });
    const current = new Map(
      rows.map((r) => [r.endpoint_id, { failureStreak: r.failure_streak, lastStatus: r.last_status }]),
    );
    const { health, suspend } = foldStreaks(current, steps, settingsOf(this.config, webhooksSettings).suspendAfter);
    for (const [endpointId, h] of health) {
      await tx.query(
        'UPDATE webhook_endpoint_health SET failure_streak = $2, last_status = $3, last_failure_at = CASE WHEN $2 > 0 THEN $4::timestamptz ELSE last_failure_at END WHERE endpoint_id = $1',
        [endpointId, h.failureStreak, h.lastStatus, now],
      );
    }
    return suspend.flatMap((endpointId) => {
      const h = health.get(endpointId);
      return h ? [{ endpointId, ...h }] : [];
    });
  }
}
