import { Inject, Injectable } from '@nestjs/common';
import type { Pool } from 'pg';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { PG_POOL } from '../../infra/database/database.tokens';
import type { AttemptVerdict } from '../domain/delivery-policy';

const SNAPSHOT_MS = 5_000;

interface Snapshot {
  byStatus: [string, number][];
  oldestPendingAgeSeconds: number;
  suspendedEndpoints: number;
}

async function readSnapshot(pool: Pool): Promise<Snapshot> {
  const { rows } = await pool.query<{
    by_status: Record<string, string> | null;
    age: number | null;
    suspended: string;
  }>(
    `SELECT (SELECT json_object_agg(status, n) FROM (SELECT status, count(*) AS n FROM webhook_deliveries GROUP BY status) s) AS by_status,
            (SELECT extract(epoch FROM now() - min(created_at))::float FROM webhook_deliveries WHERE status = 'pending') AS age,
            (SELECT count(*) FROM webhook_endpoints WHERE status = 'suspended') AS suspended`,
  );
  const row = rows[0];
  return {
    byStatus: Object.entries(row?.by_status ?? {}).map(([status, n]) => [status, Number(n)]),
    oldestPendingAgeSeconds: row?.age ?? 0,
    suspendedEndpoints: Number(row?.suspended ?? 0),
  };
}

/** Prometheus metrics of webhook delivery, served at /metrics. */
@Injectable()
export class WebhookMetrics {
  readonly registry = new Registry();
  private readonly attempts: Counter<'outcome'>;
  private readonly latency: Histogram;
  private cached: { at: number; value: Promise<Snapshot> } | null = null;

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
    // One query for the three gauges, at most every SNAPSHOT_MS however often /metrics is scraped
    // (and by however many scrapers): counting deliveries is a scan of the retention window.
    const snapshot = (): Promise<Snapshot> => {
      const now = Date.now();
      if (!this.cached || now - this.cached.at > SNAPSHOT_MS) {
        const read = readSnapshot(pool);
        this.cached = { at: now, value: read };
        read.catch(() => (this.cached = null));
      }
      return this.cached.value;
    };
    new Gauge({
      name: 'webhook_deliveries',
      help: 'Deliveries by status (pending, succeeded, failed).',
      labelNames: ['status'],
      registers: [this.registry],
      async collect() {
        const { byStatus } = await snapshot();
        this.reset();
        for (const [status, n] of byStatus) this.set({ status }, n);
      },
    });
    new Gauge({
      name: 'webhook_oldest_pending_age_seconds',
      help: 'Age of the oldest pending delivery.',
      registers: [this.registry],
      async collect() {
        this.set((await snapshot()).oldestPendingAgeSeconds);
      },
    });
    new Gauge({
      name: 'webhook_suspended_endpoints',
      help: 'Endpoints suspended after repeated failures.',
      registers: [this.registry],
      async collect() {
        this.set((await snapshot()).suspendedEndpoints);
      },
    });
  }

  observeAttempt(verdict: AttemptVerdict, durationMs: number): void {
    this.attempts.inc({ outcome: verdict });
    this.latency.observe(durationMs / 1000);
  }
}
