import { ApiDoc, TenantApi } from '../../kernel/http/api-docs';
import { Controller, Get, Param, Query, UseGuards } from '@nestjs/common';
import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { ApiError } from '../../kernel/http/api-error';
import { CurrentTenant } from '../../kernel/http/current-tenant';
import type { AuthenticatedTenant } from '../../kernel/http/current-tenant';
import { Optional } from '../../kernel/http/optional';
import { ApiKeyGuard } from '../../tenants';
import { CampaignsQueries, PROGRESS_INTERVALS, type ProgressInterval } from '../application/campaigns.queries';

/** At most this many buckets; a campaign that finished contacts over more asks for a larger interval. */
const MAX_BUCKETS = 1000;

export class CampaignProgressQuery {
  @ApiPropertyOptional({ enum: PROGRESS_INTERVALS, default: 'hour', description: 'The width of a bucket (UTC).' })
  @Optional()
  @IsIn(PROGRESS_INTERVALS)
  interval?: ProgressInterval;
}

class ProgressBucketDto {
  @ApiProperty({ format: 'date-time', description: 'The start of the bucket (UTC).' }) at!: string;
  @ApiProperty({ description: 'Contacts whose call completed in the bucket.' }) completed!: number;
  @ApiProperty({ description: 'Contacts whose call failed in the bucket.' }) failed!: number;
  @ApiProperty({ description: 'Contacts skipped in the bucket (do-not-call, opt-out, …).' }) skipped!: number;
  @ApiProperty({ description: 'Contacts finished (any outcome) up to the end of the bucket.' }) finished_total!: number;
}

class CampaignProgressDto {
  @ApiProperty() campaign_id!: string;
  @ApiProperty({ enum: PROGRESS_INTERVALS }) interval!: ProgressInterval;
  @ApiProperty({ enum: ['UTC'] }) time_zone!: 'UTC';
  @ApiProperty() total_contacts!: number;
  @ApiProperty({
    type: [ProgressBucketDto],
    description: `The buckets in which contacts finished, oldest first (empty ones left out); at most ${MAX_BUCKETS}.`,
  })
  data!: ProgressBucketDto[];
}

/** A campaign's progress over time, for its chart (docs/analytics.md). */
@TenantApi('campaigns')
@ApiExtraModels(CampaignProgressDto)
@UseGuards(ApiKeyGuard)
@Controller('v1/campaigns')
export class CampaignProgressController {
  constructor(private readonly campaigns: CampaignsQueries) {}

  @Get(':id/progress')
  @ApiDoc({
    id: 'getCampaignProgress',
    summary: 'Campaign progress over time',
    description: 'Contacts finished per interval (completed, failed, skipped) and the running total.',
    body: { $ref: getSchemaPath(CampaignProgressDto) },
    returns: 'The buckets, oldest first.',
    example: {
      campaign_id: 'cmp_01jf8w2c4v6b8n0m2q4w',
      interval: 'hour',
      time_zone: 'UTC',
      total_contacts: 40,
      data: [{ at: '2026-11-25T10:00:00.000Z', completed: 9, failed: 1, skipped: 1, finished_total: 11 }],
    },
    errors: [400, 404],
  })
  async progress(
    @CurrentTenant() tenant: AuthenticatedTenant,
    @Param('id') id: string,
    @Query() query: CampaignProgressQuery,
  ): Promise<CampaignProgressDto> {
    const campaign = await this.campaigns.get(tenant.tenantId, id);
    if (!campaign) throw ApiError.notFound('campaign', 'id');
    const interval = query.interval ?? 'hour';
    const buckets = await this.campaigns.progress(tenant.tenantId, id, interval, MAX_BUCKETS + 1);
    if (buckets.length > MAX_BUCKETS)
      throw ApiError.invalid(
        `The campaign's contacts finished over more than ${MAX_BUCKETS} ${interval}s; ask for a larger interval.`,
        'interval',
      );
    let finished = 0;
    return {
      campaign_id: id,
      interval,
      time_zone: 'UTC',
      total_contacts: campaign.totalContacts,
      data: buckets.map((b) => {
        finished += b.completed + b.failed + b.skipped;
        return {
          at: b.at.toISOString(),
          completed: b.completed,
          failed: b.failed,
          skipped: b.skipped,
          finished_total: finished,
        };
      }),
    };
  }
}
