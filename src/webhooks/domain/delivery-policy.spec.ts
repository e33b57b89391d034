import {
  AttemptOutcome,
  classifyAttempt,
  decideNext,
  DEFAULT_RETRY_SCHEDULE_MS,
  EndpointHealth,
  foldStreaks,
  nextRetryDelayMs,
  parseRetryAfterMs,
  RETRY_HORIZON_MS,
  StreakStep,
} from './delivery-policy';

const response = (status: number) => ({ kind: 'response', status }) as const;

describe('classifyAttempt', () => {
  it.each([200, 201, 202, 204, 299])('%i succeeds', (status) => {
    expect(classifyAttempt(response(status))).toBe('succeeded');
  });

  it.each([500, 501, 502, 503, 504, 599, 408, 429])('%i is retried', (status) => {
    expect(classifyAttempt(response(status))).toBe('retry');
  });

  it('timeouts and network errors are retried', () => {
    expect(classifyAttempt({ kind: 'timeout' })).toBe('retry');
    expect(classifyAttempt({ kind: 'network_error' })).toBe('retry');
    expect(classifyAttempt({ kind: 'network_error', code: 'ECONNREFUSED' })).toBe('retry');
  });

  it.each([300, 301, 302, 303, 304, 307, 308])('%i fails: redirects are never followed', (status) => {
    expect(classifyAttempt(response(status))).toBe('fail');
  });

  it('410 fails and suspends the endpoint', () => {
    expect(classifyAttempt(response(410))).toBe('fail_and_suspend');
  });

  it.each([400, 401, 403, 404, 405, 409, 413, 415, 422, 451, 499, 100, 101, 600, 0])(
    '%i fails permanently',
    (status) => {
      expect(classifyAttempt(response(status))).toBe('fail');
    },
  );

  it('ignores Retry-After when deciding', () => {
    expect(classifyAttempt({ kind: 'response', status: 400, retryAfterHeader: '10' })).toBe('fail');
    expect(classifyAttempt({ kind: 'response', status: 200, retryAfterHeader: '10' })).toBe('succeeded');
  });
});

describe('DEFAULT_RETRY_SCHEDULE_MS', () => {
  it('is the default schedule of docs/configuration.md: 9 retries (10 attempts) within 24 hours', () => {
    expect(DEFAULT_RETRY_SCHEDULE_MS).toEqual([
      5_000, 30_000, 120_000, 600_000, 1_800_000, 3_600_000, 10_800_000, 21_600_000, 43_200_000,
    ]);
    expect(DEFAULT_RETRY_SCHEDULE_MS.reduce((a, b) => a + b, 0)).toBeLessThan(RETRY_HORIZON_MS);
  });
});

describe('nextRetryDelayMs', () => {
  const schedule = DEFAULT_RETRY_SCHEDULE_MS;
  const mid = (): number => 0.5;
  const now = new Date('2026-01-01T00:00:00.000Z');

  it('follows the schedule without jitter at random() = 0.5', () => {
    schedule.forEach((delay, i) => {
      expect(nextRetryDelayMs({ attemptNumber: i + 1, scheduleMs: schedule, random: mid })).toBe(delay);
    });
  });

  it('is exhausted after the 10th attempt', () => {
    expect(nextRetryDelayMs({ attemptNumber: 9, scheduleMs: schedule, random: mid })).toBe(43_200_000);
    expect(nextRetryDelayMs({ attemptNumber: 10, scheduleMs: schedule, random: mid })).toBeNull();
    expect(nextRetryDelayMs({ attemptNumber: 11, scheduleMs: schedule, random: mid })).toBeNull();
    expect(nextRetryDelayMs({ attemptNumber: 1, scheduleMs: [], random: mid })).toBeNull();
  });

  it('applies at most ±10% jitter', () => {
    expect(nextRetryDelayMs({ attemptNumber: 2, scheduleMs: schedule, random: () => 0 })).toBe(27_000);
    expect(nextRetryDelayMs({ attemptNumber: 2, scheduleMs: schedule, random: () => 0.999999 })).toBe(33_000);
    for (let i = 0; i < 1000; i++) {
      const d = nextRetryDelayMs({ attemptNumber: 2, scheduleMs: schedule }) ?? -1;
      expect(d).toBeGreaterThanOrEqual(27_000);
      expect(d).toBeLessThanOrEqual(33_000);
    }
  });

  it('rejects a nonsensical attempt number', () => {
    expect(() => nextRetryDelayMs({ attemptNumber: 0, scheduleMs: schedule })).toThrow(RangeError);
    expect(() => nextRetryDelayMs({ attemptNumber: 1.5, scheduleMs: schedule })).toThrow(RangeError);
  });

  describe('Retry-After', () => {
    const at = (retryAfterHeader: string | null, attemptNumber = 2): number | null =>
      nextRetryDelayMs({ attemptNumber, scheduleMs: schedule, retryAfterHeader, random: mid, now });

    it('waits longer when asked in seconds', () => {
      expect(at('45')).toBe(45_000);
    });

    it('is capped at twice the scheduled delay', () => {
      expect(at('60')).toBe(60_000);
      expect(at('61')).toBe(60_000);
      expect(at('86400')).toBe(60_000);
      expect(at('99999999999999999999')).toBe(60_000);
    });

    it('never shortens the scheduled backoff', () => {
      expect(at('0')).toBe(30_000);
      expect(at('5')).toBe(30_000);
    });

    it('accepts an HTTP-date, and one in the past counts as zero', () => {
      expect(at('Thu, 01 Jan 2026 00:00:50 GMT')).toBe(50_000);
      expect(at('Thu, 01 Jan 2026 01:00:00 GMT')).toBe(60_000);
      expect(at('Wed, 31 Dec 2025 23:00:00 GMT')).toBe(30_000);
    });

    it('ignores absent or malformed values', () => {
      for (const value of [null, '', '  ', 'soon', '1.5', '-5', '10s']) expect(at(value)).toBe(30_000);
    });

    it('does not revive an exhausted schedule', () => {
      expect(at('10', 10)).toBeNull();
    });
  });

  describe('24-hour horizon', () => {
    it('never schedules past the horizon when the elapsed time is given', () => {
      const elapsed = RETRY_HORIZON_MS - 60_000;
      expect(
        nextRetryDelayMs({
          attemptNumber: 9,
          scheduleMs: schedule,
          random: () => 0.999,
          elapsedSinceFirstAttemptMs: elapsed,
        }),
      ).toBe(60_000);
    });

    it('gives up once the horizon has passed', () => {
      expect(
        nextRetryDelayMs({ attemptNumber: 3, scheduleMs: schedule, elapsedSinceFirstAttemptMs: RETRY_HORIZON_MS }),
      ).toBeNull();
    });

    it('accepts a custom horizon', () => {
      expect(
        nextRetryDelayMs({
          attemptNumber: 2,
          scheduleMs: schedule,
          random: mid,
          elapsedSinceFirstAttemptMs: 0,
          horizonMs: 10_000,
        }),
      ).toBe(10_000);
    });
  });
});

describe('parseRetryAfterMs', () => {
  const now = new Date('2026-01-01T00:00:00.000Z');
  it.each([
    ['120', 120_000],
    [' 7 ', 7_000],
    ['0', 0],
    ['Thu, 01 Jan 2026 00:02:00 GMT', 120_000],
    ['Thursday, 01-Jan-26 00:02:00 GMT', 120_000],
    ['Wed, 31 Dec 2025 00:00:00 GMT', 0],
  ])('%p -> %p', (header, ms) => {
    expect(parseRetryAfterMs(header, now)).toBe(ms);
  });

  it.each([null, undefined, '', 'later', '1.5', '-1', 'Thu, 99 Foo 2026'])('%p -> null', (header) => {
    expect(parseRetryAfterMs(header, now)).toBeNull();
  });
});

describe('decideNext', () => {
  const now = new Date('2026-01-01T12:00:00.000Z');
  const scheduleMs = [100, 200];
  const when = (outcome: AttemptOutcome, attemptNumber = 1, firstAttemptAt: Date | null = null) =>
    decideNext({ outcome, attemptNumber, attemptedAt: now, firstAttemptAt }, { now, scheduleMs, random: () => 0.5 });

  it('2xx → succeeded, nothing more to send, streak reset', () => {
    expect(when(response(204))).toEqual({
      verdict: 'succeeded',
      status: 'succeeded',
      nextAttemptAt: null,
      streakEffect: 'reset',
      httpStatus: 204,
    });
  });

  it('5xx with attempts left → pending at the scheduled time, streak untouched', () => {
    expect(when(response(503), 2)).toEqual({
      verdict: 'retry',
      status: 'pending',
      nextAttemptAt: new Date(now.getTime() + 200),
      streakEffect: 'none',
      httpStatus: 503,
    });
  });

  it('Retry-After lifts the wait, up to twice the scheduled delay', () => {
    const next = when({ kind: 'response', status: 429, retryAfterHeader: '1' });
    expect(next.nextAttemptAt).toEqual(new Date(now.getTime() + 200));
  });

  it('timeout with the schedule exhausted → failed, counts as a permanent failure without a status', () => {
    expect(when({ kind: 'timeout' }, 3)).toEqual({
      verdict: 'retry',
      status: 'failed',
      nextAttemptAt: null,
      streakEffect: 'fail',
      httpStatus: null,
    });
  });

  it('retry past the 24-hour horizon since the first attempt → failed', () => {
    const firstAttemptAt = new Date(now.getTime() - RETRY_HORIZON_MS);
    expect(when({ kind: 'network_error', code: 'ECONNREFUSED' }, 2, firstAttemptAt)).toMatchObject({
      status: 'failed',
      streakEffect: 'fail',
    });
  });

  it('a retry close to the horizon is shortened to it', () => {
    const firstAttemptAt = new Date(now.getTime() - RETRY_HORIZON_MS + 50);
    expect(when(response(500), 2, firstAttemptAt).nextAttemptAt).toEqual(new Date(now.getTime() + 50));
  });

  it('other 4xx → failed, streak +1', () => {
    expect(when(response(404))).toEqual({
      verdict: 'fail',
      status: 'failed',
      nextAttemptAt: null,
      streakEffect: 'fail',
      httpStatus: 404,
    });
  });

  it('410 → failed, endpoint suspended now', () => {
    expect(when(response(410))).toMatchObject({ status: 'failed', streakEffect: 'fail_and_suspend', httpStatus: 410 });
  });
});

describe('foldStreaks', () => {
  const SUSPEND_AFTER = 10;
  const healthy: EndpointHealth = { failureStreak: 0, lastStatus: null };
  const given = (current: Record<string, EndpointHealth>) => ({
    when: (...steps: StreakStep[]) => foldStreaks(new Map(Object.entries(current)), steps, SUSPEND_AFTER),
  });
  const succeeded = (endpointId = 'we_a'): StreakStep => ({ endpointId, streakEffect: 'reset', httpStatus: 200 });
  const failed = (httpStatus: number | null, endpointId = 'we_a'): StreakStep => ({
    endpointId,
    streakEffect: 'fail',
    httpStatus,
  });
  const retried = (endpointId = 'we_a'): StreakStep => ({ endpointId, streakEffect: 'none', httpStatus: 503 });
  const gone = (endpointId = 'we_a'): StreakStep => ({ endpointId, streakEffect: 'fail_and_suspend', httpStatus: 410 });

  it('given a streak of 4, when a delivery succeeds, then the streak is 0 and the last status is kept', () => {
    const then = given({ we_a: { failureStreak: 4, lastStatus: 404 } }).when(succeeded());
    expect(then.health.get('we_a')).toEqual({ failureStreak: 0, lastStatus: 404 });
    expect(then.suspend).toEqual([]);
  });

  it('given a streak of 2, when a delivery fails permanently, then the streak is 3 with its status', () => {
    const then = given({ we_a: { failureStreak: 2, lastStatus: 400 } }).when(failed(422));
    expect(then.health.get('we_a')).toEqual({ failureStreak: 3, lastStatus: 422 });
    expect(then.suspend).toEqual([]);
  });

  it('a failure without a response (timeouts exhausted) records a null last status', () => {
    const then = given({ we_a: { failureStreak: 1, lastStatus: 500 } }).when(failed(null));
    expect(then.health.get('we_a')).toEqual({ failureStreak: 2, lastStatus: null });
  });

  it('a retry scheduled leaves the streak alone', () => {
    const then = given({ we_a: { failureStreak: 5, lastStatus: 404 } }).when(retried(), retried());
    expect(then.health.get('we_a')).toEqual({ failureStreak: 5, lastStatus: 404 });
    expect(then.suspend).toEqual([]);
  });

  it('given 8 failures, when one more fails, then no suspension: the threshold is 10', () => {
    const then = given({ we_a: { failureStreak: 8, lastStatus: 404 } }).when(failed(404));
    expect(then.health.get('we_a')?.failureStreak).toBe(9);
    expect(then.suspend).toEqual([]);
  });

  it('given 9 failures, when the 10th fails, then the endpoint is suspended', () => {
    const then = given({ we_a: { failureStreak: 9, lastStatus: 404 } }).when(failed(400));
    expect(then.health.get('we_a')).toEqual({ failureStreak: 10, lastStatus: 400 });
    expect(then.suspend).toEqual(['we_a']);
  });

  it('the threshold is the configured one', () => {
    const then = foldStreaks(new Map([['we_a', healthy]]), [failed(404), failed(404)], 2);
    expect(then.suspend).toEqual(['we_a']);
  });

  it('given a healthy endpoint, when it answers 410, then it is suspended at once', () => {
    const then = given({ we_a: healthy }).when(gone());
    expect(then.health.get('we_a')).toEqual({ failureStreak: 1, lastStatus: 410 });
    expect(then.suspend).toEqual(['we_a']);
  });

  it('results count in completion order: a failure then a success ends at 0, the reverse at 1', () => {
    const start = { we_a: { failureStreak: 3, lastStatus: 404 } };
    expect(given(start).when(failed(404), succeeded()).health.get('we_a')?.failureStreak).toBe(0);
    expect(given(start).when(succeeded(), failed(404)).health.get('we_a')?.failureStreak).toBe(1);
  });

  it('a suspension reached within a batch stands even when a later result resets the streak', () => {
    const then = given({ we_a: { failureStreak: 9, lastStatus: 404 } }).when(failed(404), succeeded());
    expect(then.health.get('we_a')).toEqual({ failureStreak: 0, lastStatus: 404 });
    expect(then.suspend).toEqual(['we_a']);
  });

  it('endpoints count separately; results come back in the order of the health given', () => {
    const then = given({
      we_a: { failureStreak: 9, lastStatus: 404 },
      we_b: healthy,
      we_c: { failureStreak: 9, lastStatus: 500 },
    }).when(gone('we_b'), failed(404, 'we_c'), succeeded('we_a'), retried('we_b'));
    expect([...then.health]).toEqual([
      ['we_a', { failureStreak: 0, lastStatus: 404 }],
      ['we_b', { failureStreak: 1, lastStatus: 410 }],
      ['we_c', { failureStreak: 10, lastStatus: 404 }],
    ]);
    expect(then.suspend).toEqual(['we_b', 'we_c']);
  });

  it('ignores endpoints whose health was not given and leaves the given map as it was', () => {
    const current = new Map([['we_a', { failureStreak: 1, lastStatus: 404 }]]);
    const then = foldStreaks(current, [failed(404, 'we_x'), failed(500)], SUSPEND_AFTER);
    expect([...then.health.keys()]).toEqual(['we_a']);
    expect(then.health.get('we_a')).toEqual({ failureStreak: 2, lastStatus: 500 });
    expect(current.get('we_a')).toEqual({ failureStreak: 1, lastStatus: 404 });
  });
});
