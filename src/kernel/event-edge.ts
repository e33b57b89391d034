/**
 * The typed edge between stored events and the code that reads them (decision 90). A stored event is
 * `{ type: string; data: Record<string, unknown> }`; deciders, processors and read models want their
 * own union (`SessionEvent`). An edge is the one place where one becomes the other, per event type:
 *
 * 1. upcast: an older stored shape becomes today's (a field older events lack gets its value), so no
 *    decider or projection defaults a field of its own;
 * 2. narrow: the type is one the edge reads and every required field of today's shape is present.
 *
 * Narrowing is deliberately cheap (a map lookup and a presence check per required field, no schema
 * validation): replay, processors and command loads decode every event they read. What is stored was
 * written by this code through the same types, so presence is what older shapes can break.
 */

/** A stored event as read back: its type and its JSON payload. */
export interface RawEvent {
  readonly type: string;
  readonly data: Readonly<Record<string, unknown>>;
}

/** What an edge reads into: `DomainEvent` (decider.ts) by another name, so that decider.ts may import this file. */
interface DomainEvent {
  readonly type: string;
  readonly data: object;
}

type RequiredKeys<T> = { [K in keyof T]-?: Record<never, never> extends Pick<T, K> ? never : K }[keyof T];

/**
 * Each required field of T named once (`{ session_id: true, at: true }`): the compiler rejects a map
 * that misses one or names a field T does not have, so the check follows the type.
 */
export type RequiredFields<T> = { readonly [K in RequiredKeys<T> & string]-?: true };

/** An older stored shape to today's: returns the data with what older events lack filled in. */
export type Upcaster = (data: Readonly<Record<string, unknown>>) => Readonly<Record<string, unknown>>;

type DataOf<E extends DomainEvent, K> = Extract<E, { type: K }>['data'];

/** For each event type of E, the required fields of its payload. */
export type EdgeShapes<E extends DomainEvent> = { readonly [K in E['type']]: RequiredFields<DataOf<E, K>> };

/** Older shapes, for the types that had any: applied before the narrowing. */
export type EdgeUpcasters<E extends DomainEvent> = { readonly [K in E['type']]?: Upcaster };

/** A stored event the edge cannot read: a type it does not know, or a required field missing. */
export class UndecodableEvent extends Error {
  override readonly name = 'UndecodableEvent';
}

const AS_STORED: Shape = { required: [], upcast: undefined };

interface Shape {
  readonly required: readonly string[];
  readonly upcast: Upcaster | undefined;
}

/** Reads stored events as E. Built by `defineEdge`, narrowed by `only`, combined by `joinEdges`. */
export class EventEdge<E extends DomainEvent> {
  /** Use `defineEdge`: the shapes must come from a map the compiler checked against E. */
  private constructor(
    private readonly shapes: ReadonlyMap<string, Shape>,
    /** Reads every type, as stored (`open()`). */
    readonly isOpen = false,
  ) {}

  /** The event types it reads. */
  get types(): readonly E['type'][] {
    return [...this.shapes.keys()].filter((t) => this.reads(t));
  }

  reads(type: string): type is E['type'] {
    return this.isOpen || this.shapes.has(type);
  }

  /** The stored event as today's E: upcast, then narrowed; throws `UndecodableEvent`. */
  decode(event: RawEvent): E {
    return this.read(event);
  }

  /**
   * `decode`, keeping the stored event's other fields (id, metadata, stream): the same object,
   * narrowed, when its shape is today's; a copy with today's data when it was upcast.
   */
  read<T extends RawEvent>(event: T): T & E {
    const shape = this.shapes.get(event.type) ?? (this.isOpen ? AS_STORED : undefined);
    if (!shape) throw new UndecodableEvent(`${event.type}: not an event type this edge reads`);
    const current = shape.upcast ? { ...event, data: shape.upcast(event.data) } : event;
    if (conforms<T, E>(current, shape)) return current;
    const missing = shape.required.filter((f) => current.data[f] === undefined);
    throw new UndecodableEvent(`${event.type}: missing ${missing.join(', ')}`);
  }

  /** The same edge over some of its types (a processor that handles a few). */
  only<K extends E['type']>(...types: readonly K[]): EventEdge<Extract<E, { type: K }>> {
    const picked = new Map<string, Shape>();
    for (const type of types) {
      const shape = this.shapes.get(type);
      if (!shape) throw new Error(`${type}: not an event type this edge reads`);
      picked.set(type, shape);
    }
    return new EventEdge(picked);
  }

  /** This edge and another as one (a processor that reads events of several unions). */
  and<F extends DomainEvent>(other: EventEdge<F>): EventEdge<E | F> {
    for (const type of other.shapes.keys()) {
      if (this.shapes.has(type)) throw new Error(`${type}: read by two edges`);
    }
    return new EventEdge(new Map([...this.shapes, ...other.shapes]));
  }

  /** Every event as stored, whatever its type: for a processor of all events (`RawEvent` is what it gets). */
  static open(): EventEdge<RawEvent> {
    return new EventEdge(new Map(), true);
  }

  /**
   * An edge over the event union E: the compiler requires a shape for every type of E, and each
   * shape to name exactly the required fields of that type's payload.
   */
  static define<E extends DomainEvent>(shapes: EdgeShapes<E>, upcasters: EdgeUpcasters<E> = {}): EventEdge<E> {
    const upcastBy: Readonly<Record<string, Upcaster | undefined>> = upcasters;
    const map = new Map<string, Shape>();
    for (const [type, required] of Object.entries<object>(shapes)) {
      map.set(type, { required: Object.keys(required), upcast: upcastBy[type] });
    }
    return new EventEdge(map);
  }
}

/** Whether every field `required` names is present in `data`: the cheap narrowing of an edge or a timer payload. */
export function hasFields<T>(
  data: Readonly<Record<string, unknown>>,
  required: RequiredFields<T>,
): data is Readonly<Record<string, unknown>> & T {
  for (const field in required) if (data[field] === undefined) return false;
  return true;
}

/** The narrowing itself: the shape is the one registered for E's type, and its required fields are all present. */
function conforms<T extends RawEvent, E extends DomainEvent>(event: T, shape: Shape): event is T & E {
  for (const field of shape.required) if (event.data[field] === undefined) return false;
  return true;
}

/** An edge over the event union E (`EventEdge.define`): a shape for every type of E, upcasters for older shapes. */
export function defineEdge<E extends DomainEvent>(
  shapes: EdgeShapes<E>,
  upcasters: EdgeUpcasters<E> = {},
): EventEdge<E> {
  return EventEdge.define(shapes, upcasters);
}
