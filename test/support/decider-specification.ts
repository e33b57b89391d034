/**
 * Given/when/then for deciders, after emmett's DeciderSpecification:
 *
 *   const spec = DeciderSpecification.for(tenantDecider);
 *   spec.given([created]).when({ type: 'suspend' }).then([{ type: 'tenant.suspended', data: {} }]);
 *   spec.given([]).when({ type: 'suspend' }).thenThrows({ code: 'not_found', param: 'tenant_id' });
 *
 * It lives in test/ because it asserts with Jest's `expect` (diffs of events, asymmetric matchers such as
 * `expect.objectContaining` inside expected events): tsconfig.build.json compiles only src/, and
 * dependency-cruiser lets spec files, and only them, import from test/.
 *
 * As in emmett, what when() returns has a `then` method: call it, never `await` or return that object.
 *
 * Every decision it makes also checks that the decider changed neither a state it was given (in
 * `evolve` while folding the history, and in `decide`) nor an event: the command executor hands one
 * cached state to every command on a stream (test/unit/deciders-keep-state.spec.ts).
 */
import { inspect } from 'node:util';
import type { Decider, DomainEvent } from '../../src/kernel/decider';
import { DomainError, type DomainErrorCode } from '../../src/kernel/result';

/** The fields of the DomainError decide must throw; `message` and `param` are compared only when given. */
export interface ExpectedDomainError {
  code: DomainErrorCode;
  message?: string | RegExp;
  param?: string | undefined;
}

export interface DeciderThen<Event> {
  /** decide returns exactly these events, in this order (strict equality: no extra or missing keys). */
  then(expected: Event | readonly Event[]): void;
  /** decide returns no events. */
  thenNothingHappened(): void;
  /** decide throws a DomainError with this code (and message/param when given). */
  thenThrows(expected: DomainErrorCode | ExpectedDomainError): void;
}

export interface DeciderSpecification<Command, Event> {
  given(events: Event | readonly Event[]): { when(command: Command): DeciderThen<Event> };
}

export const DeciderSpecification = {
  for<Command, State, Event extends DomainEvent>(
    decider: Decider<Command, State, Event>,
  ): DeciderSpecification<Command, Event> {
    return {
      given: (given) => ({
        when: (command) => whenDeciding(decider, isEventList(given) ? given : [given], command),
      }),
    };
  },
};

function isEventList<Event>(events: Event | readonly Event[]): events is readonly Event[] {
  return Array.isArray(events);
}

function whenDeciding<Command, State, Event extends DomainEvent>(
  decider: Decider<Command, State, Event>,
  given: readonly Event[],
  command: Command,
): DeciderThen<Event> {
  const context = `given ${given.length === 0 ? 'no events' : `${given.length} event(s)`}, when ${show(command)}`;
  const decide = (): readonly Event[] => {
    const state = foldKeepingEvents(decider, given, context);
    const before = deepCopy(state);
    try {
      return decider.decide(command, state);
    } finally {
      withContext(`${context}: decide changed the state it was given`, () => expect(state).toEqual(before));
    }
  };

  const decided = (): readonly Event[] => {
    try {
      return decide();
    } catch (error) {
      throw failure(`${context}: expected decide to return events, but it threw ${show(error)}`, error);
    }
  };

  return {
    then(expected) {
      const events = decided();
      withContext(`${context}: the decided events differ from the expected ones`, () =>
        expect(events).toStrictEqual(isEventList(expected) ? expected : [expected]),
      );
    },

    thenNothingHappened() {
      const events = decided();
      withContext(`${context}: expected no events`, () => expect(events).toStrictEqual([]));
    },

    thenThrows(expected) {
      const wanted = typeof expected === 'string' ? { code: expected } : expected;
      let events: readonly Event[];
      try {
        events = decide();
      } catch (error) {
        if (!(error instanceof DomainError)) {
          throw failure(`${context}: expected a DomainError ${show(wanted)}, but decide threw ${show(error)}`, error);
        }
        const actual: Partial<ExpectedDomainError> = { code: error.code };
        const shape: Record<string, unknown> = { code: wanted.code };
        if (wanted.message !== undefined) {
          actual.message = error.message;
          shape.message = typeof wanted.message === 'string' ? wanted.message : expect.stringMatching(wanted.message);
        }
        if ('param' in wanted) {
          actual.param = error.param;
          shape.param = wanted.param;
        }
        withContext(`${context}: decide threw a DomainError other than the expected one`, () =>
          expect(actual).toStrictEqual(shape),
        );
        return;
      }
      throw failure(`${context}: expected a DomainError ${show(wanted)}, but decide returned ${show(events)}`);
    },
  };
}

/** fold(), checking that evolve changes neither the state nor the event it is given. */
function foldKeepingEvents<Command, State, Event extends DomainEvent>(
  decider: Decider<Command, State, Event>,
  events: readonly Event[],
  context: string,
): State {
  let state = decider.initialState();
  for (const event of events) {
    const [stateBefore, eventBefore] = [deepCopy(state), deepCopy(event)];
    const next = decider.evolve(state, event);
    withContext(`${context}: evolve changed the state it was given`, () => expect(state).toEqual(stateBefore));
    withContext(`${context}: evolve changed the event it was given`, () => expect(event).toEqual(eventBefore));
    state = next;
  }
  return state;
}

/** A deep copy in this realm (Jest's structuredClone builds Maps and Sets that toEqual cannot read). */
export function deepCopy<T>(value: T): T {
  if (value instanceof Map) return new Map([...value].map(([k, v]) => [k, deepCopy(v)])) as T;
  if (value instanceof Set) return new Set([...value].map((v) => deepCopy(v))) as T;
  if (value instanceof Date) return new Date(value.getTime()) as T;
  if (Array.isArray(value)) return value.map((v) => deepCopy(v)) as T;
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, deepCopy(v)])) as T;
  }
  return value;
}

/** Puts the history and the command on top of Jest's own message (and its diff). */
function withContext(context: string, assertion: () => void): void {
  try {
    assertion();
  } catch (error) {
    throw failure(`${context}\n\n${error instanceof Error ? error.message : String(error)}`);
  }
}

function failure(message: string, cause?: unknown): Error {
  const error = new Error(message, cause === undefined ? undefined : { cause });
  // Jest shows the code of the first frame: let it be the test's line, not one of this file.
  error.stack = error.stack
    ?.split('\n')
    .filter((line) => !line.includes(__filename))
    .join('\n');
  return error;
}

function show(value: unknown): string {
  if (value instanceof DomainError) return `DomainError(${value.code}, param ${value.param}): ${value.message}`;
  if (value instanceof Error) return `${value.name}: ${value.message}`;
  return inspect(value, { depth: 6, breakLength: 120 });
}
