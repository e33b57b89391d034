import { ApiDoc, TenantApi } from '../../kernel/http/api-docs';
import { Controller, Get, Inject, Param, Query, UseGuards } from '@nestjs/common';
import { ApiExtraModels, ApiProperty, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { CLOCK, Clock } from '../../kernel/clock';
import { AnalyticsWindowQuery, DEFAULT_ANALYTICS_DAYS, utcWindow } from '../../kernel/http/analytics-window';
import { ApiError } from '../../kernel/http/api-error';
import { CurrentTenant } from '../../kernel/http/current-tenant';
import type { AuthenticatedTenant } from '../../kernel/http/current-tenant';
import { ApiKeyGuard } from '../../tenants';
import { WebhooksQueries } from '../application/webhooks.queries';

class AttemptDetailDto {
  @ApiProperty({ format: 'date-time' }) at!: string;
  @ApiProperty({ type: Number, nullable: true, description: 'The receiver’s HTTP status; null without an answer.' })
  http_status!: number | null;
  @ApiProperty({ type: String, nullable: true, example: 'ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9' })
  error!: string | null;
  @ApiProperty() duration_ms!: number;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The first 4 KB of the receiver’s answer (as text); null when there was none.',
  })
  response_body!: string | null;
}

class DeliveryDetailDto {
  @ApiProperty() delivery_id!: string;
  @ApiProperty({ format: 'uuid' }) event_id!: string;
  @ApiProperty({ example: 'session.ended' }) event_type!: string;
  @ApiProperty({ enum: ['pending', 'succeeded', 'failed'] }) status!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) next_attempt_at!: string | null;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'The envelope sent, byte for byte as its JSON (the same for every attempt).',
  })
  payload!: Record<string, unknown>;
  @ApiProperty({ type: [AttemptDetailDto] }) attempts!: AttemptDetailDto[];
}

const DELIVERY_DETAIL_EXAMPLE = {
  delivery_id: 'whd_01jf8w2c4v6b8n0m2q4w',
  event_id: '0193a1f2-7c3e-7a10-8b2c-1d2e3f405162',
  event_type: 'session.ended',
  status: 'failed',
  created_at: '2026-11-25T10:00:00.000Z',
  next_attempt_at: null,
  payload: { id: '0193a1f2-7c3e-7a10-8b2c-1d2e3f405162', type: 'session.ended', data: {} },
  attempts: [
    {
      at: '2026-11-25T10:00:01.000Z',
      http_status: 500,
      error: null,
      duration_ms: 120,
      response_body: 'receiver down for maintenance',
    },
  ],
};

class EndpointDeliveryFiguresDto {
  @ApiProperty() endpoint_id!: string;
  @ApiProperty() url!: string;
  @ApiProperty({ enum: ['active', 'suspended'] }) status!: string;
  @ApiProperty({ description: 'Failed attempts in a row, now.' }) failure_streak!: number;
  @ApiProperty({ description: 'Deliveries created in the window that arrived (2xx).' }) succeeded!: number;
  @ApiProperty({ description: 'Deliveries created in the window that were given up on.' }) failed!: number;
  @ApiProperty({ description: 'Deliveries created in the window still being tried or held.' }) pending!: number;
  @ApiProperty({ type: Number, nullable: true, description: 'succeeded ÷ (succeeded + failed); null when neither.' })
  success_rate!: number | null;
}

class DeliveryAnalyticsDto {
  @ApiProperty({ example: DEFAULT_ANALYTICS_DAYS }) days!: number;
  @ApiProperty({ enum: ['UTC'] }) time_zone!: 'UTC';
  @ApiProperty({ example: '2026-10-27', description: 'The first UTC date.' }) from!: string;
  @ApiProperty({ example: '2026-11-25', description: 'The last UTC date (today).' }) to!: string;
  @ApiProperty({ type: [EndpointDeliveryFiguresDto], description: 'Every endpoint not deleted, newest first.' })
  data!: EndpointDeliveryFiguresDto[];
}

/** A delivery's payload and answers, and the delivery success per endpoint (docs/analytics.md). */
@TenantApi('webhook endpoints')
@ApiExtraModels(DeliveryDetailDto, DeliveryAnalyticsDto)
@UseGuards(ApiKeyGuard)
@Controller('v1')
export class DeliveryReportsController {
  constructor(
    private readonly queries: WebhooksQueries,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get('webhook_endpoints/:id/deliveries/:deliveryId')
  @ApiDoc({
    id: 'getWebhookDelivery',
    summary: 'Get a delivery',
    description: 'One delivery: the payload sent and each attempt with the receiver’s answer.',
    body: { $ref: getSchemaPath(DeliveryDetailDto) },
    returns: 'The delivery, its payload and its attempts.',
    example: DELIVERY_DETAIL_EXAMPLE,
    errors: [404],
  })
  async delivery(
    @CurrentTenant() tenant: AuthenticatedTenant,
    @Param('id') id: string,
    @Param('deliveryId') deliveryId: string,
  ): Promise<DeliveryDetailDto> {
    if (!(await this.queries.getEndpoint(tenant.tenantId, id))) throw ApiError.notFound('webhook endpoint', 'id');
    const d = await this.queries.getDelivery(tenant.tenantId, id, deliveryId);
    if (!d) throw ApiError.notFound('delivery', 'delivery_id');
    return {
      delivery_id: d.deliveryId,
      event_id: d.eventId,
      event_type: d.eventType,
      status: d.status,
      created_at: d.createdAt.toISOString(),
      next_attempt_at: d.status === 'pending' && d.nextAttemptAt ? d.nextAttemptAt.toISOString() : null,
      payload: JSON.parse(d.payload) as Record<string, unknown>,
      attempts: d.attempts.map((a) => ({
        at: a.attemptedAt.toISOString(),
        http_status: a.httpStatus,
        error: a.error,
        duration_ms: a.durationMs,
        response_body: a.responseBody,
      })),
    };
  }

  @Get('analytics/deliveries')
  @ApiTags('analytics')
  @ApiDoc({
    id: 'getDeliveryAnalytics',
    summary: 'Delivery figures per endpoint',
    description: 'Per webhook endpoint: the deliveries created in the last days, by outcome, and the success rate.',
    body: { $ref: getSchemaPath(DeliveryAnalyticsDto) },
    returns: 'The figures of every endpoint.',
    example: {
      days: 30,
      time_zone: 'UTC',
      from: '2026-10-27',
      to: '2026-11-25',
      data: [
        {
          endpoint_id: 'we_01jf8w2c4v6b8n0m2q4w',
          url: 'https://example.com/hooks',
          status: 'active',
          failure_streak: 0,
          succeeded: 42,
          failed: 1,
          pending: 0,
          success_rate: 0.977,
        },
      ],
    },
    errors: [400],
  })
  async deliveries(
    @CurrentTenant() tenant: AuthenticatedTenant,
    @Query() query: AnalyticsWindowQuery,
  ): Promise<DeliveryAnalyticsDto> {
    const window = utcWindow(query.days ?? DEFAULT_ANALYTICS_DAYS, this.clock.now());
    const rows = await this.queries.deliveryFigures(tenant.tenantId, window.start);
    return {
      days: window.days,
      time_zone: 'UTC',
      from: window.dates[0] ?? '',
      to: window.dates[window.dates.length - 1] ?? '',
      data: rows.map((r) => ({
        endpoint_id: r.endpointId,
        url: r.url,
        status: r.status,
        failure_streak: r.failureStreak,
        succeeded: r.succeeded,
        failed: r.failed,
        pending: r.pending,
        success_rate: r.succeeded + r.failed === 0 ? null : Number((r.succeeded / (r.succeeded + r.failed)).toFixed(4)),
      })),
    };
  }
}
