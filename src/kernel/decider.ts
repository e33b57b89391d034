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
}

export function fold<State, Event extends DomainEvent>(
  decider: Pick<Decider<unknown, State, Event>, 'initialState' | 'evolve'>,
  events: readonly Event[],
): State {
  return events.reduce(decider.evolve, decider.initialState());
}
