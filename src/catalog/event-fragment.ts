/**
 * A bounded context's part of the event catalog: its payload types, their schemas, examples and
 * group titles, defined in `src/<context>/<context>.events.ts` and assembled by `EventCatalog.from`.
 */
import type { Field, JsonSchemaObject } from './payload-schema';

/** The part of a type before its first dot: session, campaign, credits, voice_clone, room, … */
export type GroupOf<T> = T extends `${infer G}.${string}` ? G : never;

export interface EventDefinition<T> {
  /** When the event fires (the "When" column of docs/events.md). */
  readonly description: string;
  readonly payload: Field<T>;
  /** A plausible payload, shown in docs/events.md and the OpenAPI document. */
  readonly example: T;
}

/** One type of a fragment as the registry reads it. */
export interface FragmentEvent {
  readonly description: string;
  readonly schema: JsonSchemaObject;
  readonly example: Readonly<Record<string, unknown>>;
}

declare const payloadTypes: unique symbol;

/** P, the fragment's payload map (`{ 'session.created': SessionCreatedData; … }`), exists for the compiler only. */
export interface EventFragment<P = unknown> {
  /** Title of each group the fragment defines: docs/events.md headings and OpenAPI tags. */
  readonly groups: Readonly<Record<string, string>>;
  /** By type, in the order the docs list them within their group. */
  readonly events: Readonly<Record<string, FragmentEvent>>;
  readonly [payloadTypes]?: P;
}

/**
 * Checks every type's schema and example against its payload type in P, and that P's types and
 * the definitions are the same set (a type cannot be added on one side only). Each group of P
 * needs a title.
 */
export function defineEvents<P extends Record<string, object>>(fragment: {
  readonly groups: { readonly [G in GroupOf<keyof P>]: string };
  readonly events: { readonly [K in keyof P]: EventDefinition<P[K]> };
}): EventFragment<P> {
  // Once checked, only what the registry reads is kept (the phantom types would not widen).
  const definitions = fragment.events as Readonly<
    Record<string, { description: string; payload: { schema: JsonSchemaObject }; example: object }>
  >;
  const events: Record<string, FragmentEvent> = {};
  for (const [type, { description, payload, example }] of Object.entries(definitions)) {
    events[type] = { description, schema: payload.schema, example: example as Readonly<Record<string, unknown>> };
  }
  return { groups: fragment.groups, events };
}

type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/** Several payload maps (a union) as one: `{ 'session.created': SessionCreatedData; 'webhook.test': … }`. */
export type MergedPayloads<U> = { [K in keyof UnionToIntersection<U>]: UnionToIntersection<U>[K] };

/** Typed events for producers: `{ type: 'session.created'; data: SessionCreatedData } | …`. */
export type EventsOf<P> = { [K in keyof P]: { type: K; data: P[K] } }[keyof P];
