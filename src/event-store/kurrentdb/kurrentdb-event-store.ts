import { createHash } from 'node:crypto';
import {
  BACKWARDS,
  END,
  FORWARDS,
  KurrentDBClient,
  NO_STREAM,
  ANY,
  PARK,
  START as KDB_START,
  ErrorType,
  StreamNotFoundError,
  PersistentSubscriptionDoesNotExistError,
  PersistentSubscriptionExistsError,
  WrongExpectedVersionError as KurrentWrongExpectedVersionError,
  excludeSystemEvents,
  jsonEvent,
  persistentSubscriptionToAllSettingsFromDefaults,
} from '@kurrent/kurrentdb-client';
import type {
  AllStreamSubscription,
  AppendStreamState,
  PersistentSubscriptionToAll,
  PersistentSubscriptionToAllResolvedEvent,
  ReadPosition,
  RecordedEvent,
} from '@kurrent/kurrentdb-client';
import {
  AppendResult,
  comparePositions,
  EventMetadata,
  EventStore,
  ExpectedVersion,
  NewEvent,
  Position,
  START,
  StoredEvent,
  WrongExpectedVersionError,
} from '../event-store.port';

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

/** The client reports "no $all position known" as the largest unsigned 64-bit value. */
const UNKNOWN_POSITION = 2n ** 64n - 1n;
const NOTIFY_INTERVAL_MS = 10;
const MIN_PAGE = 64;
const MAX_PAGE = 4096;
const SCAN_PAGE = 1000;
/** Guard streams reserving event ids store-wide; never a `$` prefix (system-stream ACLs). */
const EVENT_ID_GUARD_PREFIX = '__event-id-';
const EVENT_ID_GUARD_TYPE = 'event-id.reserved';

const SCHEMES: Readonly<Record<string, string>> = {
  esdb: 'kurrentdb',
  'esdb+discover': 'kurrentdb+discover',
  kurrentdb: 'kurrentdb',
  'kurrentdb+discover': 'kurrentdb+discover',
  kurrent: 'kurrent',
  'kurrent+discover': 'kurrent+discover',
  kdb: 'kdb',
  'kdb+discover': 'kdb+discover',
};

/**
 * Accepts esdb://, kurrentdb://, kurrent://, kdb:// and their +discover forms. The client parses
 * esdb:// too but prints a deprecation warning on every connect, so it is rewritten to kurrentdb://
 * (same grammar: hosts, credentials and query options are untouched).
 */
export function normalizeConnectionString(connectionString: string): string {
  const trimmed = connectionString.trim();
  const match = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(trimmed);
  const scheme = match?.[1]?.toLowerCase();
  const target = scheme === undefined ? undefined : SCHEMES[scheme];
  if (match === null || target === undefined) {
    throw new Error(
      `Unsupported EventStoreDB connection string "${redact(trimmed)}": expected ${Object.keys(SCHEMES)
        .map((s) => `${s}://`)
        .join(', ')}`,
    );
  }
  return `${target}://${trimmed.slice(match[0].length)}`;
}

function redact(connectionString: string): string {
  return connectionString.replace(/\/\/[^@/]*@/, '//***@');
}

export class KurrentDbEventStore implements EventStore {
  private closed = false;
  private readonly listeners = new Set<() => void>();
  private notifyTimer: NodeJS.Timeout | null = null;
  private live: AllStreamSubscription | null = null;
  private liveRetryTimer: NodeJS.Timeout | null = null;
  private liveFailures = 0;
  private readonly persistent = new Set<PersistentSubscriptionHandle>();
  private readonly ensuredGroups = new Set<string>();

  private constructor(
    private readonly client: KurrentDBClient,
    private readonly options: KurrentDbEventStoreOptions = {},
  ) {}

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

  /**
   * Competing consumer of a persistent subscription to $all (the outbox feed when events live in
   * KurrentDB). Creates the group when missing (system events filtered out server-side), then
   * consumes it: ack once `handler` resolves, nack with `park` when it throws, so a poison event
   * lands in the group's parked stream instead of blocking the feed. Reconnects with backoff.
   * Delivery is at least once: the handler must be idempotent (the outbox is unique on
   * (event_id, endpoint_id)).
   */
  subscribePersistentToAll(
    group: string,
    handler: (event: StoredEvent) => Promise<void>,
    options: PersistentSubscriptionOptions = {},
  ): PersistentSubscriptionHandle {
    this.assertOpen();
    const onError = options.onError ?? ((err: unknown) => this.reportError(err));
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
      while (!stopped && !this.closed) {
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
          if (stopped || this.closed) break;
          if (isPersistentGroupMissing(err)) this.ensuredGroups.delete(group);
          failures++;
          onError(err);
        } finally {
          const subscription = current;
          current = null;
          if (subscription !== null) await subscription.unsubscribe().catch(() => undefined);
        }
        if (!stopped && !this.closed) await sleep(Math.min(30_000, 250 * 2 ** Math.min(failures, 7)));
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
        this.persistent.delete(handle);
      },
    };
    this.persistent.add(handle);
    return handle;
  }

  /** Removes a persistent subscription group (operations and test cleanup); a missing group is fine. */
  async deletePersistentSubscriptionToAll(group: string): Promise<void> {
    this.assertOpen();
    this.ensuredGroups.delete(group);
    try {
      await this.client.deletePersistentSubscriptionToAll(group);
    } catch (err) {
      if (!isPersistentGroupMissing(err)) throw err;
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.notifyTimer !== null) clearTimeout(this.notifyTimer);
    if (this.liveRetryTimer !== null) clearTimeout(this.liveRetryTimer);
    this.notifyTimer = null;
    this.liveRetryTimer = null;
    this.listeners.clear();
    await Promise.all([...this.persistent].map((h) => h.stop().catch(() => undefined)));
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

function reasonOf(err: unknown): string {
  const text = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  return text.length > 500 ? `${text.slice(0, 497)}...` : text;
}

function toStreamState(expected: ExpectedVersion): AppendStreamState {
  if (expected === 'any') return ANY;
  if (expected === 'no_stream') return NO_STREAM;
  if (!Number.isSafeInteger(expected)) throw new RangeError(`Invalid expected version ${String(expected)}`);
  // -1 is the conventional "no stream" revision
  return expected < 0 ? NO_STREAM : BigInt(expected);
}

function toReadPosition(position: Position): ReadPosition {
  if (position.commit < 0n || position.prepare < 0n) return KDB_START;
  return { commit: position.commit, prepare: position.prepare };
}

function knownPosition(position: { commit: bigint; prepare: bigint } | undefined): Position | undefined {
  if (position === undefined) return undefined;
  const { commit, prepare } = position;
  if (commit < 0n || prepare < 0n || commit >= UNKNOWN_POSITION || prepare >= UNKNOWN_POSITION) return undefined;
  return { commit, prepare };
}

function mapAppendError(err: unknown, streamId: string, expected: ExpectedVersion): unknown {
  if (err instanceof KurrentWrongExpectedVersionError || hasErrorType(err, ErrorType.WRONG_EXPECTED_VERSION)) {
    const actualState = (err as KurrentWrongExpectedVersionError).actualState;
    const actual: number | 'no_stream' =
      typeof actualState === 'bigint' && actualState >= 0n ? Number(actualState) : 'no_stream';
    return new WrongExpectedVersionError(streamId, expected, actual);
  }
  return err;
}

function hasErrorType(err: unknown, type: ErrorType): boolean {
  return typeof err === 'object' && err !== null && (err as { type?: unknown }).type === type;
}

function isStreamNotFound(err: unknown): boolean {
  return err instanceof StreamNotFoundError || hasErrorType(err, ErrorType.STREAM_NOT_FOUND);
}

function isPersistentGroupExists(err: unknown): boolean {
  return (
    err instanceof PersistentSubscriptionExistsError || hasErrorType(err, ErrorType.PERSISTENT_SUBSCRIPTION_EXISTS)
  );
}

function isPersistentGroupMissing(err: unknown): boolean {
  return (
    err instanceof PersistentSubscriptionDoesNotExistError ||
    hasErrorType(err, ErrorType.PERSISTENT_SUBSCRIPTION_DOES_NOT_EXIST)
  );
}

/** System events ($-typed: $metadata, $>, $statsCollected, …), anything in a $-stream, and our id guards. */
function isSystemRecord(record: { type: string; streamId: string }): boolean {
  return (
    record.type.startsWith('$') || record.streamId.startsWith('$') || record.streamId.startsWith(EVENT_ID_GUARD_PREFIX)
  );
}

/** A name-based (v5-style) UUID of (stream, event id): the same pair always yields the same guard event id. */
function guardEventId(streamId: string, eventId: string): string {
  const hash = createHash('sha1').update(`${streamId}\n${eventId}`).digest();
  hash[6] = ((hash[6] ?? 0) & 0x0f) | 0x50;
  hash[8] = ((hash[8] ?? 0) & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

function toStoredEvent(record: RecordedEvent, commitPosition: bigint | undefined, position?: Position): StoredEvent {
  return {
    id: record.id,
    type: record.type,
    data: toData(record.data),
    metadata: toMetadata(record.metadata, record.created),
    streamId: record.streamId,
    streamPosition: Number(record.revision),
    position: position ?? knownPosition(record.position) ?? fallbackPosition(commitPosition),
  };
}

/** Servers before 22.6 send no $all position on stream reads: use the commit position for both numbers. */
function fallbackPosition(commitPosition: bigint | undefined): Position {
  const known =
    commitPosition === undefined ? undefined : knownPosition({ commit: commitPosition, prepare: commitPosition });
  return known ?? START;
}

function toData(data: unknown): Record<string, unknown> {
  const value = data instanceof Uint8Array ? parseJson(Buffer.from(data).toString('utf8')) : data;
  if (isPlainObject(value)) return value;
  // a foreign (non-object) payload is kept rather than dropped
  return { value };
}

function toMetadata(metadata: unknown, created: Date): EventMetadata {
  const value = metadata instanceof Uint8Array ? parseJson(Buffer.from(metadata).toString('utf8')) : metadata;
  if (isPlainObject(value) && typeof value['created_at'] === 'string') return value as unknown as EventMetadata;
  // written by something other than this platform: keep what we can
  const tenant = isPlainObject(value) && typeof value['tenant_id'] === 'string' ? value['tenant_id'] : null;
  return { tenant_id: tenant, created_at: created.toISOString() };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);
}
