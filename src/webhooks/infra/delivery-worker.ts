import { Injectable, Logger } from '@nestjs/common';
import { PollingWorker } from '../../runtime/polling-worker';
import { AttemptRecorder } from './attempt-recorder';
import { ClaimedDelivery, DeliveryClaims } from './delivery-claims';
import { DeliverySender } from './delivery-sender';

const MAX_IN_FLIGHT = 128;
const CLAIM_BATCH_MIN = MAX_IN_FLIGHT / 4;

/**
 * Sends due deliveries: claims them (delivery-claims.ts), makes up to 128 attempts at once
 * (delivery-sender.ts) and hands each result to the recorder (attempt-recorder.ts), which writes
 * them in small batches. Finished attempts and committed batches poke the loop, so freed slots and
 * retries are taken up at once. Stopping waits for the attempts in flight and writes their results.
 */
@Injectable()
export class DeliveryWorker extends PollingWorker {
  private inFlight = 0;
  private claimedLastRound = 0;
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly claims: DeliveryClaims,
    private readonly sender: DeliverySender,
    private readonly recorder: AttemptRecorder,
  ) {
    super('webhook-delivery', {
      onError: (err) =>
        new Logger('Webhooks').error(`delivery loop: ${err instanceof Error ? err.message : String(err)}`),
      backoffMs: () => 1000,
    });
    recorder.onFlushed(() => this.poke());
  }

  protected async tick(): Promise<boolean> {
    const room = MAX_IN_FLIGHT - this.inFlight;
    // Claim in batches: a claim per finished attempt would cost a query per delivery.
    if (room < CLAIM_BATCH_MIN && this.inFlight > 0) {
      await this.sleep(1000); // finished attempts wake the loop
      return true;
    }
    const claimed = await this.claims.claim(room);
    for (const delivery of claimed) this.launch(delivery);
    this.claimedLastRound = claimed.length;
    return claimed.length === room;
  }

  protected override idleMs(): number | Promise<number> {
    return this.claimedLastRound > 0 || this.inFlight > 0 ? 1000 : this.claims.msUntilNextDue();
  }

  protected override async afterStop(): Promise<void> {
    await Promise.allSettled([...this.pending]);
    await this.recorder.flush();
    await this.sender.close();
  }

  private launch(delivery: ClaimedDelivery): void {
    this.inFlight++;
    const p = this.sender
      .send(delivery)
      .then((result) => this.recorder.add(result))
      .finally(() => {
        this.inFlight--;
        this.pending.delete(p);
        this.poke();
      });
    this.pending.add(p);
  }
}
