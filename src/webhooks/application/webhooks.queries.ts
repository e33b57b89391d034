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

/** One delivery as its page shows it: the body sent and each attempt's answer (its first 4 KB). */
export type DeliveryDetail = Omit<DeliveryView, 'attempts'> & {
  payload: string;
  createdAt: Date;
  attempts: (AttemptView & { responseBody: string | null })[];
};

/** Per endpoint, the deliveries created since a time, by outcome. */
export interface EndpointDeliveryFigures {
  endpointId: string;
  url: string;
  status: string;
  failureStreak: number;
  succeeded: number;
  failed: number;
  pending: number;
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

  /** One delivery of the endpoint with its payload and every attempt's response excerpt; null if unknown. */
  async getDelivery(tenantId: string, endpointId: string, deliveryId: string): Promise<DeliveryDetail | null> {
    const d = await this.deliveries.findOneBy({ deliveryId, endpointId, tenantId });
    if (!d) return null;
    const attempts = await this.attempts.find({ where: { deliveryId }, order: { attemptId: 'ASC' } });
    return {
      deliveryId: d.deliveryId,
      eventId: d.eventId,
      eventType: d.eventType,
      status: d.status,
      nextAttemptAt: d.nextAttemptAt,
      payload: d.payload,
      createdAt: d.createdAt,
      attempts: attempts.map((a) => ({
        attemptedAt: a.attemptedAt,
        httpStatus: a.httpStatus,
        error: a.error,
        durationMs: a.durationMs,
        responseBody: a.responseBody,
      })),
    };
  }

  /**
   * Each live endpoint of the tenant with its deliveries created since `since` counted by status: one
   * aggregate, each endpoint's deliveries read by the (endpoint_id, created_at) index.
   */
  async deliveryFigures(tenantId: string, since: Date): Promise<EndpointDeliveryFigures[]> {
    const rows: {
      endpoint_id: string;
      url: string;
      status: string;
      failure_streak: number;
      succeeded: number;
      failed: number;
      pending: number;
    }[] = await this.endpoints.query(
      `SELECT e.endpoint_id, e.url, e.status, coalesce(h.failure_streak, 0)::int AS failure_streak,
              count(d.delivery_id) FILTER (WHERE d.status = 'succeeded')::int AS succeeded,
              count(d.delivery_id) FILTER (WHERE d.status = 'failed')::int AS failed,
              count(d.delivery_id) FILTER (WHERE d.status = 'pending')::int AS pending
         FROM webhook_endpoints e
         LEFT JOIN webhook_endpoint_health h ON h.endpoint_id = e.endpoint_id
         LEFT JOIN webhook_deliveries d ON d.endpoint_id = e.endpoint_id AND d.created_at >= $2
        WHERE e.tenant_id = $1 AND e.status <> 'deleted'
        GROUP BY e.endpoint_id, e.url, e.status, h.failure_streak, e.created_at
        ORDER BY e.created_at DESC, e.endpoint_id DESC`,
      [tenantId, since],
    );
    return rows.map((r) => ({
      endpointId: r.endpoint_id,
      url: r.url,
      status: r.status,
      failureStreak: r.failure_streak,
      succeeded: r.succeeded,
      failed: r.failed,
      pending: r.pending,
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
