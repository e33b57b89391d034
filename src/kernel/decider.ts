import type { EventEdge, RawEvent } from './event-edge';

/**
 * A domain event as deciders see it: a readonly plain object keyed by its stored `type`.
 * Ids, tenant and time are added by the command plumbing, never by the decider.
 */
export interface DomainEvent<T extends string = string, D extends object = object> {
  readonly type: T;
  readonly data: D;
}

/** decide(command, state) → events (or a DomainError thrown as a value-like failure); evolve folds. */
export interface Decider<Command, State, Event extends DomainEvent> {
  readonly initialState: () => State;
  readonly evolve: (state: State, event: Event) => State;
  readonly decide: (command: Command, state: State) => readonly Event[];
  /** Reads the stream's stored events as Event (older shapes upcast, then narrowed): `event-edge.ts`. */
  readonly edge: EventEdge<Event>;
  /**
   * True for a state that commands are not expected to change soon (a call ended and recorded): the
   * command executor does not keep it in memory, and a later command reads the stream. Absent: kept.
   */
  readonly settled?: (state: State) => boolean;
}

export function fold<State, Event extends DomainEvent>(
  decider: Pick<Decider<unknown, State, Event>, 'initialState' | 'evolve'>,
  events: readonly Event[],
): State {
  return events.reduce(decider.evolve, decider.initialState());
}

/** The state of a stream read back from the store: each stored event through the decider's edge, then folded. */
export function foldStored<State, Event extends DomainEvent>(
  decider: Pick<Decider<unknown, State, Event>, 'initialState' | 'evolve' | 'edge'>,
  stored: readonly RawEvent[],
): State {
  let state = decider.initialState();
  for (const event of stored) state = decider.evolve(state, decider.edge.decode(event));
  return state;
}
