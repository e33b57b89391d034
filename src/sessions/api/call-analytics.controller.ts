import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
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
@ApiTags('analytics')
@ApiBearerAuth()
@UseGuards(ApiKeyGuard)
@Controller('v1/analytics')
export class CallAnalyticsController {
  constructor(private readonly analytics: CallAnalyticsQuery) {}

  @Get('calls')
  @ApiOperation({
    operationId: 'getCallAnalytics',
    summary: 'Calls per UTC day: counts by status, answer rate, average duration and spend.',
  })
  @ApiOkResponse({ type: CallAnalyticsDto })
  calls(@CurrentTenant() tenant: AuthenticatedTenant, @Query() query: CallAnalyticsQueryDto): Promise<CallAnalytics> {
    const testMode = query.test_mode === undefined ? undefined : query.test_mode === 'true';
    return this.analytics.perDay(tenant.tenantId, query.days ?? DEFAULT_ANALYTICS_DAYS, testMode);
  }
}
