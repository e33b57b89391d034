import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, AppConfig, settingsOf } from '../../config/config';
import { webhooksSettings } from '../webhooks.config';
import { CLOCK, Clock } from '../../kernel/clock';
import { PollingWorker } from '../../runtime/workers/polling-worker';
import { EVENT_STORE, type EventStore } from '../../event-store/event-store.port';
import { AttemptRecorder } from './attempt-recorder';
import { ClaimedDelivery, DeliveryClaims, HeldClaim } from './delivery-claims';
import { MAX_IN_FLIGHT, RENEW_WHEN_LEFT_MS } from './delivery-limits';
import { DeliverySender } from './delivery-sender';
import { errorMessage } from '../../kernel/errors';

/** How often at most the held claims are checked for renewal. */
const RENEW_CHECK_EVERY_MS = 1000;

/** How often at most the worker asks PostgreSQL when the next delivery is due (between, it sleeps on the answer). */
const NEXT_DUE_EVERY_MS = 1000;

/** How long after an append anywhere the worker looks for deliveries (once per such window). */
const AFTER_APPEND_MS = 100;

/**
 * Sends due deliveries: claims only what it can send at once (delivery-claims.ts: up to 128 in
 * flight, at most WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT per endpoint, fair across endpoints and
 * tenants), makes the attempts (delivery-sender.ts) and hands each result to the recorder
 * (attempt-recorder.ts), which writes them in small batches. An attempt's slot is free again as
 * soon as the attempt is over; its claim is held, and its lease renewed when it runs short, until
 * the result is recorded. Finished attempts and committed batches poke the loop, so freed slots
 * and retries are taken up at once. Stopping waits for the attempts in flight and writes their
 * results.
 */
@Injectable()
export class DeliveryWorker extends PollingWorker {
  private readonly logger = new Logger('Webhooks');
  private inFlight = 0;
  private readonly inFlightByEndpoint = new Map<string, number>();
  /** Claims held (attempt in flight or result not yet recorded), with the lease end this instance set. */
  private readonly held = new Map<string, Date>();
  private readonly pending = new Set<Promise<void>>();
  private nextRenewalCheck = 0;
  private pokedInRound = false;
  private unsubscribe: (() => void) | null = null;
  private afterAppend: NodeJS.Timeout | null = null;
  /** A poke set for the earliest retry this instance recorded, and when it fires. */
  private retryWake: { timer: NodeJS.Timeout; at: number } | null = null;
  /** The last answer to "when is the next delivery due?" (ms since epoch) and when it was asked. */
  private nextDue = { at: 0, askedAt: -Infinity };
  /** The last claim found nothing and no bound held anything back: a finished attempt frees nothing claimable. */
  private claimedDry = false;

  constructor(
    private readonly claims: DeliveryClaims,
    private readonly sender: DeliverySender,
    private readonly recorder: AttemptRecorder,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(EVENT_STORE) private readonly store: EventStore,
  ) {
    super('webhook-delivery', {
      onError: (err) => new Logger('Webhooks').error(`delivery loop: ${errorMessage(err)}`),
      backoffMs: () => 1000,
    });
    recorder.onFlushed((nextRetry) => this.lookAt(nextRetry));
  }

  override poke(): void {
    this.pokedInRound = true;
    super.poke();
  }

  /**
   * This instance's outbox pokes the worker when it commits deliveries, but with several instances
   * the outbox page may be committed by another one, which pokes only its own worker. So another
   * instance's append (its NOTIFY) also wakes this worker, once per 100 ms, by when the outbox page
   * that holds it has likely committed; the 5 s poll covers the rest. An append of this process
   * does not: whichever instance commits its outbox page pokes its own worker, and a wake-up here
   * would only be a claim that finds nothing, and a query for the next due time, per 100 ms of
   * appends (decision 161).
   */
  override start(): void {
    if (this.isRunning) return;
    this.unsubscribe = this.store.onAppended((origin) => {
      if (origin === 'local' || this.afterAppend) return;
      this.afterAppend = setTimeout(() => {
        this.afterAppend = null;
        this.poke();
      }, AFTER_APPEND_MS);
      this.afterAppend.unref();
    });
    super.start();
  }

  override async stop(): Promise<void> {
    this.unsubscribe?.();
    this.unsubscribe = null;
    if (this.afterAppend) clearTimeout(this.afterAppend);
    this.afterAppend = null;
    if (this.retryWake) clearTimeout(this.retryWake.timer);
    this.retryWake = null;
    await super.stop();
  }

  protected async tick(): Promise<boolean> {
    this.pokedInRound = false;
    await this.renewLeases();
    const room = MAX_IN_FLIGHT - this.inFlight;
    if (room <= 0) {
      this.claimedDry = false;
      return false; // a finished attempt pokes the loop
    }
    const full = this.fullEndpoints().length > 0;
    const claimed = await this.claims.claim(room, this.inFlightByEndpoint);
    this.claimedDry = claimed.length === 0 && !full;
    for (const delivery of claimed) this.launch(delivery);
    return claimed.length === room;
  }

  protected override idleMs(): number | Promise<number> {
    // Poked while claiming (an attempt ended, a batch was recorded): the loop goes round again at once.
    if (this.pokedInRound) return 0;
    if (this.inFlight >= MAX_IN_FLIGHT) return 1000;
    return this.untilNextDue();
  }

  /**
   * How long to sleep: what PostgreSQL said the next due delivery is, asked at most once a second
   * (decision 162), and again after a recorded batch scheduled retries (`lookAt`). Between questions the worker sleeps on the last answer, and once that has passed,
   * until it may ask again: what becomes due meanwhile is announced by a poke (an outbox commit, a
   * freed bound slot, a retry this instance recorded) or is another instance's to send; the rest
   * (a lapsed lease, another instance's retry) waited for the poll before too.
   */
  private async untilNextDue(): Promise<number> {
    const now = Date.now();
    if (now - this.nextDue.askedAt >= NEXT_DUE_EVERY_MS) {
      const ms = await this.claims.msUntilNextDue(this.fullEndpoints());
      this.nextDue = { at: now + ms, askedAt: now };
      return ms;
    }
    const ahead = this.nextDue.at - now;
    return ahead > 0 ? ahead : Math.max(1, this.nextDue.askedAt + NEXT_DUE_EVERY_MS - now);
  }

  protected override async afterStop(): Promise<void> {
    await Promise.allSettled([...this.pending]);
    await this.recorder.flush();
    await this.sender.close();
  }

  /**
   * A recorded batch's earliest retry: the loop looks for due work then (at once if it is due), so
   * that a retry goes out on time whatever the loop's sleep. A batch without retries frees nothing
   * claimable (its rows were this instance's claims; the slots were freed when the attempts ended),
   * so it wakes nothing: a round there would be a claim that finds nothing and a next-due query
   * (decision 162).
   */
  private lookAt(nextRetry: Date | null): void {
    if (!nextRetry) return;
    // The last answer to "when is the next delivery due?" may have been given while these rows were
    // still claimed (then it did not see them, and said the 5 s poll): it is asked again at the next
    // idle. Only the batch's earliest retry gets a wake-up; the round it starts asks, and finds the
    // others (a CI run saw a second retry of one batch wait the whole 5 s).
    this.nextDue.askedAt = -Infinity;
    const at = nextRetry.getTime();
    const ms = at - this.clock.now().getTime();
    if (ms <= 0) return this.poke();
    if (this.retryWake && this.retryWake.at <= at) return;
    if (this.retryWake) clearTimeout(this.retryWake.timer);
    const timer = setTimeout(() => {
      this.retryWake = null;
      this.poke();
    }, ms);
    timer.unref();
    this.retryWake = { timer, at };
  }

  /** Endpoints with as many attempts in flight as they may have: nothing of theirs is claimable now. */
  private fullEndpoints(): string[] {
    const max = settingsOf(this.config, webhooksSettings).maxInFlightPerEndpoint;
    return [...this.inFlightByEndpoint].filter(([, n]) => n >= max).map(([id]) => id);
  }

  private launch(delivery: ClaimedDelivery): void {
    const { delivery_id: deliveryId, endpoint_id: endpointId } = delivery;
    this.inFlight++;
    this.inFlightByEndpoint.set(endpointId, (this.inFlightByEndpoint.get(endpointId) ?? 0) + 1);
    this.held.set(deliveryId, delivery.locked_until);
    const attempt = this.sender.send(delivery).finally(() => {
      this.inFlight--;
      const n = (this.inFlightByEndpoint.get(endpointId) ?? 1) - 1;
      if (n > 0) this.inFlightByEndpoint.set(endpointId, n);
      else this.inFlightByEndpoint.delete(endpointId);
      // A freed slot is worth a round unless the last claim found nothing with no bound holding
      // anything back: then nothing was claimable, and a round would only find nothing again.
      if (!this.claimedDry) this.poke();
    });
    const p = attempt
      .then((result) => this.recorder.add(result))
      .catch((err: unknown) =>
        // The sender classifies every failure it knows; its claim lapses and it is attempted again.
        this.logger.error(`attempt of delivery ${deliveryId} failed unexpectedly: ${errorMessage(err)}`),
      )
      .finally(() => {
        this.held.delete(deliveryId);
        this.pending.delete(p);
      });
    this.pending.add(p);
  }

  /**
   * Renews the lease of every held claim with less than RENEW_WHEN_LEFT_MS left (checked at most
   * once a second), so that a claim never lapses while its attempt is in flight or its result is
   * being recorded. In the normal case (the attempt ends within WEBHOOK_TIMEOUT_MS, the recording
   * within milliseconds) nothing needs renewing and no query is made.
   */
  private async renewLeases(): Promise<void> {
    const now = this.clock.now().getTime();
    if (now < this.nextRenewalCheck || this.held.size === 0) return;
    this.nextRenewalCheck = now + RENEW_CHECK_EVERY_MS;
    const due: HeldClaim[] = [];
    for (const [deliveryId, lockedUntil] of this.held) {
      if (lockedUntil.getTime() - now < RENEW_WHEN_LEFT_MS) due.push({ deliveryId, lockedUntil });
    }
    if (due.length === 0) return;
    const renewed = await this.claims.renew(due);
    for (const { deliveryId, lockedUntil } of due) {
      if (!this.held.has(deliveryId)) continue; // recorded meanwhile
      const until = renewed.get(deliveryId);
      if (until) {
        this.held.set(deliveryId, until);
        continue;
      }
      // Recorded meanwhile, or the lease lapsed and another instance may have claimed it.
      this.held.delete(deliveryId);
      if (lockedUntil.getTime() <= now) {
        this.logger.warn(
          `the claim of delivery ${deliveryId} lapsed before its result was recorded; it may be sent again`,
        );
      }
    }
  }
}
