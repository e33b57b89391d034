import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/config';
import {
  AppendResult,
  EVENT_STORE,
  EventStore,
  NewEvent,
  Position,
  StoredEvent,
  WrongExpectedVersionError,
} from '../../event-store/event-store.port';
import { currentIdempotencyKey } from '../../kernel/idempotency-context';
import { CLOCK, Clock } from '../../kernel/clock';
import { Decider, DomainEvent } from '../../kernel/decider';
import { newEventId } from '../../kernel/ids';
import { conflict } from '../../kernel/result';
import { ProjectionsService } from '../processing/processors.service';
import { LogObserver } from '../processing/log-observer';
import { RuntimeMetrics } from '../observability/runtime-metrics';
import {
  emptySnapshot,
  KeyedEvents,
  snapshotAfterAppend,
  snapshotOfStream,
  StreamSnapshot,
  StreamStateCache,
} from './stream-state-cache';

export interface ExecutionContext {
  tenantId: string | null;
  correlationId?: string;
  causationId?: string;
}

export interface Executed<Event extends DomainEvent, State> {
  readonly events: readonly (NewEvent & { type: Event['type'] })[];
  readonly state: State;
  /** Position of the last appended event, or null when the decision produced none. */
  readonly position: Position | null;
  /** True when these are the events an earlier attempt of the same request committed. */
  readonly repeated?: boolean;
}

function committedUnder(stored: readonly StoredEvent[], idempotencyKey: string): StoredEvent[] {
  return stored.filter((e) => e.metadata.idempotency_key === idempotencyKey);
}

/** A cached stream unused for this long is dropped. */
export const CACHED_STREAM_IDLE_MS = 2 * 60_000;

export interface ExecuteOptions {
  /** Append to this stream instead: for events that must not change the decided stream's state (a test ping). */
  appendTo?: string;
  /**
   * Read-your-writes: return only once every read model has applied the new events, for a response
   * or a next request that reads them (a new API key must work at once). Bounded by the wait's timeout.
   */
  readYourWrites?: boolean;
}

/**
 * The whole command pipeline: load the stream's state, decide, and append with the expected version.
 * A concurrent writer makes the append fail; the command is then decided again on fresh state.
 *
 * The state of recently used streams is kept in process (`StreamStateCache`) with its revision, and
 * a stream not kept is guessed new (no events), so a command usually reads nothing before it appends.
 * Such an unconfirmed state is trusted only where being wrong cannot do harm: a decision with events
 * appends with its revision as expected version (`no_stream` for a guess), which fails if another
 * writer (another instance) got there first; the stream is then read and the command decided again.
 * Every other outcome on an unconfirmed state (no events, a refusal, an Idempotency-Key the cache
 * cannot answer for) is decided again on a fresh read before it is returned. So a command succeeds,
 * fails or repeats exactly as it would have after reading the stream.
 */
@Injectable()
export class CommandExecutor implements OnModuleDestroy {
  private readonly cache: StreamStateCache;
  private readonly stopObserving: () => void;

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly projections: ProjectionsService,
    private readonly metrics: RuntimeMetrics,
    @Inject(APP_CONFIG) config: AppConfig,
    observer: LogObserver,
  ) {
    this.cache = new StreamStateCache({
      maxStreams: config.commandCacheStreams,
      maxBytes: config.commandCacheMb * 1024 * 1024,
      idleMs: CACHED_STREAM_IDLE_MS,
    });
    // Only a saving, never needed for correctness: a stream that another instance wrote to is
    // dropped when its event is seen, so the next command here reads it instead of failing an
    // append first (which costs the failed insert, the store's version check, then the read).
    this.stopObserving = this.cache.enabled
      ? observer.observe('*', (events) => {
          for (const e of events) this.cache.seen(e.streamId, e.streamPosition);
        })
      : () => undefined;
  }

  onModuleDestroy(): void {
    this.stopObserving();
  }

  /**
   * The stream's state as a command would start from it: the kept one when there is one (which another
   * writer may have made stale), else read. For gathering the facts of a command (the pacer's round);
   * `execute` then decides on a state that the append confirms.
   */
  async state<Command, State, Event extends DomainEvent>(
    streamId: string,
    decider: Decider<Command, State, Event>,
  ): Promise<State> {
    const cached = this.cache.get<State>(streamId, decider);
    if (cached) return cached.state;
    const snapshot = snapshotOfStream(decider, await this.store.readStream(streamId));
    this.keep(streamId, decider, snapshot);
    this.metrics.commandCache('read');
    return snapshot.state;
  }

  async execute<Command, State, Event extends DomainEvent>(
    streamId: string,
    decider: Decider<Command, State, Event>,
    command: Command,
    context: ExecutionContext,
    options: ExecuteOptions = {},
  ): Promise<Executed<Event, State>> {
    const idempotencyKey = currentIdempotencyKey();
    const checksKey = idempotencyKey !== undefined && !options.appendTo;
    // With appendTo nothing is appended to the decided stream, so no expected version would catch a
    // wrong state: those commands (test pings, rare) always decide on a fresh read. Once read, a
    // command reads again for every further try, as without the cache.
    let readFresh = options.appendTo !== undefined || !this.cache.enabled;
    for (let attempt = 0; ;) {
      let snapshot: StreamSnapshot<State>;
      let unconfirmed: 'cached' | 'guessed' | null = null;
      let earlier: KeyedEvents | undefined;
      if (readFresh) {
        const stored = await this.store.readStream(streamId);
        snapshot = snapshotOfStream(decider, stored);
        this.keep(streamId, decider, snapshot);
        this.metrics.commandCache('read');
        if (checksKey) earlier = committedUnder(stored, idempotencyKey);
      } else {
        const cached = this.cache.get<State>(streamId, decider);
        unconfirmed = cached ? 'cached' : 'guessed';
        snapshot = cached ?? emptySnapshot(decider);
        if (checksKey) {
          // Unknown here (too many keys kept, or positions not known): read the stream. A key absent
          // from the snapshot may still be in an event it has not seen: then the append below fails
          // on its expected version, or the decision is confirmed on a read, which finds the key.
          earlier = snapshot.keys === null ? null : snapshot.keys.get(idempotencyKey);
          if (earlier === null) {
            readFresh = true;
            continue;
          }
        }
      }
      const state = snapshot.state;
      // A retry of a request whose events were committed (its answer lost to a crash or a 5xx)
      // returns them as the outcome instead of deciding, and appending, again.
      const last = earlier?.[earlier.length - 1];
      if (earlier && last) {
        if (options.readYourWrites) await this.projections.waitForProjections(last.position);
        return { events: earlier, state, position: last.position, repeated: true };
      }
      let decided: readonly Event[];
      try {
        decided = decider.decide(command, state);
      } catch (err) {
        // A refusal on an unconfirmed state may come from its staleness (a key issued by another
        // instance): only a refusal on a fresh read is final.
        if (!unconfirmed) throw err;
        this.metrics.commandCache('confirmed');
        readFresh = true;
        continue;
      }
      if (decided.length === 0) {
        // Nothing to do may be wrong too (a purge of a recording the cached state has not seen).
        if (!unconfirmed) return { events: [], state, position: null };
        this.metrics.commandCache('confirmed');
        readFresh = true;
        continue;
      }
      const createdAt = this.clock.now().toISOString();
      const events = decided.map((e) => ({
        id: newEventId(),
        type: e.type,
        data: e.data as Record<string, unknown>,
        metadata: {
          tenant_id: context.tenantId,
          created_at: createdAt,
          ...(context.correlationId ? { correlation_id: context.correlationId } : {}),
          ...(context.causationId ? { causation_id: context.causationId } : {}),
          ...(idempotencyKey ? { idempotency_key: idempotencyKey } : {}),
        },
      }));
      const expected = snapshot.version < 0 ? 'no_stream' : snapshot.version;
      let result: AppendResult;
      try {
        if (options.appendTo) {
          result = await this.store.append(options.appendTo, events, 'any');
        } else {
          result = await this.store.append(streamId, events, expected);
        }
      } catch (err) {
        // Whatever happened to the stream (another writer, or an append whose outcome is unknown),
        // what is cached of it is not to be trusted any more.
        this.cache.drop(streamId);
        if (options.appendTo) this.cache.drop(options.appendTo);
        if (!(err instanceof WrongExpectedVersionError)) throw err;
        if (unconfirmed) {
          // Another writer since the state was cached, or a stream that was not new: read, decide again.
          this.metrics.commandCache('stale');
          readFresh = true;
          continue;
        }
        if (attempt++ >= 15) throw conflict('The resource is being changed by other requests; retry.');
        // Back off a little, with jitter, so that racing writers stop colliding.
        await new Promise((r) => setTimeout(r, Math.random() * 5 * attempt));
        continue;
      }
      if (unconfirmed) this.metrics.commandCache(unconfirmed);
      if (options.appendTo) {
        // Appended with `any` to a stream whose cached state, if any, it has made stale.
        this.cache.drop(options.appendTo);
      } else {
        this.keep(streamId, decider, snapshotAfterAppend(snapshot, decider, streamId, events, result, idempotencyKey));
      }
      if (options.readYourWrites) await this.projections.waitForProjections(result.position);
      return { events, state: decided.reduce(decider.evolve, state), position: result.position };
    }
  }

  /** Keeps the stream's state for the next command, unless the decider calls it settled (then drops it). */
  private keep<State>(
    streamId: string,
    decider: Pick<Decider<unknown, State, never>, 'settled'>,
    snapshot: StreamSnapshot<State>,
  ): void {
    if (decider.settled?.(snapshot.state)) this.cache.drop(streamId);
    else this.cache.put(streamId, snapshot);
  }
}
