import { Injectable, OnModuleDestroy } from '@nestjs/common';
import type { StoredEvent } from '../../event-store/event-store.port';
import { draining } from '../../kernel/http/draining';
import { LogObserver } from '../../runtime/processing/log-observer';
import { ProjectionsService } from '../../runtime/processing/processors.service';

/** Long polls held at once per tenant in one instance; one more is a 429. */
export const MAX_WAITS_PER_TENANT = 10;
/** The longest `wait` (docs/api.md, "Ids and lists": 30 seconds). */
export const MAX_WAIT_SECONDS = 30;
const MAX_WAIT_MS = MAX_WAIT_SECONDS * 1000;

/**
 * One held long poll (`GET /v1/events?wait=`). It is registered before the feed is read, so that a
 * commit between that read and the wait still wakes it: `changed` resolves at once when a wake-up
 * came since the last `rearm`.
 */
export class FeedWait {
  private woken = false;
  private cancelled = false;
  private resolve: ((woken: boolean) => void) | null = null;

  constructor(private readonly leaveFn: (wait: FeedWait) => void) {}

  /** Forgets earlier wake-ups: call it before each read of the feed. */
  rearm(): void {
    this.woken = false;
  }

  /** Resolves true when woken since the last `rearm`, false when `ms` ran out (or the service drains). */
  changed(ms: number): Promise<boolean> {
    if (this.woken) return Promise.resolve(true);
    if (ms <= 0 || this.cancelled || draining.closing) return Promise.resolve(false);
    return new Promise<boolean>((resolve) => {
      const done = (result: boolean): void => {
        clearTimeout(timer);
        offDrain();
        this.resolve = null;
        resolve(result);
      };
      const timer = setTimeout(() => done(false), ms);
      const offDrain = draining.onDrain(() => done(false));
      this.resolve = done;
    });
  }

  wake(): void {
    this.woken = true;
    this.resolve?.(true);
  }

  /** Ends the wait now (the client went away): `changed` resolves false. */
  cancel(): void {
    this.cancelled = true;
    this.resolve?.(false);
  }

  leave(): void {
    this.leaveFn(this);
  }
}

/**
 * Wakes the tenant's held long polls once its new events are in the audit read model (what the feed
 * reads): from this instance's audit projection after its commit, and, for events another instance
 * projected, from the log observer once this instance's view of the audit checkpoint has passed them.
 * Nothing polls the feed: a held request reads it again only when woken, and once more at its end.
 */
@Injectable()
export class FeedWaiters implements OnModuleDestroy {
  private readonly waits = new Map<string, Set<FeedWait>>();
  private readonly stopObserving: () => void;

  constructor(
    observer: LogObserver,
    private readonly projections: ProjectionsService,
  ) {
    this.stopObserving = observer.observe('*', (events) => this.observed(events));
  }

  onModuleDestroy(): void {
    this.stopObserving();
  }

  /** A new held request of the tenant; null when it already holds `MAX_WAITS_PER_TENANT`. */
  enter(tenantId: string): FeedWait | null {
    let set = this.waits.get(tenantId);
    if (set && set.size >= MAX_WAITS_PER_TENANT) return null;
    if (!set) this.waits.set(tenantId, (set = new Set()));
    const wait = new FeedWait((w) => {
      const current = this.waits.get(tenantId);
      current?.delete(w);
      if (current?.size === 0) this.waits.delete(tenantId);
    });
    set.add(wait);
    return wait;
  }

  /** Wakes the held requests of these tenants (the audit rows of their new events are committed). */
  wake(tenantIds: Iterable<string>): void {
    for (const tenantId of tenantIds) for (const wait of this.waits.get(tenantId) ?? []) wait.wake();
  }

  /** Held requests now, for every tenant (tests, metrics). */
  held(): number {
    let n = 0;
    for (const set of this.waits.values()) n += set.size;
    return n;
  }

  /** Events seen in the log by this instance: some may have been projected by another instance. */
  private observed(events: readonly StoredEvent[]): void {
    if (this.waits.size === 0) return;
    const tenants = new Set<string>();
    for (const e of events) {
      const tenantId = e.metadata.tenant_id;
      if (tenantId && this.waits.has(tenantId)) tenants.add(tenantId);
    }
    const last = events[events.length - 1];
    if (tenants.size === 0 || !last) return;
    void this.projections
      .waitForProjection('audit_events', last.position, MAX_WAIT_MS)
      .then(() => this.wake(tenants))
      .catch(() => this.wake(tenants));
  }
}
