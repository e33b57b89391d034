import { Logger } from '@nestjs/common';
import { isIPv6 } from 'node:net';
import { TtlCache } from '../../kernel/ttl-cache';

/** Keys a limit remembers at most (the oldest go first): bounded memory whatever a flood sends. */
const MAX_KEYS = 100_000;

/**
 * Requests counted per key (a client address, an e-mail address) in fixed windows of `windowMs`.
 * In process: each instance counts its own requests (decision 64). A limit of 0 counts nothing.
 */
export class WindowLimit {
  private readonly windows: TtlCache<string, { count: number; resetAt: number }>;

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {
    this.windows = new TtlCache(windowMs, MAX_KEYS, now);
  }

  /** Without counting: 0 while the key is within the limit, else the seconds until its window ends. */
  wait(key: string): number {
    const now = this.now();
    const current = this.windows.get(key);
    if (this.limit === 0 || !current || current.resetAt <= now || current.count < this.limit) return 0;
    return Math.max(1, Math.ceil((current.resetAt - now) / 1000));
  }

  /** Counts one request of the key: 0 when within the limit, else the seconds until its window ends. */
  take(key: string): number {
    if (this.limit === 0) return 0;
    const now = this.now();
    const current = this.windows.get(key);
    const window = current && current.resetAt > now ? current : { count: 0, resetAt: now + this.windowMs };
    window.count++;
    this.windows.set(key, window);
    return window.count > this.limit ? Math.max(1, Math.ceil((window.resetAt - now) / 1000)) : 0;
  }
}

/** The client a per-address limit counts: an IPv4 address, or an IPv6 address by its /64 (one host's share). */
export function clientKey(ip: string): string {
  if (!isIPv6(ip)) return ip;
  if (ip.startsWith('::ffff:')) return ip.slice(7);
  const [head = '', tail = ''] = ip.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${groups.slice(0, 4).join(':')}::/64`;
}

/**
 * Background work of bounded size: `concurrency` jobs run at once and at most `maxPending` wait;
 * one offered beyond that is dropped, and the log says how many were, at most once per 10 s.
 */
export class BoundedWork {
  private running = 0;
  private readonly pending: (() => Promise<void>)[] = [];
  private dropped = 0;
  private lastReport = 0;

  constructor(
    private readonly what: string,
    private readonly concurrency: number,
    private readonly maxPending: number,
    private readonly logger: Pick<Logger, 'warn'>,
  ) {}

  /** Runs the job now, or queues it; false when it was dropped. */
  offer(job: () => Promise<void>): boolean {
    if (this.running < this.concurrency) {
      this.start(job);
      return true;
    }
    if (this.pending.length < this.maxPending) {
      this.pending.push(job);
      return true;
    }
    this.dropped++;
    if (Date.now() - this.lastReport >= 10_000) {
      this.lastReport = Date.now();
      this.logger.warn(
        `${this.dropped} ${this.what} dropped: ${this.concurrency} running and ${this.maxPending} waiting already`,
      );
      this.dropped = 0;
    }
    return false;
  }

  private start(job: () => Promise<void>): void {
    this.running++;
    void job()
      .catch(() => undefined)
      .finally(() => {
        this.running--;
        const next = this.pending.shift();
        if (next) this.start(next);
      });
  }
}
