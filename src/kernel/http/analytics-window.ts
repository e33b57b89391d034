import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';
import { Optional } from './optional';

export const MAX_ANALYTICS_DAYS = 90;
export const DEFAULT_ANALYTICS_DAYS = 30;

/** `?days=`: the analytics queries' window, whole UTC days ending with today (docs/analytics.md). */
export class AnalyticsWindowQuery {
  @ApiPropertyOptional({
    minimum: 1,
    maximum: MAX_ANALYTICS_DAYS,
    default: DEFAULT_ANALYTICS_DAYS,
    description: 'How many UTC days, today included.',
  })
  @Optional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_ANALYTICS_DAYS)
  days?: number;
}

/** The first instant of the window (midnight UTC, `days - 1` days before today) and its dates. */
export interface UtcWindow {
  days: number;
  /** 00:00 UTC of the first day. */
  start: Date;
  /** The UTC dates of the window, oldest first, as YYYY-MM-DD. */
  dates: string[];
}

export function utcWindow(days: number, now: Date): UtcWindow {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const dates: string[] = [];
  for (let i = days - 1; i >= 0; i--) dates.push(new Date(today - i * 86_400_000).toISOString().slice(0, 10));
  return { days, start: new Date(today - (days - 1) * 86_400_000), dates };
}
