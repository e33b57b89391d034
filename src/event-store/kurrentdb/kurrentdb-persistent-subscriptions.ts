import {
  END,
  KurrentDBClient,
  PARK,
  START as KDB_START,
  excludeSystemEvents,
  persistentSubscriptionToAllSettingsFromDefaults,
} from '@kurrent/kurrentdb-client';
import type { PersistentSubscriptionToAll, PersistentSubscriptionToAllResolvedEvent } from '@kurrent/kurrentdb-client';
import type { Position, StoredEvent } from '../event-store.port';
import {
  isPersistentGroupExists,
  isPersistentGroupMissing,
  isSystemRecord,
  reasonOf,
  toStoredEvent,
} from './kurrentdb-mapping';

export interface PersistentSubscriptionOptions {
  /** Where a newly created group starts; an existing group keeps its own checkpoint. Default: the beginning. */
  startFrom?: Position | 'start' | 'end';
  /** Events the server pushes ahead of acks. Default 10. */
  bufferSize?: number;
  /** How long the server waits for an ack before retrying the event. Default 30 s. */
  messageTimeoutMs?: number;
  /** Server-side retries (timeouts) before an event is parked. Default 10. */
  maxRetryCount?: number;
  /** Overrides the store-level error callback for this subscription. */
  onError?: (err: unknown) => void;
}

export interface PersistentSubscriptionHandle {
  /** Stops consuming; resolves once the in-flight handler (if any) has settled. */
  stop(): Promise<void>;
}

/** Persistent subscriptions to $all of the KurrentDB adapter: competing consumers with server-side checkpoints. */
export class PersistentSubscriptions {
  private readonly handles = new Set<PersistentSubscriptionHandle>();
  private readonly ensuredGroups = new Set<string>();

  constructor(
    private readonly client: KurrentDBClient,
    private readonly onError: (err: unknown) => void,
    private readonly isClosed: () => boolean,
  ) {}

  /**
   * Competing consumer of a persistent subscription to $all (the outbox feed when events live in
   * KurrentDB). Creates the group when missing (system events filtered out server-side), then
   * consumes it: ack once `handler` resolves, nack with `park` when it throws, so a poison event
   * lands in the group's parked stream instead of blocking the feed. Reconnects with backoff.
   * Delivery is at least once: the handler must be idempotent (the outbox is unique on
   * (event_id, endpoint_id)).
   */
  subscribe(
    group: string,
    handler: (event: StoredEvent) => Promise<void>,
    options: PersistentSubscriptionOptions = {},
  ): PersistentSubscriptionHandle {
    const onError = options.onError ?? this.onError;
    let stopped = false;
    let current: PersistentSubscriptionToAll | null = null;
    let wake: (() => void) | null = null;

    const sleep = (ms: number): Promise<void> =>
      new Promise((resolve) => {
        const timer = setTimeout(done, ms);
        function done(): void {
          clearTimeout(timer);
          wake = null;
          resolve();
        }
        wake = done;
      });

    const loop = async (): Promise<void> => {
      let failures = 0;
      while (!stopped && !this.isClosed()) {
        try {
          await this.ensurePersistentGroup(group, options);
          if (stopped) break;
          const subscription = this.client.subscribeToPersistentSubscriptionToAll(group, {
            bufferSize: options.bufferSize ?? 10,
          });
          current = subscription;
          for await (const resolved of subscription) {
            failures = 0;
            await dispatch(subscription, resolved, handler);
            if (stopped) break;
          }
        } catch (err) {
          if (stopped || this.isClosed()) break;
          if (isPersistentGroupMissing(err)) this.ensuredGroups.delete(group);
          failures++;
          onError(err);
        } finally {
          const subscription = current;
          current = null;
          if (subscription !== null) await subscription.unsubscribe().catch(() => undefined);
        }
        if (!stopped && !this.isClosed()) await sleep(Math.min(30_000, 250 * 2 ** Math.min(failures, 7)));
      }
    };

    const running = loop();
    const handle: PersistentSubscriptionHandle = {
      stop: async () => {
        stopped = true;
        wake?.();
        const subscription = current;
        if (subscription !== null) await subscription.unsubscribe().catch(() => undefined);
        await running;
        this.handles.delete(handle);
      },
    };
    this.handles.add(handle);
    return handle;
  }

  /** Removes a persistent subscription group; a missing group is fine. */
  async delete(group: string): Promise<void> {
    this.ensuredGroups.delete(group);
    try {
      await this.client.deletePersistentSubscriptionToAll(group);
    } catch (err) {
      if (!isPersistentGroupMissing(err)) throw err;
    }
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.handles].map((h) => h.stop().catch(() => undefined)));
  }

  private async ensurePersistentGroup(group: string, options: PersistentSubscriptionOptions): Promise<void> {
    if (this.ensuredGroups.has(group)) return;
    const startFrom = options.startFrom ?? 'start';
    const settings = persistentSubscriptionToAllSettingsFromDefaults({
      startFrom:
        startFrom === 'start' ? KDB_START : startFrom === 'end' ? END : startFrom.commit < 0n ? KDB_START : startFrom,
      resolveLinkTos: false,
      ...(options.messageTimeoutMs !== undefined ? { messageTimeout: options.messageTimeoutMs } : {}),
      ...(options.maxRetryCount !== undefined ? { maxRetryCount: options.maxRetryCount } : {}),
    });
    try {
      await this.client.createPersistentSubscriptionToAll(group, settings, { filter: excludeSystemEvents() });
    } catch (err) {
      if (!isPersistentGroupExists(err)) throw err;
    }
    this.ensuredGroups.add(group);
  }
}

async function dispatch(
  subscription: PersistentSubscriptionToAll,
  resolved: PersistentSubscriptionToAllResolvedEvent,
  handler: (event: StoredEvent) => Promise<void>,
): Promise<void> {
  const record = resolved.event;
  if (record === undefined || isSystemRecord(record)) {
    await subscription.ack(resolved);
    return;
  }
  try {
    await handler(toStoredEvent(record, resolved.commitPosition));
  } catch (err) {
    await subscription.nack(PARK, reasonOf(err), resolved);
    return;
  }
  await subscription.ack(resolved);
}
