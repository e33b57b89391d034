import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, LessThan, MoreThanOrEqual, Or, Repository } from 'typeorm';
import { CLOCK, Clock } from '../../kernel/clock';
import { WebhookDeliveryEntity } from '../projections/webhook-delivery.entity';

type Redelivery =
  /** One delivery, whatever its status: a new attempt now, same event id. */
  | { type: 'retry'; deliveryId: string }
  /** Every failed delivery to the endpoint created since `since`. */
  | { type: 'recover'; since: Date };

/**
 * Puts deliveries of one endpoint back in the queue, due now. Deliveries are the delivery worker's
 * operational state, not events: this writes their rows. Answers how many it queued.
 *
 * A delivery whose attempt is in flight (claimed under a lease that has not lapsed) is left alone:
 * clearing its lease would let a second attempt start beside it and count both. A retry of it
 * answers `inFlight` (the API's 409); once its attempt is recorded it can be retried.
 */
export class Redeliver extends Command<{ queued: number; inFlight: boolean }> {
  constructor(
    readonly tenantId: string,
    readonly endpointId: string,
    readonly redelivery: Redelivery,
  ) {
    super();
  }
}

@CommandHandler(Redeliver)
export class RedeliverHandler implements ICommandHandler<Redeliver> {
  constructor(
    @InjectRepository(WebhookDeliveryEntity) private readonly deliveries: Repository<WebhookDeliveryEntity>,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ tenantId, endpointId, redelivery }: Redeliver) {
    // Not in flight: no lease, or one that lapsed (its instance died), as the claim itself judges it.
    // In one UPDATE, so a claim that commits first makes this skip the row (READ COMMITTED re-check).
    const notInFlight = { lockedUntil: Or(IsNull(), LessThan(this.clock.now())) };
    const which =
      redelivery.type === 'retry'
        ? { deliveryId: redelivery.deliveryId, endpointId, tenantId, ...notInFlight }
        : {
            endpointId,
            tenantId,
            createdAt: MoreThanOrEqual(redelivery.since),
            status: 'failed' as const,
            ...notInFlight,
          };
    const result = await this.deliveries.update(which, {
      status: 'pending',
      nextAttemptAt: () => 'now()',
      lockedUntil: null,
      updatedAt: () => 'now()',
    });
    const queued = result.affected ?? 0;
    const inFlight =
      redelivery.type === 'retry' &&
      queued === 0 &&
      (await this.deliveries.existsBy({ deliveryId: redelivery.deliveryId, endpointId, tenantId }));
    return { queued, inFlight };
  }
}
