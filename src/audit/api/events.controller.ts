import { Controller, Get, Inject, Query, Req, UseGuards } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { ApiDoc, pageOf, TenantApi } from '../../kernel/http/api-docs';
import { ANY_ENVELOPE_SCHEMA } from '../../catalog/envelope';
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
interface EventList {
  data: unknown[];
  has_more: boolean;
}

/** Audit: the same envelopes, ids and bodies as the webhooks, in commit order. */
@TenantApi('events')
@UseGuards(ApiKeyGuard)
@Controller('v1/events')
export class EventsController {
  constructor(
    private readonly audit: AuditQueries,
    private readonly waiters: FeedWaiters,
    @Inject(EVENT_CATALOG) private readonly catalog: EventCatalog,
  ) {}

  @Get()
  @ApiDoc({
    id: 'listEvents',
    summary: 'List the tenant’s events',
    description:
      'The tenant’s events in commit order, as the webhook envelopes (same ids and bodies): a feed to read from a cursor (`after`), ' +
      `with \`wait\` holding the request up to that many seconds for new ones. At most ${MAX_WAITS_PER_TENANT} such requests are held ` +
      'at once per tenant (429 beyond).',
    body: pageOf('EventPage', ANY_ENVELOPE_SCHEMA),
    returns: 'A page of events.',
    example: {
      data: [
        {
          id: '0193a1f2-7c3e-7a10-8b2c-1d2e3f405162',
          type: 'webhook.test',
          tenant_id: 'ten_01jd8x6k2m3n4p5q6r7s8t9v0w',
          created_at: '2026-11-21T10:00:00.000Z',
          data: { endpoint_id: 'we_01jf8w2c4v6b8n0m2q4w', emitted_at: '2026-11-21T10:00:00.000Z' },
        },
      ],
      has_more: false,
    },
    errors: [400, 404, 429],
  })
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
  return { data: page.data, has_more: page.hasMore };
}
