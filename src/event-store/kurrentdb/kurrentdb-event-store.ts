import {
  BACKWARDS,
  END,
  FORWARDS,
  KurrentDBClient,
  NO_STREAM,
  START as KDB_START,
  ErrorType,
  WrongExpectedVersionError as KurrentWrongExpectedVersionError,
  excludeSystemEvents,
  jsonEvent,
} from '@kurrent/kurrentdb-client';
import type { AllStreamSubscription } from '@kurrent/kurrentdb-client';
import {
  AppendResult,
  comparePositions,
  EventStore,
  ExpectedVersion,
  NewEvent,
  Page,
  Position,
  START,
  StoredEvent,
  WrongExpectedVersionError,
} from '../event-store.port';
import { normalizeConnectionString } from './kurrentdb-connection';
import {
  PersistentSubscriptions,
  type PersistentSubscriptionHandle,
  type PersistentSubscriptionOptions,
} from './kurrentdb-persistent-subscriptions';
import {
  EVENT_ID_GUARD_PREFIX,
  EVENT_ID_GUARD_TYPE,
  guardEventId,
  hasErrorType,
  isStreamNotFound,
  isSystemRecord,
  knownPosition,
  mapAppendError,
  toReadPosition,
  toStoredEvent,
  toStreamState,
} from './kurrentdb-mapping';

export { normalizeConnectionString } from './kurrentdb-connection';
export type { PersistentSubscriptionHandle, PersistentSubscriptionOptions } from './kurrentdb-persistent-subscriptions';

/**
 * The EventStoreDB / KurrentDB adapter of the event store port (selected when EVENTSTORE_URL is set).
 *
 * Mapping:
 * - one port event = one KurrentDB JSON event: same id (UUID), type, data; our EventMetadata is the
 *   event's JSON metadata;
 * - streamPosition = the event's stream revision; position = its $all (commit, prepare) position.
 *   Since the server writes every append as implicitly committed prepares, both numbers are the
 *   record's log position, so an event's position is unique and totally ordered.
 *
 * Event ids: the server only deduplicates ids within one stream, and re-appending the same ids to the
 * same stream is acknowledged as an idempotent write. The port (like the PostgreSQL adapter's UNIQUE
 * event_id) wants an id stored once in the whole store, so by default every append first reserves
 * each id in a tiny guard stream `__event-id-<id>` (expected NO_STREAM). The guard event's own id
 * is derived from (stream, event id): retrying an append to the same stream passes again (the
 * server's idempotency), the same id bound for another stream fails with DuplicateEventIdError.
 * The reservation and the append are two writes, not one transaction: a reservation left by a failed
 * append still binds the id to that stream, which is harmless. Guard records are invisible through
 * this port. `uniqueEventIds: false` drops the guard (one write per append, per-stream ids only).
 *
 * Gaps, by design of the server rather than of this adapter:
 * - stream reads carry the $all position only on servers >= 22.6 (earlier ones send 2^64-1); there the
 *   adapter falls back to the resolved event's commit position for both numbers;
 * - readByIds has no index to use and scans $all (audit and tests only).
 */
export interface KurrentDbEventStoreOptions {
  /** Receives background failures (the live wake-up subscription, persistent subscriptions). */
  onError?: (err: unknown) => void;
  /** Reserve every event id store-wide before appending (see above). Default true. */
  uniqueEventIds?: boolean;
}

/** An event id already stored, or reserved, for another stream (or twice in one append). */
export class DuplicateEventIdError extends Error {
  constructor(
    readonly eventId: string,
    readonly streamId: string,
  ) {
    super(`Event id ${eventId} is already used outside stream ${streamId}`);
    this.name = 'DuplicateEventIdError';
  }
}

/** The client reports "no $all position known" as the largest unsigned 64-bit value. */
const NOTIFY_INTERVAL_MS = 10;
const MIN_PAGE = 64;
const MAX_PAGE = 4096;
const SCAN_PAGE = 1000;

export class KurrentDbEventStore implements EventStore {
  private closed = false;
  private readonly listeners = new Set<() => void>();
  private notifyTimer: NodeJS.Timeout | null = null;
  private live: AllStreamSubscription | null = null;
  private liveRetryTimer: NodeJS.Timeout | null = null;
  private liveFailures = 0;
  private readonly persistent: PersistentSubscriptions;

  private constructor(
    private readonly client: KurrentDBClient,
    private readonly options: KurrentDbEventStoreOptions = {},
  ) {
    this.persistent = new PersistentSubscriptions(
      client,
      (err) => this.reportError(err),
      () => this.closed,
    );
  }

  /** Lazy: no connection is made until the first call. */
  static connect(connectionString: string, options: KurrentDbEventStoreOptions = {}): KurrentDbEventStore {
    return new KurrentDbEventStore(
      KurrentDBClient.connectionString(normalizeConnectionString(connectionString)),
      options,
    );
  }

  async append(streamId: string, events: readonly NewEvent[], expected: ExpectedVersion): Promise<AppendResult> {
    this.assertOpen();
    if (events.length === 0) return this.checkOnly(streamId, expected);
    const streamState = toStreamState(expected);
    if (this.options.uniqueEventIds !== false) await this.reserveEventIds(streamId, events);
    let result;
    try {
      result = await this.client.appendToStream(
        streamId,
        events.map((e) =>
          jsonEvent({
            id: e.id,
            type: e.type,
            data: e.data,
            // spread: an interface has no index signature, its spread copy does
            metadata: { ...e.metadata },
          }),
        ),
        { streamState },
      );
    } catch (err) {
      throw mapAppendError(err, streamId, expected);
    }
    const nextExpectedVersion = Number(result.nextExpectedRevision);
    // The success response carries the log position of the write's last record, which is the
    // position $all reports for the last appended event. An idempotent rewrite reports none.
    const position = knownPosition(result.position) ?? (await this.lastPosition(streamId));
    if (position === undefined) throw new Error(`KurrentDB returned no position for the append to ${streamId}`);
    this.fireListeners();
    return { nextExpectedVersion, position };
  }

  async readStream(streamId: string): Promise<StoredEvent[]> {
    this.assertOpen();
    const out: StoredEvent[] = [];
    try {
      for await (const resolved of this.client.readStream(streamId, { direction: FORWARDS, fromRevision: KDB_START })) {
        const record = resolved.event;
        if (record === undefined) continue;
        out.push(toStoredEvent(record, resolved.commitPosition));
      }
    } catch (err) {
      if (isStreamNotFound(err)) return [];
      throw err;
    }
    return out;
  }

  /** KurrentDB returns every committed event at once: nothing is ever hidden. */
  async readPage(after: Position, limit: number): Promise<Page> {
    return { events: await this.readAll(after, limit), hidden: false };
  }

  async readAll(after: Position, limit: number): Promise<StoredEvent[]> {
    this.assertOpen();
    if (limit <= 0) return [];
    const out: StoredEvent[] = [];
    const pageSize = Math.min(MAX_PAGE, Math.max(MIN_PAGE, limit + 1));
    for await (const event of this.scanAll(after, pageSize)) {
      out.push(event);
      if (out.length >= limit) break;
    }
    return out;
  }

  /**
   * KurrentDB has no index by event id: this scans $all from the beginning and stops once every id
   * was seen. Fine for audit queries and tests; never put it on a request path.
   */
  async readByIds(ids: readonly string[]): Promise<StoredEvent[]> {
    this.assertOpen();
    const wanted = new Set(ids.map((id) => id.toLowerCase()));
    if (wanted.size === 0) return [];
    const out: StoredEvent[] = [];
    for await (const event of this.scanAll(START, SCAN_PAGE)) {
      const key = event.id.toLowerCase();
      if (!wanted.has(key)) continue;
      wanted.delete(key);
      out.push(event);
      if (wanted.size === 0) break;
    }
    return out;
  }

  /**
   * Wake-up hint: fired right after each local append, and (throttled to one call per 10 ms) for
   * every event another process appends, seen through a live catch-up subscription to $all started
   * on the first registration.
   */
  onAppended(listener: () => void): () => void {
    this.listeners.add(listener);
    this.startLive();
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** The position of the last record in $all (system records included), or START on an empty log. */
  async headPosition(): Promise<Position> {
    this.assertOpen();
    for await (const resolved of this.client.readAll({ direction: BACKWARDS, fromPosition: END, maxCount: 1 })) {
      const position = knownPosition(resolved.event?.position);
      if (position !== undefined) return position;
    }
    return START;
  }

  /** See PersistentSubscriptions.subscribe. */
  subscribePersistentToAll(
    group: string,
    handler: (event: StoredEvent) => Promise<void>,
    options: PersistentSubscriptionOptions = {},
  ): PersistentSubscriptionHandle {
    this.assertOpen();
    return this.persistent.subscribe(group, handler, options);
  }

  /** Removes a persistent subscription group (operations and test cleanup); a missing group is fine. */
  async deletePersistentSubscriptionToAll(group: string): Promise<void> {
    this.assertOpen();
    await this.persistent.delete(group);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.notifyTimer !== null) clearTimeout(this.notifyTimer);
    if (this.liveRetryTimer !== null) clearTimeout(this.liveRetryTimer);
    this.notifyTimer = null;
    this.liveRetryTimer = null;
    this.listeners.clear();
    await this.persistent.stopAll();
    const live = this.live;
    this.live = null;
    if (live !== null) await live.unsubscribe().catch(() => undefined);
    await this.client.dispose();
  }

  /**
   * Raw $all in pages of `pageSize`, strictly after `after`, system records dropped. Filtering is
   * client-side on purpose: a raw page shorter than requested is then a sure sign of the end of
   * the log, so a poller can never stall before events that a server-side filter window skipped.
   * A page is fully read before it is yielded, so no read stays open while the caller works.
   */
  private async *scanAll(after: Position, pageSize: number): AsyncGenerator<StoredEvent> {
    let cursor = after;
    for (;;) {
      const page: StoredEvent[] = [];
      let seen = 0;
      let last: Position | undefined;
      for await (const resolved of this.client.readAll({
        fromPosition: toReadPosition(cursor),
        direction: FORWARDS,
        maxCount: pageSize,
        resolveLinkTos: false,
      })) {
        seen++;
        const record = resolved.event;
        if (record === undefined) continue;
        const position = knownPosition(record.position);
        if (position === undefined)
          throw new Error(`KurrentDB returned an $all event without a position (${record.id})`);
        last = position;
        // reads from a position include the record at that position: the port's read is exclusive
        if (comparePositions(position, cursor) <= 0) continue;
        if (isSystemRecord(record)) continue;
        page.push(toStoredEvent(record, undefined, position));
      }
      yield* page;
      if (seen < pageSize || last === undefined || comparePositions(last, cursor) <= 0) return;
      cursor = last;
    }
  }

  private async reserveEventIds(streamId: string, events: readonly NewEvent[]): Promise<void> {
    const ids = events.map((e) => e.id.toLowerCase());
    const repeated = ids.find((id, i) => ids.indexOf(id) !== i);
    if (repeated !== undefined) throw new DuplicateEventIdError(repeated, streamId);
    await Promise.all(
      ids.map(async (id) => {
        try {
          await this.client.appendToStream(
            EVENT_ID_GUARD_PREFIX + id,
            jsonEvent({
              id: guardEventId(streamId, id),
              type: EVENT_ID_GUARD_TYPE,
              data: { event_id: id, stream_id: streamId },
            }),
            { streamState: NO_STREAM },
          );
        } catch (err) {
          if (err instanceof KurrentWrongExpectedVersionError || hasErrorType(err, ErrorType.WRONG_EXPECTED_VERSION)) {
            throw new DuplicateEventIdError(id, streamId);
          }
          throw err;
        }
      }),
    );
  }

  /** An append of no events writes nothing: check the expected version and report where the stream is. */
  private async checkOnly(streamId: string, expected: ExpectedVersion): Promise<AppendResult> {
    const last = await this.lastEvent(streamId);
    const actual: number | 'no_stream' = last === undefined ? 'no_stream' : last.streamPosition;
    const ok =
      expected === 'any' ||
      (expected === 'no_stream' && actual === 'no_stream') ||
      (typeof expected === 'number' && (expected < 0 ? actual === 'no_stream' : actual === expected));
    if (!ok) throw new WrongExpectedVersionError(streamId, expected, actual);
    return { nextExpectedVersion: last?.streamPosition ?? -1, position: last?.position ?? START };
  }

  private async lastEvent(streamId: string): Promise<StoredEvent | undefined> {
    try {
      for await (const resolved of this.client.readStream(streamId, {
        direction: BACKWARDS,
        fromRevision: END,
        maxCount: 1,
      })) {
        if (resolved.event !== undefined) return toStoredEvent(resolved.event, resolved.commitPosition);
      }
    } catch (err) {
      if (isStreamNotFound(err)) return undefined;
      throw err;
    }
    return undefined;
  }

  private async lastPosition(streamId: string): Promise<Position | undefined> {
    return (await this.lastEvent(streamId))?.position;
  }

  private startLive(): void {
    if (this.closed || this.live !== null || this.liveRetryTimer !== null) return;
    const subscription = this.client.subscribeToAll({ fromPosition: END, filter: excludeSystemEvents() });
    this.live = subscription;
    let failed = false;
    const restart = (err?: unknown): void => {
      if (failed || this.live !== subscription) return;
      failed = true;
      this.live = null;
      subscription.unsubscribe().catch(() => undefined);
      if (this.closed) return;
      if (err !== undefined) this.reportError(err);
      this.liveFailures++;
      const delay = Math.min(30_000, 250 * 2 ** Math.min(this.liveFailures, 7));
      this.liveRetryTimer = setTimeout(() => {
        this.liveRetryTimer = null;
        this.startLive();
      }, delay);
      this.liveRetryTimer.unref();
    };
    subscription.on('confirmation', () => {
      this.liveFailures = 0;
      // anything appended while the subscription was down went unannounced
      this.scheduleNotify();
    });
    subscription.on('data', () => this.scheduleNotify());
    subscription.on('error', (err: Error) => restart(err));
    subscription.on('end', () => restart());
    subscription.on('close', () => restart());
  }

  private scheduleNotify(): void {
    if (this.closed || this.notifyTimer !== null) return;
    this.notifyTimer = setTimeout(() => {
      this.notifyTimer = null;
      this.fireListeners();
    }, NOTIFY_INTERVAL_MS);
    this.notifyTimer.unref();
  }

  private fireListeners(): void {
    for (const listener of [...this.listeners]) {
      try {
        listener();
      } catch (err) {
        this.reportError(err);
      }
    }
  }

  private reportError(err: unknown): void {
    if (this.closed) return;
    this.options.onError?.(err);
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('KurrentDbEventStore is closed');
  }
}
