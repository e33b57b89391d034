import { Inject, Injectable } from '@nestjs/common';
import type { Pool } from 'pg';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { PG_POOL } from '../../infra/database/database.tokens';
import { CLOCK, Clock } from '../../kernel/clock';

export interface ClaimedDelivery {
  delivery_id: string;
  event_id: string;
  event_type: string;
  endpoint_id: string;
  tenant_id: string;
  /** The stored envelope: sent byte for byte on every attempt. */
  payload: string;
  attempt_count: number;
  first_attempt_at: Date | null;
  url: string;
  secret_sealed: string;
}

/** A claim outlives the longest attempt by this much; then a crashed instance's claims are taken over. */
const LEASE_SLACK_MS = 30_000;

/**
 * The delivery queue: due rows of active endpoints are claimed with FOR UPDATE SKIP LOCKED under a
 * lease (WEBHOOK_TIMEOUT_MS + 30 s), so instances compete safely. Recording an attempt releases its
 * claim.
 */
@Injectable()
export class DeliveryClaims {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async claim(limit: number): Promise<ClaimedDelivery[]> {
    const now = this.clock.now();
    const { rows } = await this.pool.query<ClaimedDelivery>(
      `/* a lost claim is only a lease that never happened */
       UPDATE webhook_deliveries d SET locked_until = $2
       FROM webhook_endpoints e
       WHERE d.delivery_id IN (
           SELECT d2.delivery_id FROM webhook_deliveries d2
           JOIN webhook_endpoints e2 ON e2.endpoint_id = d2.endpoint_id AND e2.status = 'active'
           WHERE d2.status = 'pending' AND d2.next_attempt_at <= $1 AND (d2.locked_until IS NULL OR d2.locked_until < $1)
           ORDER BY d2.next_attempt_at LIMIT $3
           FOR UPDATE OF d2 SKIP LOCKED)
         AND e.endpoint_id = d.endpoint_id
       RETURNING d.delivery_id, d.event_id, d.event_type, d.endpoint_id, d.tenant_id, d.payload, d.attempt_count, d.first_attempt_at,
                 e.url, e.secret_sealed`,
      [now, new Date(now.getTime() + this.config.webhookTimeoutMs + LEASE_SLACK_MS), limit],
    );
    return rows;
  }

  /** Until the next pending delivery is due or its lease lapses: at least 1 ms, at most 1 s. */
  async msUntilNextDue(): Promise<number> {
    const { rows } = await this.pool.query<{ next: Date | null }>(
      `SELECT min(greatest(d.next_attempt_at, coalesce(d.locked_until, d.next_attempt_at))) AS next
       FROM webhook_deliveries d JOIN webhook_endpoints e ON e.endpoint_id = d.endpoint_id AND e.status = 'active'
       WHERE d.status = 'pending'`,
    );
    const next = rows[0]?.next;
    if (!next) return 1000;
    return Math.max(1, Math.min(1000, next.getTime() - this.clock.now().getTime()));
  }
}
