/**
 * The event catalog: the registry of every webhook event type, assembled from the bounded
 * contexts' fragments (app.module.ts builds the platform's from CONTEXTS). The webhook outbox, the
 * audit log, the OpenAPI document and docs/events.md all read the same instance.
 */
import Ajv2020 from 'ajv/dist/2020';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020';
import type { EventFragment } from './event-fragment';
import type { JsonSchemaObject } from './payload-schema';

/** Injection token of the platform's EventCatalog (provided by RuntimeModule). */
export const EVENT_CATALOG = Symbol('EVENT_CATALOG');

export interface CatalogEntry {
  readonly type: string;
  /** The part of the type before its first dot. */
  readonly group: string;
  /** When the event fires (the "When" column of docs/events.md). */
  readonly description: string;
  readonly schema: JsonSchemaObject;
  /** A payload that validates against `schema`. */
  readonly example: Readonly<Record<string, unknown>>;
}

export interface CatalogOptions {
  /**
   * Groups placed first, in this order, in docs/events.md and the OpenAPI document; the others
   * follow in fragment order (so a new context's group needs no entry). Default: fragment order.
   */
  readonly groupOrder?: readonly string[];
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

function groupOf(type: string): string {
  const dot = type.indexOf('.');
  if (dot <= 0) throw new Error(`Event type '${type}' has no group (expected group.name)`);
  return type.slice(0, dot);
}

function ordered(groups: readonly string[], order: readonly string[] | undefined): readonly string[] {
  if (order === undefined) return groups;
  const listed = new Set(order);
  if (listed.size !== order.length || order.some((g) => !groups.includes(g))) {
    throw new Error(
      `groupOrder [${order.join(', ')}] must name existing event groups, once each: ${groups.join(', ')}`,
    );
  }
  return [...order, ...groups.filter((g) => !listed.has(g))];
}

// ---------------------------------------------------------------------------------------------
// Validation
// ---------------------------------------------------------------------------------------------

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?Z$/;

/** ISO-8601 in UTC (`Z`), optional fraction; rejects impossible dates such as Feb 30. */
export function isUtcDateTime(value: string): boolean {
  const m = DATE_TIME.exec(value);
  if (m === null) return false;
  const [, y, mo, d, h, mi, s] = m.map(Number);
  if (
    y === undefined ||
    mo === undefined ||
    d === undefined ||
    h === undefined ||
    mi === undefined ||
    s === undefined
  ) {
    return false;
  }
  const date = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
  return (
    date.getUTCFullYear() === y &&
    date.getUTCMonth() === mo - 1 &&
    date.getUTCDate() === d &&
    date.getUTCHours() === h &&
    date.getUTCMinutes() === mi &&
    date.getUTCSeconds() === s
  );
}

function formatError(error: ErrorObject): string {
  const at = `data${error.instancePath}`;
  const message = error.message ?? 'is invalid';
  const params: Record<string, unknown> = error.params;
  const extra = params['additionalProperty'];
  return typeof extra === 'string' ? `${at} ${message}: '${extra}'` : `${at} ${message}`;
}

// ---------------------------------------------------------------------------------------------
// Deterministic key order
// ---------------------------------------------------------------------------------------------

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function orderBySchema(schema: JsonSchemaObject | undefined, value: unknown): unknown {
  if (schema === undefined) return value;
  if (Array.isArray(value))
    return schema.items === undefined ? value : value.map((v) => orderBySchema(schema.items, v));
  if (!isPlainObject(value) || schema.properties === undefined) return value;
  const properties = schema.properties;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(properties)) {
    if (Object.hasOwn(value, key)) out[key] = orderBySchema(properties[key], value[key]);
  }
  for (const [key, v] of Object.entries(value)) {
    if (!Object.hasOwn(properties, key)) out[key] = v;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The registry
// ---------------------------------------------------------------------------------------------

/** Immutable. Its functions are bound, so `const { validatePayload } = catalog` works. */
export class EventCatalog {
  /** Grouped in group order, each group in its fragment's order. */
  readonly entries: readonly CatalogEntry[];
  readonly types: readonly string[];
  readonly groups: readonly string[];
  /** Headings for docs and OpenAPI tags. */
  readonly groupTitles: Readonly<Record<string, string>>;
  private readonly byType: ReadonlyMap<string, CatalogEntry>;
  private validators: Map<string, ValidateFunction> | undefined;

  /** Throws on a type or group defined twice, a type outside its fragment's groups, or a groupOrder naming an unknown group or one twice. */
  static from(fragments: readonly EventFragment[], options: CatalogOptions = {}): EventCatalog {
    const titles = new Map<string, string>();
    const defined = new Map<string, CatalogEntry>();
    for (const fragment of fragments) {
      for (const [group, title] of Object.entries(fragment.groups)) {
        if (titles.has(group)) throw new Error(`Event group '${group}' is defined by two fragments`);
        titles.set(group, title);
      }
      for (const [type, { description, schema, example }] of Object.entries(fragment.events)) {
        const group = groupOf(type);
        if (!Object.hasOwn(fragment.groups, group)) throw new Error(`Event type '${type}' has no group title`);
        if (defined.has(type)) throw new Error(`Event type '${type}' is defined twice`);
        defined.set(type, { type, group, description, schema, example });
      }
    }
    const groups = ordered([...titles.keys()], options.groupOrder);
    const entries = groups.flatMap((group) => {
      const inGroup = [...defined.values()].filter((e) => e.group === group);
      if (inGroup.length === 0) throw new Error(`Event group '${group}' has no event`);
      return inGroup;
    });
    return new EventCatalog(entries, groups, Object.fromEntries(groups.map((g) => [g, titles.get(g) ?? g])));
  }

  private constructor(entries: CatalogEntry[], groups: readonly string[], groupTitles: Record<string, string>) {
    this.entries = deepFreeze(entries);
    this.types = Object.freeze(entries.map((e) => e.type));
    this.groups = Object.freeze([...groups]);
    this.groupTitles = Object.freeze(groupTitles);
    this.byType = new Map(entries.map((e) => [e.type, e]));
  }

  readonly isCatalogType = (type: string): boolean => this.byType.has(type);

  readonly entry = (type: string): CatalogEntry | undefined => this.byType.get(type);

  /** Validates `data` against the payload schema of `type`. Empty array: valid. */
  readonly validatePayload = (type: string, data: unknown): string[] => {
    const validate = this.validatorFor(type);
    if (validate === undefined) return [`unknown event type '${type}'`];
    if (validate(data)) return [];
    return [...new Set((validate.errors ?? []).map(formatError))];
  };

  // Subscription filters: `*`, an exact catalog type, or `group.*`.

  /** Checks every entry; an empty list is syntactically fine (what it means is the caller's policy). */
  readonly parseEventFilter = (entries: readonly string[]): { ok: true } | { ok: false; invalid: string[] } => {
    const invalid = entries.filter((entry) => !this.isFilterEntry(entry));
    return invalid.length === 0 ? { ok: true } : { ok: false, invalid };
  };

  /**
   * The fan-out decides this in SQL (webhook-outbox.processor.ts); test/int/webhooks/event-filter-matching.int-spec.ts
   * checks that both agree on every catalog type.
   */
  readonly matchesEventFilter = (filter: readonly string[], type: string): boolean =>
    filter.some(
      (entry) => entry === '*' || entry === type || (entry.endsWith('.*') && type.startsWith(entry.slice(0, -1))),
    );

  /**
   * A copy of `data` with keys in the schema's property order (nested transcript and function
   * entries too), unknown keys after in their original order. Unknown types keep their order.
   */
  readonly orderPayloadKeys = (type: string, data: Record<string, unknown>): Record<string, unknown> => {
    const schema = this.byType.get(type)?.schema ?? { properties: {} };
    const ordered = orderBySchema(schema, data);
    return isPlainObject(ordered) ? ordered : { ...data };
  };

  private isFilterEntry(entry: string): boolean {
    if (entry === '*') return true;
    if (entry.endsWith('.*')) return this.groups.includes(entry.slice(0, -2));
    return this.byType.has(entry);
  }

  /** Compiled on first use, all at once, so a broken schema fails the first validation loudly. */
  private validatorFor(type: string): ValidateFunction | undefined {
    if (this.validators === undefined) {
      const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
      ajv.addFormat('date-time', { type: 'string', validate: isUtcDateTime });
      this.validators = new Map(this.entries.map((e) => [e.type, ajv.compile(e.schema)]));
    }
    return this.validators.get(type);
  }
}
