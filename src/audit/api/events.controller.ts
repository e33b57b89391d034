import { Controller, Get, Inject, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsString, IsUUID, Max, Min } from 'class-validator';
import { EVENT_CATALOG, EventCatalog } from '../../catalog/event-catalog';
import { ApiError } from '../../kernel/http/api-error';
import { CurrentTenant } from '../../kernel/http/current-tenant';
import type { AuthenticatedTenant } from '../../kernel/http/current-tenant';
import { ApiKeyGuard } from '../../tenants';
import { AuditQueries } from '../application/audit.queries';
import { Optional } from '../../kernel/http/optional';

export class ListEventsQuery {
  @ApiPropertyOptional({ example: 'session.ended' })
  @Optional()
  @IsString()
  type?: string;

  @ApiPropertyOptional({ description: 'Event id cursor: events committed after this one.' })
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
}

class EventList {
  @ApiProperty({ type: 'array', items: { type: 'object' } }) data!: unknown[];
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
    @Inject(EVENT_CATALOG) private readonly catalog: EventCatalog,
  ) {}

  @Get()
  async list(@CurrentTenant() tenant: AuthenticatedTenant, @Query() query: ListEventsQuery): Promise<EventList> {
    if (query.type !== undefined && !this.catalog.isCatalogType(query.type))
      throw ApiError.invalid('Unknown event type.', 'type');
    const page = await this.audit.feed(tenant.tenantId, {
      after: query.after,
      type: query.type,
      limit: query.limit ?? 50,
    });
    if (!page) throw ApiError.notFound('event', 'after');
    return { data: page.data, has_more: page.hasMore };
  }
}
