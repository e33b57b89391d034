import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { CLOCK, Clock } from '../../kernel/clock';
import { utcWindow } from '../../kernel/http/analytics-window';
import { SESSION_STATUSES, type SessionStatus } from '../sessions.payloads';
import { SessionEntity } from '../projections/session.entity';

/** One UTC day's calls, or the window's totals. */
export interface CallFigures {
  calls: number;
  by_status: Record<SessionStatus, number>;
  /** Calls that ended (any status but queued and in_progress). */
  ended: number;
  /** Ended calls that were answered (reached in_progress). */
  answered: number;
  /** answered ÷ ended, null when none ended. */
  answer_rate: number | null;
  /** Mean duration of the answered calls, null when none. */
  average_duration_seconds: number | null;
  spend_cents: number;
}

export interface CallAnalytics {
  days: number;
  time_zone: 'UTC';
  from: string;
  to: string;
  totals: CallFigures;
  data: (CallFigures & { date: string })[];
}

interface Row {
  day: string;
  status: SessionStatus;
  calls: number;
  answered: number;
  answered_seconds: number;
  spend_cents: number;
}

const OPEN = new Set<string>(['queued', 'in_progress']);

/**
 * Calls per UTC day over the sessions read model: one aggregate grouped by day and status, by the
 * (tenant_id, created_at) index. A call counts on the day it was created.
 */
@Injectable()
export class CallAnalyticsQuery {
  constructor(
    @InjectRepository(SessionEntity) private readonly sessions: Repository<SessionEntity>,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async perDay(tenantId: string, days: number, testMode?: boolean): Promise<CallAnalytics> {
    const window = utcWindow(days, this.clock.now());
    const rows: Row[] = await this.sessions.query(
      `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, status,
              count(*)::int AS calls,
              count(*) FILTER (WHERE started_at IS NOT NULL)::int AS answered,
              coalesce(sum(duration_seconds) FILTER (WHERE started_at IS NOT NULL), 0)::bigint AS answered_seconds,
              coalesce(sum(actual_cost_cents), 0)::bigint AS spend_cents
         FROM sessions
        WHERE tenant_id = $1 AND created_at >= $2 AND ($3::boolean IS NULL OR test_mode = $3)
        GROUP BY 1, 2`,
      [tenantId, window.start, testMode ?? null],
    );
    const byDay = new Map<string, Row[]>();
    for (const row of rows) byDay.set(row.day, [...(byDay.get(row.day) ?? []), row]);
    return {
      days,
      time_zone: 'UTC',
      from: window.dates[0] ?? '',
      to: window.dates[window.dates.length - 1] ?? '',
      totals: figures(rows),
      data: window.dates.map((date) => ({ date, ...figures(byDay.get(date) ?? []) })),
    };
  }
}

function figures(rows: Row[]): CallFigures {
  const byStatus = Object.fromEntries(SESSION_STATUSES.map((s) => [s, 0])) as Record<SessionStatus, number>;
  let calls = 0;
  let ended = 0;
  let answered = 0;
  let seconds = 0;
  let spend = 0;
  for (const r of rows) {
    byStatus[r.status] = (byStatus[r.status] ?? 0) + r.calls;
    calls += r.calls;
    spend += Number(r.spend_cents);
    if (OPEN.has(r.status)) continue;
    ended += r.calls;
    answered += r.answered;
    seconds += Number(r.answered_seconds);
  }
  return {
    calls,
    by_status: byStatus,
    ended,
    answered,
    answer_rate: ended === 0 ? null : round(answered / ended, 4),
    average_duration_seconds: answered === 0 ? null : round(seconds / answered, 1),
    spend_cents: spend,
  };
}

const round = (value: number, digits: number) => Number(value.toFixed(digits));
