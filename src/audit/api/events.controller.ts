import { Controller, Get, Inject, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, IsUUID, Max, Min } from 'class-validator';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { EVENT_CATALOG, EventCatalog } from '../../catalog/event-catalog';
import { ApiError } from '../../kernel/http/api-error';
import { CurrentTenant } from '../../kernel/http/current-tenant';
import { ApiKeyGuard, type AuthenticatedTenant } from '../../tenants/api/auth.guards';

export class ListEventsQuery {
  @ApiPropertyOptional({ example: 'session.ended' })
  @IsOptional()
  @IsString()
  type?: string;

  @ApiPropertyOptional({ description: 'Event id cursor: events committed after this one.' })
  @IsOptional()
  @IsUUID()
  after?: string;

  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 50 })
  @IsOptional()
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
    @InjectDataSource() private readonly db: DataSource,
    @Inject(EVENT_CATALOG) private readonly catalog: EventCatalog,
  ) {}

  @Get()
  async list(@CurrentTenant() tenant: AuthenticatedTenant, @Query() query: ListEventsQuery): Promise<EventList> {
    if (query.type !== undefined && !this.catalog.isCatalogType(query.type))
      throw ApiError.invalid('Unknown event type.', 'type');
    const limit = query.limit ?? 50;
    let afterSeq = 0;
    if (query.after) {
      const found: { seq: string }[] = await this.db.query(
        'SELECT seq FROM audit_events WHERE tenant_id = $1 AND event_id = $2',
        [tenant.tenantId, query.after],
      );
      if (!found[0]) throw ApiError.notFound('event', 'after');
      afterSeq = Number(found[0].seq);
    }
    const rows: { envelope: unknown }[] = await this.db.query(
      `SELECT envelope FROM audit_events WHERE tenant_id = $1 AND seq > $2 AND ($3::text IS NULL OR type = $3)
       ORDER BY seq LIMIT $4`,
      [tenant.tenantId, afterSeq, query.type ?? null, limit + 1],
    );
    return { data: rows.slice(0, limit).map((r) => r.envelope), has_more: rows.length > limit };
  }
}
