import { Inject, Injectable } from '@nestjs/common';
import type { Pool } from 'pg';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { PG_POOL } from '../../infra/database/database.tokens';
import type { AttemptVerdict } from '../domain/delivery-policy';

/** Prometheus metrics of webhook delivery, served at /metrics. */
@Injectable()
export class WebhookMetrics {
  readonly registry = new Registry();
  private readonly attempts: Counter<'outcome'>;
  private readonly latency: Histogram;

  constructor(@Inject(PG_POOL) pool: Pool) {
    this.attempts = new Counter({
      name: 'webhook_delivery_attempts_total',
      help: 'Delivery attempts by outcome (succeeded, retry, fail, fail_and_suspend).',
      labelNames: ['outcome'],
      registers: [this.registry],
    });
    this.latency = new Histogram({
      name: 'webhook_attempt_duration_seconds',
      help: 'Duration of one delivery attempt, request to response.',
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15],
      registers: [this.registry],
    });
    new Gauge({
      name: 'webhook_deliveries',
      help: 'Deliveries by status (pending, succeeded, failed).',
      labelNames: ['status'],
      registers: [this.registry],
      async collect() {
        this.reset();
        const { rows } = await pool.query<{ status: string; n: string }>(
          'SELECT status, count(*) AS n FROM webhook_deliveries GROUP BY status',
        );
        for (const r of rows) this.set({ status: r.status }, Number(r.n));
      },
    });
    new Gauge({
      name: 'webhook_oldest_pending_age_seconds',
      help: 'Age of the oldest pending delivery.',
      registers: [this.registry],
      async collect() {
        const { rows } = await pool.query<{ age: number | null }>(
          `SELECT extract(epoch FROM now() - min(created_at))::float AS age FROM webhook_deliveries WHERE status = 'pending'`,
        );
        this.set(rows[0]?.age ?? 0);
      },
    });
    new Gauge({
      name: 'webhook_suspended_endpoints',
      help: 'Endpoints suspended after repeated failures.',
      registers: [this.registry],
      async collect() {
        const { rows } = await pool.query<{ n: string }>(
          `SELECT count(*) AS n FROM webhook_endpoints WHERE status = 'suspended'`,
        );
        this.set(Number(rows[0]?.n ?? 0));
      },
    });
  }

  observeAttempt(verdict: AttemptVerdict, durationMs: number): void {
    this.attempts.inc({ outcome: verdict });
    this.latency.observe(durationMs / 1000);
  }
}
