import type { PoolClient } from 'pg';
import type { StoredEvent } from '../../event-store/event-store.port';
import type { DomainEvent } from '../../kernel/decider';
import { EventEdge, type RawEvent } from '../../kernel/event-edge';
import type { StreamName } from '../../kernel/stream-name';
import type { Processor } from './processor-runner';

export type { Processor } from './processor-runner';

/** A read model: a processor that owns some tables and can be rebuilt from the whole history. */
export interface Projection extends Processor {
  /** Tables emptied and refilled by a rebuild. */
  readonly tables: readonly string[];
  /** false for read models with side effects (the webhook outbox): API reads wait for them, rebuilds skip them. */
  readonly rebuildable?: boolean;
}

/** What a handler of every type ('*') sees: any stored event. */
export type AnyEvent = RawEvent;

/** The edge of a processor that handles every event as stored (the audit log, the outbox). */
export const everyEvent: EventEdge<AnyEvent> = EventEdge.open();

/** A stored event as a handler sees it: typed by its `type`, with its stream's entity id. */
export type Handled<E extends DomainEvent> = E &
  Omit<StoredEvent, 'type' | 'data'> & {
    /** The id of the entity whose stream holds the event (the stream name without its category). */
    readonly entityId: string;
  };

interface HandlerDefinition<E extends DomainEvent> {
  readonly name: string;
  /**
   * What it reads: the edge of the event types it handles (`sessionEdge.only('session.ended')`), or
   * `everyEvent`. Each event goes through it before the handler sees it, so older stored shapes are
   * upcast there, once. The runner moves the checkpoint past the other types without calling back.
   */
  readonly edge: EventEdge<E>;
  /**
   * The stream category of the handled events, to read entity ids from stream names. Events of the
   * handled types in streams of another category are not this processor's, and are passed over.
   */
  readonly stream?: StreamName;
  /** Applies one event with the batch's transaction. */
  readonly apply?: (tx: PoolClient, event: Handled<E>) => Promise<void>;
  /** Applies a whole batch at once (one statement for many events), instead of `apply`. */
  readonly applyBatch?: (tx: PoolClient, events: readonly Handled<E>[]) => Promise<void>;
}

export interface ProjectionDefinition<E extends DomainEvent> extends HandlerDefinition<E> {
  readonly tables: readonly string[];
  /** false for a read model with side effects (the webhook outbox): never rebuilt. */
  readonly rebuildable?: false;
  readonly afterCommit?: () => void;
}

export interface ReactorDefinition<E extends DomainEvent> extends HandlerDefinition<E> {
  /** After each committed batch that had events for it, e.g. to wake the worker of what it queued. */
  readonly afterCommit?: () => void;
}

/** A read model over events of types E: the decoding through the edge and the stream-id parsing happen here, once. */
export function defineProjection<E extends DomainEvent = AnyEvent>(definition: ProjectionDefinition<E>): Projection {
  return {
    ...toProcessor(definition),
    tables: definition.tables,
    ...(definition.rebuildable === false ? { rebuildable: false } : {}),
    ...(definition.afterCommit ? { afterCommit: definition.afterCommit } : {}),
  };
}

/**
 * A processor with effects (timers scheduled, deliveries queued): never rebuilt, since replaying it
 * would repeat its effects. Its effects commit with its checkpoint.
 */
export function defineReactor<E extends DomainEvent = AnyEvent>(definition: ReactorDefinition<E>): Processor {
  return {
    ...toProcessor(definition),
    ...(definition.afterCommit ? { afterCommit: definition.afterCommit } : {}),
  };
}

function toProcessor<E extends DomainEvent>(definition: HandlerDefinition<E>): Processor {
  const { apply, applyBatch, stream, edge } = definition;
  const applyAll =
    applyBatch ??
    (apply
      ? async (tx: PoolClient, events: readonly Handled<E>[]) => {
          for (const event of events) await apply(tx, event);
        }
      : null);
  if (!applyAll || (apply && applyBatch)) throw new Error(`${definition.name}: give one of apply and applyBatch`);
  const handled = (stored: StoredEvent): Handled<E> => ({
    ...edge.read(stored),
    entityId: stream ? stream.idOf(stored.streamId) : stored.streamId,
  });
  const ours = stream ? (e: StoredEvent) => stream.owns(e.streamId) : () => true;
  return {
    name: definition.name,
    handles: edge.isOpen ? '*' : edge.types,
    handle: async (tx, events) => applyAll(tx, events.filter(ours).map(handled)),
  };
}
