import { ApiDoc, TenantApi } from '../../kernel/http/api-docs';
import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { AnalyticsWindowQuery, DEFAULT_ANALYTICS_DAYS } from '../../kernel/http/analytics-window';
import { CurrentTenant } from '../../kernel/http/current-tenant';
import type { AuthenticatedTenant } from '../../kernel/http/current-tenant';
import { Optional } from '../../kernel/http/optional';
import { ApiKeyGuard } from '../../tenants';
import { CallAnalyticsQuery, type CallAnalytics } from '../application/call-analytics.query';

export class CallAnalyticsQueryDto extends AnalyticsWindowQuery {
  @ApiPropertyOptional({ enum: ['true', 'false'], description: 'Only test calls, or only production calls.' })
  @Optional()
  @IsIn(['true', 'false'])
  test_mode?: 'true' | 'false';
}

class CallsByStatusDto {
  @ApiProperty() queued!: number;
  @ApiProperty() in_progress!: number;
  @ApiProperty() completed!: number;
  @ApiProperty() failed!: number;
  @ApiProperty() no_answer!: number;
  @ApiProperty() voicemail!: number;
  @ApiProperty() busy!: number;
}

class CallFiguresDto {
  @ApiProperty({ description: 'Calls created.' }) calls!: number;
  @ApiProperty({ type: CallsByStatusDto, description: 'Calls by their current status.' })
  by_status!: CallsByStatusDto;
  @ApiProperty({ description: 'Calls that ended (any status but queued and in_progress).' }) ended!: number;
  @ApiProperty({ description: 'Ended calls that were answered (reached in_progress).' }) answered!: number;
  @ApiProperty({ type: Number, nullable: true, description: 'answered ÷ ended, 0 to 1; null when none ended.' })
  answer_rate!: number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'Mean duration of the answered calls.' })
  average_duration_seconds!: number | null;
  @ApiProperty({ description: 'Sum of the calls’ actual_cost_cents (USD cents).' }) spend_cents!: number;
}

class CallDayDto extends CallFiguresDto {
  @ApiProperty({ example: '2026-11-25', description: 'The UTC date.' }) date!: string;
}

const CALL_FIGURES_EXAMPLE = {
  calls: 12,
  by_status: { queued: 0, in_progress: 1, completed: 8, failed: 1, no_answer: 1, voicemail: 1, busy: 0 },
  ended: 11,
  answered: 8,
  answer_rate: 0.727,
  average_duration_seconds: 94.5,
  spend_cents: 160,
};

class CallAnalyticsDto {
  @ApiProperty({ example: DEFAULT_ANALYTICS_DAYS }) days!: number;
  @ApiProperty({ enum: ['UTC'] }) time_zone!: 'UTC';
  @ApiProperty({ example: '2026-10-27', description: 'The first UTC date.' }) from!: string;
  @ApiProperty({ example: '2026-11-25', description: 'The last UTC date (today).' }) to!: string;
  @ApiProperty({ type: CallFiguresDto }) totals!: CallFiguresDto;
  @ApiProperty({ type: [CallDayDto], description: 'One entry per day, oldest first, days without calls included.' })
  data!: CallDayDto[];
}

/** The figures behind the dashboard's calls charts (docs/analytics.md). */
@TenantApi('analytics')
@ApiExtraModels(CallAnalyticsDto)
@UseGuards(ApiKeyGuard)
@Controller('v1/analytics')
export class CallAnalyticsController {
  constructor(private readonly analytics: CallAnalyticsQuery) {}

  @Get('calls')
  @ApiDoc({
    id: 'getCallAnalytics',
    summary: 'Call figures per day',
    description: 'Calls per UTC day: counts by status, answer rate, average duration and spend.',
    body: { $ref: getSchemaPath(CallAnalyticsDto) },
    returns: 'The figures, one entry per UTC day.',
    example: {
      days: 1,
      time_zone: 'UTC',
      from: '2026-11-25',
      to: '2026-11-25',
      totals: CALL_FIGURES_EXAMPLE,
      data: [{ date: '2026-11-25', ...CALL_FIGURES_EXAMPLE }],
    },
    errors: [400],
  })
  calls(@CurrentTenant() tenant: AuthenticatedTenant, @Query() query: CallAnalyticsQueryDto): Promise<CallAnalytics> {
    const testMode = query.test_mode === undefined ? undefined : query.test_mode === 'true';
    return this.analytics.perDay(tenant.tenantId, query.days ?? DEFAULT_ANALYTICS_DAYS, testMode);
  }
}
