import { Controller, Get, Inject, Query, Req, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiProperty, ApiPropertyOptional, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsString, IsUUID, Max, Min } from 'class-validator';
import type { FastifyRequest } from 'fastify';
import { EVENT_CATALOG, EventCatalog } from '../../catalog/event-catalog';
import { ApiError } from '../../kernel/http/api-error';
import { CurrentTenant } from '../../kernel/http/current-tenant';
import type { AuthenticatedTenant } from '../../kernel/http/current-tenant';
import { ApiKeyGuard } from '../../tenants';
import { AuditQueries, type EventPage } from '../application/audit.queries';
import { FeedWaiters, MAX_WAIT_SECONDS, MAX_WAITS_PER_TENANT } from '../application/feed-waiters';
import { Optional } from '../../kernel/http/optional';

export class ListEventsQuery {
  @ApiPropertyOptional({ example: 'session.ended' })
  @Optional()
  @IsString()
  type?: string;

  @ApiPropertyOptional({ description: 'Event id cursor: events committed after this one (before it with order=desc).' })
  @Optional()
  @IsUUID()
  after?: string;

  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 50 })
  @Optional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;

  @ApiPropertyOptional({
    minimum: 0,
    maximum: MAX_WAIT_SECONDS,
    default: 0,
    description:
      'Long polling: when no event follows the cursor, hold the request up to this many seconds until one ' +
      `commits. At most ${MAX_WAITS_PER_TENANT} such requests are held at once per tenant (429 beyond).`,
  })
  @Optional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(MAX_WAIT_SECONDS)
  wait?: number;

  @ApiPropertyOptional({
    enum: ['asc', 'desc'],
    default: 'asc',
    description: '`asc`: commit order (the feed). `desc`: newest first, e.g. `limit=1` for the tail; no `wait`.',
  })
  @Optional()
  @IsIn(['asc', 'desc'])
  order?: 'asc' | 'desc';
}

/** An envelope as delivered to webhooks: the OpenAPI `webhooks` section has each type's `data`. */
class EventEnvelopeDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ example: 'session.ended' }) type!: string;
  @ApiProperty() tenant_id!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ type: 'object', additionalProperties: true }) data!: Record<string, unknown>;
}

class EventList {
  @ApiProperty({ type: [EventEnvelopeDto] }) data!: EventEnvelopeDto[];
  @ApiProperty() has_more!: boolean;
}

/** Audit: the same envelopes, ids and bodies as the webhooks, in commit order. */
@ApiTags('events')
@ApiBearerAuth()
@UseGuards(ApiKeyGuard)
@Controller('v1/events')
export class EventsController {
  constructor(
    private readonly audit: AuditQueries,
    private readonly waiters: FeedWaiters,
    @Inject(EVENT_CATALOG) private readonly catalog: EventCatalog,
  ) {}

  @Get()
  @ApiOperation({
    operationId: 'listEvents',
    summary: "The tenant's events in commit order, as webhook envelopes; `wait` holds the request for new ones.",
  })
  @ApiResponse({ status: 200, type: EventList })
  @ApiResponse({ status: 429, description: `More than ${MAX_WAITS_PER_TENANT} long polls held for the tenant.` })
  async list(
    @CurrentTenant() tenant: AuthenticatedTenant,
    @Query() query: ListEventsQuery,
    @Req() request: FastifyRequest,
  ): Promise<EventList> {
    if (query.type !== undefined && !this.catalog.isCatalogType(query.type))
      throw ApiError.invalid('Unknown event type.', 'type');
    const wait = query.wait ?? 0;
    if (wait > 0 && query.order === 'desc') throw ApiError.invalid('wait cannot be combined with order=desc.', 'wait');
    const read = async (): Promise<EventList> => {
      const page = await this.audit.feed(tenant.tenantId, {
        after: query.after,
        type: query.type,
        limit: query.limit ?? 50,
        order: query.order,
      });
      if (!page) throw ApiError.notFound('event', 'after');
      return toList(page);
    };
    if (wait === 0) return read();

    const held = this.waiters.enter(tenant.tenantId);
    if (!held)
      throw new ApiError(
        429,
        'rate_limited',
        `At most ${MAX_WAITS_PER_TENANT} long-polling requests (wait) are held at once per tenant; retry when one returns.`,
        'wait',
        { 'retry-after': '1' },
      );
    const socket = request.raw.socket;
    const gone = (): void => held.cancel();
    socket.once('close', gone);
    try {
      const deadline = Date.now() + wait * 1000;
      for (;;) {
        held.rearm();
        const list = await read();
        if (list.data.length > 0) return list;
        // Woken: the tenant's new rows are committed (perhaps of another type); read again.
        if (!(await held.changed(deadline - Date.now()))) return read();
      }
    } finally {
      socket.off('close', gone);
      held.leave();
    }
  }
}

function toList(page: EventPage): EventList {
  return { data: page.data as EventEnvelopeDto[], has_more: page.hasMore };
}
