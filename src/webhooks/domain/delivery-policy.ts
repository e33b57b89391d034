/**
 * Webhook delivery status policy: the one place that decides what an attempt's outcome means
 * (docs/webhooks.md, "Status policy") for its delivery and for its endpoint.
 *
 * | outcome                                   | verdict            | effect                                              |
 * |-------------------------------------------|--------------------|-----------------------------------------------------|
 * | 2xx                                       | `succeeded`        | delivery done; endpoint failure streak reset to 0   |
 * | 5xx, 408, 429                             | `retry`            | next attempt on the schedule (Retry-After honoured) |
 * | timeout, network error (DNS, refused, TLS)| `retry`            | next attempt on the schedule                        |
 * | 410 Gone                                  | `fail_and_suspend` | delivery fails permanently; endpoint suspended now  |
 * | 3xx (redirects are never followed)        | `fail`             | delivery fails permanently                          |
 * | any other status (other 4xx, 1xx, …)      | `fail`             | delivery fails permanently                          |
 * | `retry` with the schedule exhausted       | `fail`             | {@link nextRetryDelayMs} returns null               |
 *
 * Failure streaks ({@link foldStreaks}): a success resets the endpoint's streak to 0; every
 * permanent failure adds one and records its HTTP status as the last status (null after a timeout
 * or network error); a retry scheduled leaves both alone. Reaching the configured threshold
 * (WEBHOOK_SUSPEND_AFTER, default 10), or a 410, suspends the endpoint. Results count in the order
 * the attempts completed, and a suspension once reached stands even if a later result in the same
 * batch resets the streak: batching never changes which endpoints are suspended.
 *
 * Retry delays: the schedule (default 5s, 30s, 2m, 10m, 30m, 1h, 3h, 6h, 12h: 10 attempts in all)
 * with ±10% jitter. A `Retry-After` (seconds or HTTP-date) is a lower bound on the wait, capped at
 * twice the scheduled delay so a receiver cannot stall its retries. Given the time since the first
 * attempt, no retry is scheduled beyond the 24-hour horizon (jitter and Retry-After included).
 *
 * When a due delivery is sent, and how many attempts one endpoint may have in flight (fairness
 * across endpoints and tenants, leases that never lapse under a live attempt), is the claim's
 * policy: src/webhooks/infra/delivery-claims.ts.
 */

export type AttemptOutcome =
  | { kind: 'response'; status: number; retryAfterHeader?: string | null }
  | { kind: 'timeout' }
  | { kind: 'network_error'; code?: string };

export type AttemptVerdict = 'succeeded' | 'retry' | 'fail' | 'fail_and_suspend';

export const DEFAULT_RETRY_SCHEDULE_MS: readonly number[] = [
  5_000, 30_000, 120_000, 600_000, 1_800_000, 3_600_000, 10_800_000, 21_600_000, 43_200_000,
];
export const RETRY_JITTER_RATIO = 0.1;
export const RETRY_HORIZON_MS = 24 * 60 * 60 * 1000;

export function classifyAttempt(outcome: AttemptOutcome): AttemptVerdict {
  if (outcome.kind === 'timeout' || outcome.kind === 'network_error') return 'retry';
  const { status } = outcome;
  if (status >= 200 && status <= 299) return 'succeeded';
  if (status >= 500 && status <= 599) return 'retry';
  if (status === 408 || status === 429) return 'retry';
  if (status === 410) return 'fail_and_suspend';
  return 'fail';
}

/** What a finished attempt does to its endpoint's failure streak. */
export type StreakEffect = 'none' | 'reset' | 'fail' | 'fail_and_suspend';

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

export interface FinishedAttempt {
  outcome: AttemptOutcome;
  /** 1-based number of this attempt. */
  attemptNumber: number;
  attemptedAt: Date;
  /** When the delivery was first attempted; null when this attempt is the first. */
  firstAttemptAt: Date | null;
}

export interface NextStep {
  verdict: AttemptVerdict;
  status: DeliveryStatus;
  /** When to try again; set only while the delivery stays `pending`. */
  nextAttemptAt: Date | null;
  streakEffect: StreakEffect;
  /** Status of the response; null after a timeout or network error. */
  httpStatus: number | null;
}

export interface DecideNextOptions {
  now: Date;
  scheduleMs: readonly number[];
  random?: () => number;
}

/** What a finished attempt means for its delivery: done, tried again at `nextAttemptAt`, or failed for good. */
export function decideNext(attempt: FinishedAttempt, options: DecideNextOptions): NextStep {
  const { outcome } = attempt;
  const verdict = classifyAttempt(outcome);
  const httpStatus = outcome.kind === 'response' ? outcome.status : null;
  switch (verdict) {
    case 'succeeded':
      return { verdict, status: 'succeeded', nextAttemptAt: null, streakEffect: 'reset', httpStatus };
    case 'retry': {
      const { now } = options;
      const firstAt = attempt.firstAttemptAt ?? attempt.attemptedAt;
      const delay = nextRetryDelayMs({
        attemptNumber: attempt.attemptNumber,
        scheduleMs: options.scheduleMs,
        retryAfterHeader: outcome.kind === 'response' ? outcome.retryAfterHeader : null,
        random: options.random,
        now,
        elapsedSinceFirstAttemptMs: now.getTime() - firstAt.getTime(),
      });
      if (delay === null) return { verdict, status: 'failed', nextAttemptAt: null, streakEffect: 'fail', httpStatus };
      return {
        verdict,
        status: 'pending',
        nextAttemptAt: new Date(now.getTime() + delay),
        streakEffect: 'none',
        httpStatus,
      };
    }
    case 'fail':
    case 'fail_and_suspend':
      return { verdict, status: 'failed', nextAttemptAt: null, streakEffect: verdict, httpStatus };
    default: {
      const unknown: never = verdict;
      throw new Error(`unknown verdict ${String(unknown)}`);
    }
  }
}

export interface EndpointHealth {
  /** Consecutive permanent failures. */
  failureStreak: number;
  /** HTTP status of the last permanent failure. */
  lastStatus: number | null;
}

export interface StreakStep {
  endpointId: string;
  streakEffect: StreakEffect;
  httpStatus: number | null;
}

export interface StreakFold {
  /** New health of every endpoint in `current`, in its order. */
  health: Map<string, EndpointHealth>;
  /** Endpoints to suspend, in the order of `current`. */
  suspend: string[];
}

/**
 * Applies a batch of results, in the order their attempts completed, to the endpoints' current
 * health. Results for endpoints not in `current` are ignored: the caller reads the health of every
 * endpoint the batch affects.
 */
export function foldStreaks(
  current: ReadonlyMap<string, EndpointHealth>,
  steps: readonly StreakStep[],
  suspendAfter: number,
): StreakFold {
  const health = new Map([...current].map(([id, h]) => [id, { ...h }]));
  const suspended = new Set<string>();
  for (const step of steps) {
    const h = health.get(step.endpointId);
    if (!h || step.streakEffect === 'none') continue;
    if (step.streakEffect === 'reset') {
      h.failureStreak = 0;
      continue;
    }
    h.failureStreak += 1;
    h.lastStatus = step.httpStatus;
    if (step.streakEffect === 'fail_and_suspend' || h.failureStreak >= suspendAfter) suspended.add(step.endpointId);
  }
  return { health, suspend: [...health.keys()].filter((id) => suspended.has(id)) };
}

export interface NextRetryDelayInput {
  /** 1-based number of the attempt that just failed. */
  attemptNumber: number;
  /** Delays before retries 1..n; n entries allow n + 1 attempts. */
  scheduleMs: readonly number[];
  retryAfterHeader?: string | null;
  random?: () => number;
  now?: Date;
  /** Time since the first attempt; when given, no retry is scheduled past `horizonMs` (default 24 h). */
  elapsedSinceFirstAttemptMs?: number;
  horizonMs?: number;
}

/** Milliseconds to wait before the next attempt, or null when no attempt is left. */
export function nextRetryDelayMs(input: NextRetryDelayInput): number | null {
  const { attemptNumber, scheduleMs } = input;
  if (!Number.isInteger(attemptNumber) || attemptNumber < 1) {
    throw new RangeError(`attemptNumber must be a positive integer, got ${attemptNumber}`);
  }
  const scheduled = scheduleMs[attemptNumber - 1];
  if (scheduled === undefined) return null;

  const random = input.random ?? Math.random;
  const jitter = (random() * 2 - 1) * RETRY_JITTER_RATIO;
  let delay = Math.max(0, Math.round(scheduled * (1 + jitter)));

  const retryAfter = parseRetryAfterMs(input.retryAfterHeader, input.now ?? new Date());
  if (retryAfter !== null) delay = Math.min(Math.max(delay, retryAfter), 2 * scheduled);

  if (input.elapsedSinceFirstAttemptMs !== undefined) {
    const remaining = (input.horizonMs ?? RETRY_HORIZON_MS) - input.elapsedSinceFirstAttemptMs;
    if (remaining <= 0) return null;
    delay = Math.min(delay, remaining);
  }
  return delay;
}

/** `Retry-After` as milliseconds from `now` (delay-seconds or HTTP-date, never negative); null when absent or malformed. */
export function parseRetryAfterMs(header: string | null | undefined, now: Date): number | null {
  if (header === null || header === undefined) return null;
  const text = header.trim();
  if (text === '') return null;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // HTTP-dates start with a weekday name; this keeps things like "1.5" or "-3" away from Date.parse's guessing.
  if (!/^[A-Za-z]{3,9},?\s/.test(text)) return null;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - now.getTime());
}
