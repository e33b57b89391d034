import { BACKWARDS, END, FORWARDS, KurrentDBClient, excludeSystemEvents, jsonEvent } from '@kurrent/kurrentdb-client';
import type {
  AppendStreamState,
  EventData,
  ReadAllOptions,
  ReadStreamOptions,
  SubscribeToAllOptions,
} from '@kurrent/kurrentdb-client';

import type { ClientRecord } from './kurrentdb-mapping';

/** What the adapter reads of a resolved event the client returns. */
interface ClientResolvedEvent {
  readonly event?: ClientRecord;
  readonly commitPosition?: bigint;
}

/** What the adapter uses of the live subscription to $all. */
interface ClientSubscription {
  on(event: 'confirmation' | 'data' | 'end' | 'close', listener: () => void): unknown;
  on(event: 'error', listener: (err: Error) => void): unknown;
  unsubscribe(): Promise<unknown>;
}

/**
 * The part of the client the adapter uses, as far as it uses it: the seam through which unit tests
 * drive the adapter's own logic with a fake of this surface (kurrentdb-event-store.spec.ts).
 * `KurrentDBClient` is one.
 */
export interface KurrentDbClientApi {
  appendToStream(
    streamName: string,
    events: EventData[],
    options: { streamState: AppendStreamState },
  ): Promise<{ success: boolean; nextExpectedRevision: bigint; position?: { commit: bigint; prepare: bigint } }>;
  readStream(streamName: string, options: ReadStreamOptions): AsyncIterable<ClientResolvedEvent>;
  readAll(options: ReadAllOptions): AsyncIterable<ClientResolvedEvent>;
  subscribeToAll(options: SubscribeToAllOptions): ClientSubscription;
  dispose(): Promise<void>;
}
import {
  AppendResult,
  checkAppend,
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
import { ErrorListeners } from '../error-listeners';
import { normalizeConnectionString } from './kurrentdb-connection';
import {
  explainError,
  isStreamNotFound,
  isSystemRecord,
  knownPosition,
  lacksPosition,
  mapAppendError,
  storedBefore,
  toEvent,
  toReadPosition,
  toStreamState,
  withUpperBound,
} from './kurrentdb-mapping';

export { normalizeConnectionString } from './kurrentdb-connection';

/**
 * The EventStoreDB / KurrentDB adapter of the event store port (selected when EVENTSTORE_URL is set).
 *
 * Mapping:
 * - one port event = one KurrentDB JSON event: same id (UUID), type, data; our EventMetadata is the
 *   event's JSON metadata;
 * - streamPosition = the event's stream revision (not its index: truncation and soft deletes leave
 *   revisions that do not start at 0); position = its $all (commit, prepare) position.
 *
 * Event ids (decision 50): one write per append, no guard streams. Every append carries an explicit
 * expected revision, so that the server's idempotence by event id is exact: a retry of an append
 * that was stored (its acknowledgement lost) is acknowledged again and stores nothing. An `any`
 * append first reads the stream's last events: its ids found there in the same order are that retry;
 * otherwise it appends at the revision it read, and reads again if another writer got there first.
 * An id stored in another stream is not detected (the server has no index by id).
 *
 * Reads of $all filter system records out on the client, and a page reports the last record it
 * passed (`Page.end`), so a reader's checkpoint moves past trailing system records.
 *
 * Gaps, by design of the server rather than of this adapter:
 * - stream reads carry the $all position only on servers >= 22.6; before, an event read from its
 *   stream gets the head of $all as an upper bound of its position;
 * - readByIds has no index to use and scans $all (audit and tests only).
 */
export interface KurrentDbEventStoreOptions {
  /** Receives background failures, as `onError` listeners do. */
  onError?: (err: unknown) => void;
}

const NOTIFY_INTERVAL_MS = 10;
const MIN_PAGE = 64;
const MAX_PAGE = 4096;
const SCAN_PAGE = 1000;
/** How many events after an `any` append's would-be place it looks at to find an earlier try of it. */
export const ANY_RETRY_LOOKBACK = 256;
/** Tries of an `any` append that keeps meeting other writers (as PostgresEventStore). */
const ANY_ATTEMPTS = 20;

export class KurrentDbEventStore implements EventStore {
  readonly identity = 'kurrentdb';
  private closed = false;
  private readonly listeners = new Set<() => void>();
  private readonly errors = new ErrorListeners();
  private notifyTimer: NodeJS.Timeout | null = null;
  private live: ClientSubscription | null = null;
  private liveRetryTimer: NodeJS.Timeout | null = null;
  private liveFailures = 0;

  private constructor(private readonly client: KurrentDbClientApi) {}

  /** Lazy: no connection is made until the first call. */
  static connect(connectionString: string, options: KurrentDbEventStoreOptions = {}): KurrentDbEventStore {
    return KurrentDbEventStore.withClient(
      KurrentDBClient.connectionString(normalizeConnectionString(connectionString)),
      options,
    );
  }

  /** Over a client made elsewhere (its configuration is the caller's; tests pass a fake). */
  static withClient(client: KurrentDbClientApi, options: KurrentDbEventStoreOptions = {}): KurrentDbEventStore {
    const store = new KurrentDbEventStore(client);
    if (options.onError) store.onError(options.onError);
    return store;
  }

  async append(streamId: string, events: readonly NewEvent[], expected: ExpectedVersion): Promise<AppendResult> {
    this.assertOpen();
    checkAppend(streamId, events, expected);
    if (expected === 'no_stream') return this.appendNew(streamId, events);
    if (expected !== 'any') return this.appendAt(streamId, events, expected);
    // Where the last conflict said the stream is: the place to append when its tail reads empty
    // although it has revisions (all its events expired or were truncated away).
    let actual: number | 'no_stream' = 'no_stream';
    for (let attempt = 1; ; attempt++) {
      const tail = await this.tail(streamId, events.length + ANY_RETRY_LOOKBACK);
      const earlier = storedBefore(tail, events, streamId);
      if (earlier) return earlier;
      const last = tail[tail.length - 1];
      try {
        return await this.appendAt(streamId, events, last ? last.streamPosition : actual);
      } catch (err) {
        if (!(err instanceof WrongExpectedVersionError) || attempt >= ANY_ATTEMPTS) throw err;
        actual = err.actual;
      }
    }
  }

  /**
   * An append expecting no stream. A stream whose events are all gone without a soft delete (expired
   * by `$maxAge`, or `$tb` past its last revision) reads as empty, so a caller expects no stream, but
   * the server keeps its revisions and refuses: when the conflict names a revision and a read still
   * shows no events, the append is tried once more at that revision (the state of an emptied stream
   * is the initial state, as for a new one).
   */
  private async appendNew(streamId: string, events: readonly NewEvent[]): Promise<AppendResult> {
    try {
      return await this.appendAt(streamId, events, 'no_stream');
    } catch (err) {
      if (!(err instanceof WrongExpectedVersionError) || err.actual === 'no_stream') throw err;
      if ((await this.tail(streamId, 1)).length > 0) throw err;
      try {
        return await this.appendAt(streamId, events, err.actual);
      } catch (again) {
        // reported against what the caller expected
        if (again instanceof WrongExpectedVersionError) {
          throw new WrongExpectedVersionError(streamId, 'no_stream', again.actual);
        }
        throw again;
      }
    }
  }

  async readStream(streamId: string): Promise<StoredEvent[]> {
    this.assertOpen();
    return this.readStreamFrom(streamId, { direction: FORWARDS });
  }

  async readAll(after: Position, limit: number): Promise<StoredEvent[]> {
    return (await this.readPage(after, limit)).events;
  }

  /**
   * Up to `limit` events after `after`, and where the read ended: past the system records that
   * follow the last event, up to the end of the log. Nothing is ever hidden: KurrentDB returns every
   * committed record, in commit order.
   */
  async readPage(after: Position, limit: number): Promise<Page> {
    this.assertOpen();
    if (limit <= 0) return { events: [], hidden: false };
    const events: StoredEvent[] = [];
    const rawPage = Math.min(MAX_PAGE, Math.max(MIN_PAGE, limit + 1));
    let cursor = after;
    for (;;) {
      const page = await this.readRawPage(cursor, rawPage);
      for (const event of page.events) {
        events.push(event);
        // the records after it in this raw page are read again next time: the page ends here
        if (events.length === limit) return { events, hidden: false };
      }
      const passed = page.last ?? cursor;
      if (page.atEnd || comparePositions(passed, cursor) <= 0) {
        const lastEvent = events[events.length - 1]?.position ?? after;
        return comparePositions(passed, lastEvent) > 0
          ? { events, hidden: false, end: passed }
          : { events, hidden: false };
      }
      cursor = passed;
    }
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
    let cursor = START;
    for (;;) {
      const page = await this.readRawPage(cursor, SCAN_PAGE);
      for (const event of page.events) {
        const key = event.id.toLowerCase();
        if (!wanted.delete(key)) continue;
        out.push(event);
        if (wanted.size === 0) return out;
      }
      if (page.atEnd || page.last === undefined || comparePositions(page.last, cursor) <= 0) return out;
      cursor = page.last;
    }
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

  onError(listener: (err: unknown) => void): () => void {
    return this.errors.add(listener);
  }

  /** One record read backwards from the end of $all. */
  async ping(): Promise<void> {
    await this.headPosition();
  }

  /** The position of the last record in $all (system records included), or START on an empty log. */
  async headPosition(): Promise<Position> {
    this.assertOpen();
    try {
      for await (const resolved of this.client.readAll({ direction: BACKWARDS, fromPosition: END, maxCount: 1 })) {
        const position = knownPosition(resolved.event?.position);
        if (position !== undefined) return position;
      }
    } catch (err) {
      throw explainError(err);
    }
    return START;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.notifyTimer !== null) clearTimeout(this.notifyTimer);
    if (this.liveRetryTimer !== null) clearTimeout(this.liveRetryTimer);
    this.notifyTimer = null;
    this.liveRetryTimer = null;
    this.listeners.clear();
    this.errors.clear();
    const live = this.live;
    this.live = null;
    if (live !== null) await live.unsubscribe().catch(() => undefined);
    await this.client.dispose();
  }

  /**
   * One write at an explicit expectation: the server's idempotence by event id makes its retry safe.
   * A conflict is the port's WrongExpectedVersionError whether the client throws it or (a client made
   * with `throwOnAppendFailure: false`) resolves `success: false` with the stream's revision, or -1
   * when it has none (decision 50).
   */
  private async appendAt(
    streamId: string,
    events: readonly NewEvent[],
    expected: 'no_stream' | number,
  ): Promise<AppendResult> {
    let result;
    try {
      result = await this.client.appendToStream(
        streamId,
        // spread: an interface has no index signature, its spread copy does
        events.map((e) => jsonEvent({ id: e.id, type: e.type, data: e.data, metadata: { ...e.metadata } })),
        { streamState: toStreamState(expected) },
      );
    } catch (err) {
      throw mapAppendError(err, streamId, expected);
    }
    if (!result.success) {
      const current = result.nextExpectedRevision;
      throw new WrongExpectedVersionError(streamId, expected, current >= 0n ? Number(current) : 'no_stream');
    }
    const nextExpectedVersion = Number(result.nextExpectedRevision);
    // The response carries the log position of the write's last record, which is the position $all
    // reports for the last appended event; an idempotent rewrite reports none: read it.
    const position = knownPosition(result.position) ?? (await this.positionAt(streamId, nextExpectedVersion));
    this.fireListeners();
    return { nextExpectedVersion, position };
  }

  /** The position of the event at `revision` of the stream (an upper bound on servers before 22.6). */
  private async positionAt(streamId: string, revision: number): Promise<Position> {
    const [event] = await this.readStreamFrom(streamId, {
      direction: FORWARDS,
      fromRevision: BigInt(revision),
      maxCount: 1,
    });
    if (event === undefined) throw new Error(`KurrentDB acknowledged an append to ${streamId} it cannot read back`);
    return event.position;
  }

  /** The last `count` events of a stream, in stream order. */
  private async tail(streamId: string, count: number): Promise<StoredEvent[]> {
    return (
      await this.readStreamFrom(streamId, { direction: BACKWARDS, fromRevision: END, maxCount: count })
    ).reverse();
  }

  private async readStreamFrom(
    streamId: string,
    options: { direction: typeof FORWARDS | typeof BACKWARDS; fromRevision?: bigint | typeof END; maxCount?: number },
  ): Promise<StoredEvent[]> {
    const events = [];
    try {
      for await (const resolved of this.client.readStream(streamId, { ...options, resolveLinkTos: false })) {
        const record = resolved.event;
        if (record !== undefined) events.push(toEvent(record, resolved.commitPosition));
      }
    } catch (err) {
      if (isStreamNotFound(err)) return [];
      throw explainError(err);
    }
    // A server before 22.6: the head of $all, read after the events, bounds their positions.
    return withUpperBound(events, lacksPosition(events) ? await this.headPosition() : START);
  }

  /**
   * One raw page of $all strictly after `after`, read whole before it is returned (no read stays open
   * while the caller works): its events without the system records, the position of its last record,
   * and whether it was the end of the log (shorter than asked). Filtering is client-side on purpose:
   * a short raw page is then a sure sign of the end of the log.
   */
  private async readRawPage(
    after: Position,
    size: number,
  ): Promise<{ events: StoredEvent[]; last: Position | undefined; atEnd: boolean }> {
    const events: StoredEvent[] = [];
    let seen = 0;
    let last: Position | undefined;
    try {
      for await (const resolved of this.client.readAll({
        fromPosition: toReadPosition(after),
        direction: FORWARDS,
        maxCount: size,
        resolveLinkTos: false,
      })) {
        seen++;
        const record = resolved.event;
        if (record === undefined) continue;
        const position = knownPosition(record.position);
        if (position === undefined)
          throw new Error(`KurrentDB returned an $all event without a position (${record.id})`);
        // reads from a position include the record at that position: the port's read is exclusive
        if (comparePositions(position, after) <= 0) continue;
        last = position;
        if (isSystemRecord(record)) continue;
        events.push({ ...toEvent(record, undefined, position), position });
      }
    } catch (err) {
      throw explainError(err);
    }
    return { events, last, atEnd: seen < size };
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
      this.reportError(
        explainError(err ?? new Error('the live subscription to $all ended; readers poll until it is back')),
      );
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
    this.errors.report(err);
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('KurrentDbEventStore is closed');
  }
}
