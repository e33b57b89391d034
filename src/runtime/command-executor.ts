import { Inject, Injectable } from '@nestjs/common';
import {
  EVENT_STORE,
  EventStore,
  NewEvent,
  Position,
  StoredEvent,
  WrongExpectedVersionError,
} from '../event-store/event-store.port';
import { currentIdempotencyKey } from '../kernel/idempotency-context';
import { CLOCK, Clock } from '../kernel/clock';
import { Decider, DomainEvent, fold } from '../kernel/decider';
import { newEventId } from '../kernel/ids';
import { conflict } from '../kernel/result';
import { ProjectionsService } from './processors.service';

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
 * The whole command pipeline: load the stream, fold it, decide, and append with the expected version.
 * A concurrent writer makes the append fail; the command is then decided again on fresh state.
 */
@Injectable()
export class CommandExecutor {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly projections: ProjectionsService,
  ) {}

  async execute<Command, State, Event extends DomainEvent>(
    streamId: string,
    decider: Decider<Command, State, Event>,
    command: Command,
    context: ExecutionContext,
    options: ExecuteOptions = {},
  ): Promise<Executed<Event, State>> {
    const idempotencyKey = currentIdempotencyKey();
    for (let attempt = 0; ; attempt++) {
      const stored = await this.store.readStream(streamId);
      const state = fold(decider, stored as unknown as Event[]);
      // A retry of a request whose events were committed (its answer lost to a crash or a 5xx)
      // returns them as the outcome instead of deciding, and appending, again.
      const earlier = idempotencyKey && !options.appendTo ? committedUnder(stored, idempotencyKey) : [];
      const last = earlier[earlier.length - 1];
      if (last) {
        if (options.readYourWrites) await this.projections.waitForProjections(last.position);
        return { events: earlier, state, position: last.position, repeated: true };
      }
      const decided = decider.decide(command, state);
      if (decided.length === 0) return { events: [], state, position: null };
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
      const expected = stored.length === 0 ? 'no_stream' : stored.length - 1;
      try {
        const result = options.appendTo
          ? await this.store.append(options.appendTo, events, 'any')
          : await this.store.append(streamId, events, expected);
        if (options.readYourWrites) await this.projections.waitForProjections(result.position);
        return { events, state: decided.reduce(decider.evolve, state), position: result.position };
      } catch (err) {
        if (!(err instanceof WrongExpectedVersionError)) throw err;
        if (attempt >= 15) throw conflict('The resource is being changed by other requests; retry.');
        // Back off a little, with jitter, so that racing writers stop colliding.
        await new Promise((r) => setTimeout(r, Math.random() * 5 * (attempt + 1)));
      }
    }
  }
}
