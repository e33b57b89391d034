import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Pool } from 'pg';
import { Agent, Dispatcher, request } from 'undici';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { PG_POOL } from '../../infra/database/database.tokens';
import { CLOCK, Clock } from '../../kernel/clock';
import { Wakeup } from '../../runtime/wakeup';
import { SecretBox } from '../../kernel/secret-box';
import { AttemptOutcome, classifyAttempt, nextRetryDelayMs } from '../domain/delivery-policy';
import { signDelivery } from '../../kernel/signing/signing';
import { createPinnedDispatcher, resolvePublicAddress, validateWebhookUrl } from './address-policy';
import { WebhookMetrics } from './webhook-metrics';
import { SECRET_BOX } from '../../infra/secret-box.provider';

interface Claimed {
  delivery_id: string;
  event_id: string;
  event_type: string;
  endpoint_id: string;
  tenant_id: string;
  payload: string;
  attempt_count: number;
  first_attempt_at: Date | null;
  url: string;
  secret_sealed: string;
}

interface AttemptResult {
  delivery: Claimed;
  at: Date;
  outcome: AttemptOutcome;
  error: string | null;
  durationMs: number;
  responseBody: string | null;
}

const MAX_IN_FLIGHT = 128;
const CLAIM_BATCH_MIN = MAX_IN_FLIGHT / 4;
/** Concurrent connections to one receiver (host and port): enough for throughput, bounded to spare it. */
const CONNECTIONS_PER_ORIGIN = 32;
const RESPONSE_CAPTURE_BYTES = 4096;
const FLUSH_EVERY_MS = 20;

/**
 * Sends due deliveries. Rows are claimed with FOR UPDATE SKIP LOCKED under a lease, so instances
 * compete safely and a crashed instance's claims are taken over when the lease lapses. Up to 64
 * requests are in flight; their results are written in small batches, one transaction each
 * (attempt rows, delivery state, endpoint failure streaks). The body is the stored envelope, byte
 * for byte, on every attempt; only the timestamp and signatures are new.
 */
@Injectable()
export class DeliveryWorker {
  readonly name = 'webhook-delivery';
  private readonly logger = new Logger('Webhooks');
  private running = false;
  private loop: Promise<void> | null = null;
  private readonly wakeup = new Wakeup();
  private inFlight = 0;
  private results: AttemptResult[] = [];
  private flushing: Promise<void> | null = null;
  private flushTimer: NodeJS.Timeout | null = null;
  private readonly pending = new Set<Promise<void>>();
  private readonly dispatchers = new Map<string, { dispatcher: Dispatcher; at: number }>();
  private readonly secrets = new Map<string, string>();
  private readonly plainAgent: Agent;

  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
    private readonly metrics: WebhookMetrics,
    @Inject('SUSPEND_ENDPOINT')
    private readonly suspend: (
      tenantId: string,
      endpointId: string,
      streak: number,
      lastStatus: number | null,
    ) => Promise<void>,
  ) {
    this.plainAgent = new Agent({
      headersTimeout: config.webhookTimeoutMs,
      bodyTimeout: config.webhookTimeoutMs,
      connect: { timeout: config.webhookTimeoutMs },
      connections: CONNECTIONS_PER_ORIGIN,
      keepAliveTimeout: 4_000,
    });
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  poke(): void {
    this.wakeup.wake();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.poke();
    await this.loop;
    await Promise.allSettled([...this.pending]);
    await this.flush();
    await Promise.allSettled([
      this.plainAgent.close(),
      ...[...this.dispatchers.values()].map((d) => d.dispatcher.close()),
    ]);
    this.dispatchers.clear();
  }

  private async run(): Promise<void> {
    while (this.running) {
      try {
        this.wakeup.reset();
        const room = MAX_IN_FLIGHT - this.inFlight;
        // Claim in batches: a claim per finished attempt would cost a query per delivery.
        if (room < CLAIM_BATCH_MIN && this.inFlight > 0) {
          await this.wakeup.sleep(1000); // finished attempts wake the loop
          continue;
        }
        const claimed = await this.claim(room);
        for (const delivery of claimed) this.launch(delivery);
        if (claimed.length === room) continue;
        await this.wakeup.sleep(claimed.length > 0 || this.inFlight > 0 ? 1000 : await this.msUntilNextDue());
      } catch (err) {
        this.logger.error(`delivery loop: ${err instanceof Error ? err.message : String(err)}`);
        await this.wakeup.sleep(1000);
      }
    }
  }

  private async claim(limit: number): Promise<Claimed[]> {
    const now = this.clock.now();
    const { rows } = await this.pool.query<Claimed>(
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
      [now, new Date(now.getTime() + this.config.webhookTimeoutMs + 30_000), limit],
    );
    return rows;
  }

  private launch(delivery: Claimed): void {
    this.inFlight++;
    const p = this.attempt(delivery)
      .then((result) => {
        this.results.push(result);
        this.scheduleFlush();
      })
      .finally(() => {
        this.inFlight--;
        this.pending.delete(p);
        this.poke();
      });
    this.pending.add(p);
  }

  private async attempt(delivery: Claimed): Promise<AttemptResult> {
    const at = this.clock.now();
    const started = performance.now();
    const finish = (
      outcome: AttemptOutcome,
      error: string | null,
      responseBody: string | null = null,
    ): AttemptResult => ({
      delivery,
      at,
      outcome,
      error,
      durationMs: Math.round(performance.now() - started),
      responseBody,
    });
    let dispatcher: Dispatcher;
    try {
      dispatcher = await this.dispatcherFor(delivery.url);
    } catch (err) {
      return finish(
        { kind: 'network_error', code: 'address_rejected' },
        err instanceof Error ? err.message : String(err),
      );
    }
    const headers = signDelivery({
      secret: this.secretOf(delivery.secret_sealed),
      eventId: delivery.event_id,
      eventType: delivery.event_type,
      timestampSeconds: Math.floor(at.getTime() / 1000),
      body: delivery.payload,
    });
    try {
      const response = await request(delivery.url, {
        method: 'POST',
        headers: { ...headers, 'user-agent': 'VoiceAgentPlatform-Webhooks/1' },
        body: delivery.payload,
        dispatcher,
        signal: AbortSignal.timeout(this.config.webhookTimeoutMs),
      });
      const empty = response.statusCode === 204 || response.headers['content-length'] === '0';
      const body = empty ? (await response.body.dump(), '') : await readCapped(response.body, RESPONSE_CAPTURE_BYTES);
      const retryAfter = response.headers['retry-after'];
      return finish(
        {
          kind: 'response',
          status: response.statusCode,
          retryAfterHeader: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter,
        },
        null,
        body,
      );
    } catch (err) {
      const e = err as { name?: string; code?: string; message?: string };
      const timedOut =
        e.name === 'TimeoutError' ||
        e.name === 'AbortError' ||
        e.code === 'UND_ERR_HEADERS_TIMEOUT' ||
        e.code === 'UND_ERR_BODY_TIMEOUT' ||
        e.code === 'UND_ERR_CONNECT_TIMEOUT';
      return timedOut
        ? finish({ kind: 'timeout' }, `timeout after ${this.config.webhookTimeoutMs} ms`)
        : finish(
            { kind: 'network_error', code: e.code },
            `${e.code ?? e.name ?? 'error'}: ${e.message ?? ''}`.slice(0, 500),
          );
    }
  }

  /** Public-address check at every delivery, with the connection pinned to the checked address. */
  private async dispatcherFor(rawUrl: string): Promise<Dispatcher> {
    if (this.config.webhookAllowPrivateUrls) return this.plainAgent;
    const valid = validateWebhookUrl(rawUrl, { allowPrivate: false });
    if (!valid.ok) throw new Error(valid.message);
    const resolved = await resolvePublicAddress(valid.url.hostname, { allowPrivate: false });
    if (!resolved.ok) throw new Error(resolved.message);
    const key = `${valid.url.host}|${resolved.address}`;
    const cached = this.dispatchers.get(key);
    if (cached) return cached.dispatcher;
    const dispatcher = createPinnedDispatcher(resolved.address, resolved.family, {
      timeoutMs: this.config.webhookTimeoutMs,
      connections: CONNECTIONS_PER_ORIGIN,
    });
    this.dispatchers.set(key, { dispatcher, at: Date.now() });
    if (this.dispatchers.size > 500) {
      const oldest = [...this.dispatchers.entries()].sort((a, b) => a[1].at - b[1].at)[0];
      if (oldest) {
        this.dispatchers.delete(oldest[0]);
        void oldest[1].dispatcher.close().catch(() => undefined);
      }
    }
    return dispatcher;
  }

  private secretOf(sealed: string): string {
    let secret = this.secrets.get(sealed);
    if (secret === undefined) {
      secret = this.box.open(sealed);
      if (this.secrets.size > 10_000) this.secrets.clear();
      this.secrets.set(sealed, secret);
    }
    return secret;
  }

  private scheduleFlush(): void {
    if (this.flushTimer) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = null;
      void this.flush();
    }, FLUSH_EVERY_MS);
  }

  /** Writes buffered results; one flush at a time, so streaks are counted in completion order. */
  private async flush(): Promise<void> {
    while (this.flushing) await this.flushing;
    if (this.results.length === 0) return;
    const batch = this.results;
    this.results = [];
    this.flushing = this.record(batch)
      .catch((err: unknown) => {
        // The claims lapse and the deliveries are attempted again: at least once, never lost.
        this.logger.error(
          `recording ${batch.length} attempts failed: ${err instanceof Error ? err.message : String(err)}`,
        );
      })
      .finally(() => {
        this.flushing = null;
        // Retries and freed slots are visible now: look for due work at once, not at the next poll.
        this.poke();
      });
    await this.flushing;
  }

  private async record(batch: AttemptResult[]): Promise<void> {
    const now = this.clock.now();
    const updates = batch.map((r) => this.decideNext(r, now));
    const suspensions: { tenantId: string; endpointId: string; streak: number; lastStatus: number | null }[] = [];
    const tx = await this.pool.connect();
    try {
      await tx.query('BEGIN');
      // Losing this commit in a crash only means the deliveries are sent again (at least once), so it
      // need not wait for the disk; the stored events it refers to were committed durably.
      await tx.query('SET LOCAL synchronous_commit = off');
      await tx.query(
        `INSERT INTO webhook_attempts (delivery_id, attempted_at, http_status, error, duration_ms, response_body)
         SELECT * FROM unnest($1::text[], $2::timestamptz[], $3::int[], $4::text[], $5::int[], $6::text[])`,
        [
          batch.map((r) => r.delivery.delivery_id),
          batch.map((r) => r.at),
          batch.map((r) => (r.outcome.kind === 'response' ? r.outcome.status : null)),
          batch.map((r) => r.error),
          batch.map((r) => r.durationMs),
          batch.map((r) => r.responseBody),
        ],
      );
      await tx.query(
        `UPDATE webhook_deliveries d SET status = u.status, attempt_count = d.attempt_count + 1,
           next_attempt_at = u.next_attempt_at, locked_until = NULL, updated_at = $5,
           first_attempt_at = coalesce(d.first_attempt_at, u.attempted_at)
         FROM unnest($1::text[], $2::text[], $3::timestamptz[], $4::timestamptz[]) AS u(delivery_id, status, next_attempt_at, attempted_at)
         WHERE d.delivery_id = u.delivery_id`,
        [
          updates.map((u) => u.deliveryId),
          updates.map((u) => u.status),
          updates.map((u) => u.nextAttemptAt),
          batch.map((r) => r.at),
          now,
        ],
      );
      // Failure streaks, applied in completion order: a success resets, a permanent failure adds one.
      const endpointIds = [
        ...new Set(updates.filter((u) => u.streakEffect !== 'none').map((u) => u.endpointId)),
      ].sort();
      if (endpointIds.length > 0) {
        await tx.query(
          `INSERT INTO webhook_endpoint_health (endpoint_id) SELECT unnest($1::text[]) ON CONFLICT DO NOTHING`,
          [endpointIds],
        );
        const { rows } = await tx.query<{ endpoint_id: string; failure_streak: number; last_status: number | null }>(
          'SELECT endpoint_id, failure_streak, last_status FROM webhook_endpoint_health WHERE endpoint_id = ANY($1) ORDER BY endpoint_id FOR UPDATE',
          [endpointIds],
        );
        const health = new Map(
          rows.map((r) => [r.endpoint_id, { streak: r.failure_streak, lastStatus: r.last_status, suspendNow: false }]),
        );
        for (const u of updates) {
          const h = health.get(u.endpointId);
          if (!h || u.streakEffect === 'none') continue;
          if (u.streakEffect === 'reset') h.streak = 0;
          else {
            h.streak += 1;
            h.lastStatus = u.httpStatus;
            if (u.streakEffect === 'fail_and_suspend' || h.streak >= this.config.webhookSuspendAfter)
              h.suspendNow = true;
          }
        }
        for (const [endpointId, h] of health) {
          await tx.query(
            'UPDATE webhook_endpoint_health SET failure_streak = $2, last_status = $3, last_failure_at = CASE WHEN $2 > 0 THEN $4::timestamptz ELSE last_failure_at END WHERE endpoint_id = $1',
            [endpointId, h.streak, h.lastStatus, now],
          );
          const tenantId = batch.find((r) => r.delivery.endpoint_id === endpointId)?.delivery.tenant_id;
          if (h.suspendNow && tenantId)
            suspensions.push({ tenantId, endpointId, streak: h.streak, lastStatus: h.lastStatus });
        }
      }
      await tx.query('COMMIT');
    } catch (err) {
      await tx.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      tx.release();
    }
    for (const r of batch) this.metrics.observeAttempt(classifyAttempt(r.outcome), r.durationMs);
    for (const s of suspensions) {
      await this.suspend(s.tenantId, s.endpointId, s.streak, s.lastStatus).catch((err: unknown) =>
        this.logger.error(`suspending ${s.endpointId} failed: ${err instanceof Error ? err.message : String(err)}`),
      );
    }
  }

  private decideNext(r: AttemptResult, now: Date) {
    const verdict = classifyAttempt(r.outcome);
    const attemptNumber = r.delivery.attempt_count + 1;
    const httpStatus = r.outcome.kind === 'response' ? r.outcome.status : null;
    const base = { deliveryId: r.delivery.delivery_id, endpointId: r.delivery.endpoint_id, httpStatus };
    if (verdict === 'succeeded')
      return { ...base, status: 'succeeded', nextAttemptAt: null, streakEffect: 'reset' as const };
    if (verdict === 'retry') {
      const firstAt = r.delivery.first_attempt_at ?? r.at;
      const delay = nextRetryDelayMs({
        attemptNumber,
        scheduleMs: this.config.webhookRetryScheduleMs,
        retryAfterHeader: r.outcome.kind === 'response' ? r.outcome.retryAfterHeader : null,
        now,
        elapsedSinceFirstAttemptMs: now.getTime() - firstAt.getTime(),
      });
      if (delay !== null) {
        return {
          ...base,
          status: 'pending',
          nextAttemptAt: new Date(now.getTime() + delay),
          streakEffect: 'none' as const,
        };
      }
      return { ...base, status: 'failed', nextAttemptAt: null, streakEffect: 'fail' as const };
    }
    return {
      ...base,
      status: 'failed',
      nextAttemptAt: null,
      streakEffect: verdict === 'fail_and_suspend' ? ('fail_and_suspend' as const) : ('fail' as const),
    };
  }

  private async msUntilNextDue(): Promise<number> {
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

async function readCapped(body: AsyncIterable<Buffer> & { destroy?: () => void }, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    if (size < limit) {
      chunks.push(chunk);
      size += chunk.length;
    }
    // Keep reading (and discarding) so the connection can be reused.
  }
  return Buffer.concat(chunks).subarray(0, limit).toString('utf8');
}
