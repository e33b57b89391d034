/**
 * JSON Schema (draft 2020-12) for event payloads, built from typed field helpers so the compiler
 * rejects a schema that drifts from its payload interface (a missing or extra property, an optional
 * field marked required, a nullable field that is not).
 *
 * Nullability follows docs/events.md, "Conventions": an optional field may be absent or null; any other
 * field is required, and nullable only where its value can be missing.
 */

export type JsonSchemaTypeName = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array' | 'null';

/** The subset of JSON Schema 2020-12 that catalog schemas use. */
export interface JsonSchemaObject {
  readonly type?: JsonSchemaTypeName | readonly JsonSchemaTypeName[];
  readonly format?: 'date-time';
  readonly enum?: readonly (string | null)[];
  readonly const?: string;
  readonly pattern?: string;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly items?: JsonSchemaObject;
  readonly properties?: Readonly<Record<string, JsonSchemaObject>>;
  readonly required?: readonly string[];
  readonly additionalProperties?: boolean;
  readonly description?: string;
}

declare const valueType: unique symbol;

/**
 * A schema fragment that remembers, for the compiler only, which TypeScript value it describes
 * and whether its property may be absent. The phantom member is invariant in V so that, e.g.,
 * a non-nullable schema cannot stand for a `string | null` property.
 */
export interface Field<V, Optional extends boolean = false> {
  readonly schema: JsonSchemaObject;
  readonly optional: Optional;
  readonly [valueType]?: (value: V) => V;
}

/** What the schema builder reads back from any field. */
interface AnyField {
  readonly schema: JsonSchemaObject;
  readonly optional: boolean;
}

type OptionalKeys<T> = { [K in keyof T]-?: Record<never, never> extends Pick<T, K> ? K : never }[keyof T];

/** One field per property of T, optional exactly where T's property is optional. */
export type FieldsOf<T> = {
  readonly [K in keyof T]-?: Field<Exclude<T[K], undefined>, K extends OptionalKeys<T> ? true : false>;
};

function withNote(schema: JsonSchemaObject, note: string | undefined): JsonSchemaObject {
  return note === undefined ? schema : { ...schema, description: note };
}

export function field<V>(schema: JsonSchemaObject): Field<V> {
  return { schema, optional: false };
}

export function text(note?: string): Field<string> {
  return field(withNote({ type: 'string' }, note));
}

/** ISO-8601 UTC, e.g. 2026-01-01T00:00:00.000Z. */
export function timestamp(note?: string): Field<string> {
  return field(withNote({ type: 'string', format: 'date-time' }, note));
}

export function integer(note?: string, range: { minimum?: number; maximum?: number } = { minimum: 0 }): Field<number> {
  return field(withNote({ type: 'integer', ...range }, note));
}

export function fraction(note?: string): Field<number> {
  return field(withNote({ type: 'number', minimum: 0, maximum: 1 }, note));
}

export function oneOf<const V extends string>(values: readonly V[], note?: string): Field<V> {
  return field(withNote({ type: 'string', enum: values }, note));
}

export function list<V>(item: Field<V>, note?: string): Field<readonly V[]> {
  return field(withNote({ type: 'array', items: item.schema }, note));
}

export function object<T>(fields: FieldsOf<T>, note?: string): Field<T> {
  const properties: Record<string, JsonSchemaObject> = {};
  const required: string[] = [];
  for (const [name, f] of Object.entries<AnyField>(fields)) {
    properties[name] = f.schema;
    if (!f.optional) required.push(name);
  }
  return field(withNote({ type: 'object', properties, required, additionalProperties: false }, note));
}

/** A listed field that can carry null. */
export function nullable<V>(f: Field<V>): Field<V | null> {
  const { type, enum: values } = f.schema;
  const types: readonly JsonSchemaTypeName[] = type === undefined ? [] : typeof type === 'string' ? [type] : type;
  return field({
    ...f.schema,
    type: types.includes('null') ? types : [...types, 'null'],
    ...(values === undefined || values.includes(null) ? {} : { enum: [...values, null] }),
  });
}

/** An optional field (docs/events.md, "Conventions"): it may be absent, and a field without a value can be null. */
export function optional<V>(f: Field<V>): Field<V | null, true> {
  return { schema: nullable(f).schema, optional: true };
}

/** May be absent but is never null (transcript entry `content` and `t`). */
export function omittable<V>(f: Field<V>): Field<V, true> {
  return { schema: f.schema, optional: true };
}
