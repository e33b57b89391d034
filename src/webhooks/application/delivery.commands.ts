import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { InjectRepository } from '@nestjs/typeorm';
import { MoreThanOrEqual, Repository } from 'typeorm';
import { WebhookDeliveryEntity } from '../projections/webhook-delivery.entity';

type Redelivery =
  /** One delivery, whatever its status: a new attempt now, same event id. */
  | { type: 'retry'; deliveryId: string }
  /** Every failed delivery to the endpoint created since `since`. */
  | { type: 'recover'; since: Date };

/**
 * Puts deliveries of one endpoint back in the queue, due now. Deliveries are the delivery worker's
 * operational state, not events: this writes their rows. Answers how many it queued.
 */
export class Redeliver extends Command<{ queued: number }> {
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
  ) {}

  async execute({ tenantId, endpointId, redelivery }: Redeliver) {
    const which =
      redelivery.type === 'retry'
        ? { deliveryId: redelivery.deliveryId, endpointId, tenantId }
        : { endpointId, tenantId, createdAt: MoreThanOrEqual(redelivery.since), status: 'failed' as const };
    const result = await this.deliveries.update(which, {
      status: 'pending',
      nextAttemptAt: () => 'now()',
      lockedUntil: null,
      updatedAt: () => 'now()',
    });
    return { queued: result.affected ?? 0 };
  }
}
