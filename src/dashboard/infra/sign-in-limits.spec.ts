import { Logger } from '@nestjs/common';
import { BoundedWork, clientKey, WindowLimit } from './sign-in-limits';

describe('WindowLimit', () => {
  it('allows `limit` requests per key and window, then says how long to wait; a new window starts afresh', () => {
    let now = 1_000_000;
    const limit = new WindowLimit(3, 60_000, () => now);
    expect([limit.take('a'), limit.take('a'), limit.take('a')]).toEqual([0, 0, 0]);
    expect(limit.take('a')).toBe(60);
    expect(limit.take('b')).toBe(0);
    now += 45_500;
    expect(limit.take('a')).toBe(15);
    now += 15_000;
    expect(limit.take('a')).toBe(0);
  });

  it('wait() tells the same without counting', () => {
    let now = 0;
    const limit = new WindowLimit(2, 60_000, () => now);
    for (let i = 0; i < 5; i++) expect(limit.wait('a')).toBe(0);
    limit.take('a');
    expect(limit.wait('a')).toBe(0);
    limit.take('a');
    now += 30_000;
    expect(limit.wait('a')).toBe(30);
    now += 30_000;
    expect(limit.wait('a')).toBe(0);
  });

  it('a limit of 0 counts nothing', () => {
    const limit = new WindowLimit(0, 60_000);
    for (let i = 0; i < 100; i++) expect(limit.take('a')).toBe(0);
  });
});

describe('clientKey', () => {
  it('an IPv4 address is itself; IPv6 counts by its /64; a mapped IPv4 is the IPv4 address', () => {
    expect(clientKey('203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8:1:2::9')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });
});

describe('BoundedWork', () => {
  const quiet: Pick<Logger, 'warn'> = { warn: jest.fn() };

  it('runs `concurrency` jobs at once, queues `maxPending`, drops the rest with one log line', async () => {
    const work = new BoundedWork('jobs', 2, 3, quiet);
    let running = 0;
    let most = 0;
    const done: number[] = [];
    const release: (() => void)[] = [];
    const job = (i: number) => async () => {
      running++;
      most = Math.max(most, running);
      await new Promise<void>((resolve) => release.push(resolve));
      running--;
      done.push(i);
    };
    const offered = Array.from({ length: 8 }, (_, i) => work.offer(job(i)));
    expect(offered).toEqual([true, true, true, true, true, false, false, false]);
    expect(quiet.warn).toHaveBeenCalledTimes(1);
    while (done.length < 5) {
      release.shift()?.();
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(most).toBe(2);
    expect(done.sort()).toEqual([0, 1, 2, 3, 4]);
    // Free again: a new job runs.
    expect(work.offer(job(9))).toBe(true);
    release.shift()?.();
  });

  it('a failing job frees its slot', async () => {
    const work = new BoundedWork('jobs', 1, 0, quiet);
    expect(work.offer(() => Promise.reject(new Error('boom')))).toBe(true);
    await new Promise((resolve) => setImmediate(resolve));
    expect(work.offer(() => Promise.resolve())).toBe(true);
  });
});
