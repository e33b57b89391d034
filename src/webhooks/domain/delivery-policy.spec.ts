import {
  classifyAttempt,
  DEFAULT_RETRY_SCHEDULE_MS,
  nextRetryDelayMs,
  parseRetryAfterMs,
  RETRY_HORIZON_MS,
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
  it('is the CONTRACT schedule: 9 retries (10 attempts) within 24 hours', () => {
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
