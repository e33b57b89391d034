import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository } from 'typeorm';
import { WebhookAttemptEntity, WebhookDeliveryEntity } from '../projections/webhook-delivery.entity';
import { WebhookEndpointEntity, WebhookEndpointHealthEntity } from '../projections/webhook-endpoint.entity';

export interface AttemptView {
  attemptedAt: Date;
  httpStatus: number | null;
  error: string | null;
  durationMs: number;
}

export type DeliveryView = Pick<
  WebhookDeliveryEntity,
  'deliveryId' | 'eventId' | 'eventType' | 'status' | 'nextAttemptAt'
> & { attempts: AttemptView[] };

/** Reads of the webhooks context: a tenant's endpoints (with their failure streak) and their deliveries. */
@Injectable()
export class WebhooksQueries {
  constructor(
    @InjectRepository(WebhookEndpointEntity) private readonly endpoints: Repository<WebhookEndpointEntity>,
    @InjectRepository(WebhookDeliveryEntity) private readonly deliveries: Repository<WebhookDeliveryEntity>,
    @InjectRepository(WebhookAttemptEntity) private readonly attempts: Repository<WebhookAttemptEntity>,
  ) {}

  /** Newest first; deleted endpoints are left out. */
  listEndpoints(tenantId: string): Promise<WebhookEndpointEntity[]> {
    return this.endpointsWithHealth()
      .where('e.tenantId = :tenantId', { tenantId })
      .andWhere("e.status <> 'deleted'")
      .orderBy('e.createdAt', 'DESC')
      .getMany();
  }

  /** Null for an unknown, deleted or another tenant's endpoint. */
  getEndpoint(tenantId: string, endpointId: string): Promise<WebhookEndpointEntity | null> {
    return this.endpointsWithHealth()
      .where('e.endpointId = :endpointId', { endpointId })
      .andWhere('e.tenantId = :tenantId', { tenantId })
      .andWhere("e.status <> 'deleted'")
      .getOne();
  }

  /** An endpoint's deliveries, newest first, each with its attempts in order. */
  async listDeliveries(tenantId: string, endpointId: string, limit: number): Promise<DeliveryView[]> {
    const deliveries = await this.deliveries.find({
      select: { deliveryId: true, eventId: true, eventType: true, status: true, nextAttemptAt: true },
      where: { endpointId, tenantId },
      order: { createdAt: 'DESC', deliveryId: 'DESC' },
      take: limit,
    });
    if (deliveries.length === 0) return [];
    const attempts = await this.attempts.find({
      select: { attemptId: true, deliveryId: true, attemptedAt: true, httpStatus: true, error: true, durationMs: true },
      where: { deliveryId: In(deliveries.map((d) => d.deliveryId)) },
      order: { attemptId: 'ASC' },
    });
    const byDelivery = new Map<string, AttemptView[]>();
    for (const a of attempts) {
      const list = byDelivery.get(a.deliveryId) ?? [];
      list.push({ attemptedAt: a.attemptedAt, httpStatus: a.httpStatus, error: a.error, durationMs: a.durationMs });
      byDelivery.set(a.deliveryId, list);
    }
    return deliveries.map((d) => ({
      deliveryId: d.deliveryId,
      eventId: d.eventId,
      eventType: d.eventType,
      status: d.status,
      nextAttemptAt: d.nextAttemptAt,
      attempts: byDelivery.get(d.deliveryId) ?? [],
    }));
  }

  /** Everything the API shows of an endpoint (never its sealed secret), and its failure streak. */
  private endpointsWithHealth() {
    return this.endpoints
      .createQueryBuilder('e')
      .leftJoinAndMapOne('e.health', WebhookEndpointHealthEntity, 'h', 'h.endpointId = e.endpointId')
      .select(['e.endpointId', 'e.url', 'e.events', 'e.description', 'e.status', 'e.createdAt'])
      .addSelect(['h.endpointId', 'h.failureStreak']);
  }
}
