import { Inject, Injectable } from '@nestjs/common';
import type { Pool } from 'pg';
import { APP_CONFIG, AppConfig, settingsOf } from '../../config/config';
import { webhooksSettings } from '../webhooks.config';
import { PG_POOL } from '../../infra/database/database.tokens';
import { CLOCK, Clock } from '../../kernel/clock';
import { LEASE_SLACK_MS } from './delivery-limits';

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
  /** End of this instance's lease, as stored: the token that renews it. */
  locked_until: Date;
}

/** A claim this instance holds (claimed, its result not yet recorded), to renew. */
export interface HeldClaim {
  deliveryId: string;
  lockedUntil: Date;
}

/** The longest sleep of an idle delivery worker. */
const IDLE_POLL_MS = 5000;

/**
 * The delivery queue, fair across endpoints and tenants.
 *
 * - **Only what can be sent now.** The worker asks for as many deliveries as it has free slots
 *   (at most 128 in flight per instance), and says how many attempts it has in flight to each
 *   endpoint. An endpoint already at WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT (default 8) is left out;
 *   any other contributes at most its free slots, oldest due first. Nothing claimed waits in the
 *   instance: every claimed delivery is sent at once, so its lease starts when its attempt does.
 * - **Fair order.** The candidates are taken in the order that fills the least busy first: by the
 *   tenant's attempts in flight once this one is added (its endpoints interleaved, least busy
 *   endpoint first), then by the endpoint's, then oldest due. A slow, failing or backlogged
 *   endpoint (or tenant) holds at most its own slots and never delays the others' deliveries.
 * - **Leases.** Rows are claimed with FOR UPDATE SKIP LOCKED under a lease of WEBHOOK_TIMEOUT_MS +
 *   30 s (an attempt never outlives WEBHOOK_TIMEOUT_MS, address resolution included, so the lease
 *   covers the attempt and the recording of its result). The worker renews the lease of every claim
 *   it still holds when less than 15 s is left, so a claim never lapses while its attempt is in
 *   flight or its result is being recorded; only a crashed (or stalled) instance's claims lapse and
 *   are taken over. Recording an attempt releases its claim.
 *
 * Instances compete safely; the per-endpoint bound is per instance (N instances: at most N × the
 * bound at one endpoint).
 */
@Injectable()
export class DeliveryClaims {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** The lease a claim or a renewal gives, from now. */
  leaseMs(): number {
    return settingsOf(this.config, webhooksSettings).timeoutMs + LEASE_SLACK_MS;
  }

  /**
   * Claims at most `limit` due deliveries of active endpoints, fairly (see the class comment), given
   * the attempts this instance has in flight per endpoint.
   */
  async claim(limit: number, inFlight: ReadonlyMap<string, number>): Promise<ClaimedDelivery[]> {
    if (limit <= 0) return [];
    const now = this.clock.now();
    const busy = [...inFlight].filter(([, n]) => n > 0);
    const { rows } = await this.pool.query<ClaimedDelivery>({
      name: 'webhook_deliveries_claim',
      text: `/* a lost claim is only a lease that never happened */
       WITH busy AS (
         SELECT * FROM unnest($4::text[], $5::int[]) AS b(endpoint_id, n)
       ), tenant_busy AS (
         SELECT e.tenant_id, sum(b.n)::int AS n FROM busy b JOIN webhook_endpoints e USING (endpoint_id) GROUP BY e.tenant_id
       ), open_endpoints AS (
         SELECT e.endpoint_id, e.tenant_id, coalesce(b.n, 0) AS n
         FROM webhook_endpoints e LEFT JOIN busy b USING (endpoint_id)
         WHERE e.status = 'active' AND coalesce(b.n, 0) < $6
       ), candidates AS (
         SELECT o.tenant_id, o.n + c.slot AS endpoint_load, c.delivery_id, c.next_attempt_at
         FROM open_endpoints o CROSS JOIN LATERAL (
           SELECT d.delivery_id, d.next_attempt_at, row_number() OVER (ORDER BY d.next_attempt_at, d.delivery_id) AS slot
           FROM webhook_deliveries d
           WHERE d.endpoint_id = o.endpoint_id AND d.status = 'pending' AND d.next_attempt_at <= $1
             AND (d.locked_until IS NULL OR d.locked_until < $1)
           ORDER BY d.next_attempt_at, d.delivery_id
           LIMIT $6 - o.n
         ) c
       ), picked AS (
         SELECT c.delivery_id FROM candidates c LEFT JOIN tenant_busy t USING (tenant_id)
         ORDER BY coalesce(t.n, 0) + row_number() OVER (PARTITION BY c.tenant_id ORDER BY c.endpoint_load, c.next_attempt_at, c.delivery_id),
                  c.endpoint_load, c.next_attempt_at, c.delivery_id
         LIMIT $3
       ), claimable AS (
         SELECT d.delivery_id FROM webhook_deliveries d
         WHERE d.delivery_id IN (SELECT delivery_id FROM picked)
           AND d.status = 'pending' AND (d.locked_until IS NULL OR d.locked_until < $1)
         FOR UPDATE OF d SKIP LOCKED
       )
       UPDATE webhook_deliveries d SET locked_until = $2
       FROM claimable c, webhook_endpoints e
       WHERE d.delivery_id = c.delivery_id AND e.endpoint_id = d.endpoint_id
       RETURNING d.delivery_id, d.event_id, d.event_type, d.endpoint_id, d.tenant_id, d.payload, d.attempt_count, d.first_attempt_at,
                 e.url, e.secret_sealed, d.locked_until`,
      values: [
        now,
        new Date(now.getTime() + this.leaseMs()),
        limit,
        busy.map(([id]) => id),
        busy.map(([, n]) => n),
        settingsOf(this.config, webhooksSettings).maxInFlightPerEndpoint,
      ],
    });
    return rows;
  }

  /**
   * Extends the leases of claims this instance still holds to a full lease from now. A claim is
   * renewed only while its lease is the one this instance set (`lockedUntil`): one already recorded,
   * or lapsed and taken over, is left alone. Returns the new lease end of each claim renewed.
   */
  async renew(held: readonly HeldClaim[]): Promise<Map<string, Date>> {
    if (held.length === 0) return new Map();
    const until = new Date(this.clock.now().getTime() + this.leaseMs());
    const { rows } = await this.pool.query<{ delivery_id: string }>(
      `UPDATE webhook_deliveries d SET locked_until = $1
       FROM unnest($2::text[], $3::timestamptz[]) AS h(delivery_id, locked_until)
       WHERE d.delivery_id = h.delivery_id AND d.locked_until = h.locked_until AND d.status = 'pending'
       RETURNING d.delivery_id`,
      [until, held.map((h) => h.deliveryId), held.map((h) => h.lockedUntil)],
    );
    return new Map(rows.map((r) => [r.delivery_id, until]));
  }

  /**
   * Until the next delivery this instance could claim is due, among active endpoints not in `full`
   * (those at their in-flight bound wait for a finished attempt, which wakes the worker anyway):
   * at least 1 ms, at most 1 s (so a lapsed lease is taken over within a second).
   */
  async msUntilNextDue(full: readonly string[]): Promise<number> {
    const now = this.clock.now();
    const { rows } = await this.pool.query<{ next: Date | null }>(
      `SELECT min(n.next_attempt_at) AS next
       FROM webhook_endpoints e CROSS JOIN LATERAL (
         SELECT d.next_attempt_at FROM webhook_deliveries d
         WHERE d.endpoint_id = e.endpoint_id AND d.status = 'pending' AND (d.locked_until IS NULL OR d.locked_until < $1)
         ORDER BY d.next_attempt_at LIMIT 1
       ) n
       WHERE e.status = 'active' AND e.endpoint_id <> ALL($2::text[])`,
      [now, full],
    );
    const next = rows[0]?.next;
    // New deliveries poke the worker (the outbox commits them in this process; another instance's
    // worker sends its own), so with nothing due the fallback poll can be slow.
    if (!next) return IDLE_POLL_MS;
    return Math.max(1, Math.min(IDLE_POLL_MS, next.getTime() - now.getTime()));
  }
}
