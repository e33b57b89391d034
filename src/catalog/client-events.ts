/**
 * Renders the Node client's webhook event types (clients/node/src/generated/events.ts) from the
 * catalog: one payload interface per type and the discriminated union `WebhookEvent` over `type`.
 * `npm run client:generate` writes the file and a unit test fails when it differs from this output.
 */
import type { CatalogEntry, EventCatalog } from './event-catalog';
import type { JsonSchemaObject } from './payload-schema';

export const CLIENT_EVENTS_PATH = 'clients/node/src/generated/events.ts';

/** `session.opt_out_detected` → `SessionOptOutDetected`. */
export function pascalName(type: string): string {
  return type
    .split(/[._]/)
    .filter((part) => part.length > 0)
    .map((part) => part[0]?.toUpperCase() + part.slice(1))
    .join('');
}

function literal(value: string | null): string {
  return value === null ? 'null' : JSON.stringify(value);
}

function comment(text: string | undefined, indent: string): string {
  if (text === undefined || text.trim() === '') return '';
  return `${indent}/** ${text.replace(/\*\//g, '*\\/').replace(/\s*\n\s*/g, ' ')} */\n`;
}

/** The TypeScript type of a schema (nullable where its `type` lists `null`). */
function typeOf(schema: JsonSchemaObject, indent: string): string {
  const names = schema.type === undefined ? [] : typeof schema.type === 'string' ? [schema.type] : [...schema.type];
  const nullable = names.includes('null') || (schema.enum?.includes(null) ?? false);
  let base: string;
  if (schema.const !== undefined) base = literal(schema.const);
  else if (schema.enum !== undefined)
    base = schema.enum
      .filter((v) => v !== null)
      .map(literal)
      .join(' | ');
  else {
    const kind = names.find((n) => n !== 'null');
    switch (kind) {
      case 'string':
        base = 'string';
        break;
      case 'integer':
      case 'number':
        base = 'number';
        break;
      case 'boolean':
        base = 'boolean';
        break;
      case 'array': {
        const item = schema.items ? typeOf(schema.items, indent) : 'unknown';
        base = /[|&]/.test(item) ? `Array<${item}>` : `${item}[]`;
        break;
      }
      case 'object':
        base = schema.properties ? objectType(schema, indent) : 'Record<string, unknown>';
        break;
      case undefined:
        base = nullable ? 'null' : 'unknown';
        break;
    }
  }
  return nullable && base !== 'null' ? `${base} | null` : base;
}

function objectType(schema: JsonSchemaObject, indent: string): string {
  const inner = `${indent}  `;
  const required = new Set(schema.required ?? []);
  const lines = Object.entries(schema.properties ?? {}).map(
    ([name, prop]) =>
      `${comment(prop.description, inner)}${inner}${name}${required.has(name) ? '' : '?'}: ${typeOf(prop, inner)};`,
  );
  return `{\n${lines.join('\n')}\n${indent}}`;
}

function payloadInterface(entry: CatalogEntry): string {
  const name = `${pascalName(entry.type)}Data`;
  const body = objectType(entry.schema, '');
  return `${comment(`\`data\` of \`${entry.type}\`: ${entry.description}`, '')}export interface ${name} ${body}\n`;
}

/** The whole generated module, formatted as Prettier would leave it. */
export function renderClientEventTypes(catalog: EventCatalog): string {
  const parts: string[] = [
    '// Generated from the event catalog (src/catalog, src/*/…events.ts) by `npm run client:generate`. Do not edit.',
    '',
    '/** The body of every delivery and of every item of `GET /v1/events`. */',
    'export interface EventEnvelope<T extends string = string, D = Record<string, unknown>> {',
    '  /** Unique event id (UUIDv7); a redelivery carries the same id. */',
    '  id: string;',
    '  type: T;',
    '  tenant_id: string;',
    '  /** When the platform emitted the event, UTC with millisecond precision. */',
    '  created_at: string;',
    '  data: D;',
    '}',
    '',
  ];
  for (const entry of catalog.entries) parts.push(payloadInterface(entry));
  parts.push('/** Payload type by event type. */');
  parts.push('export interface WebhookEventPayloads {');
  for (const entry of catalog.entries) parts.push(`  ${JSON.stringify(entry.type)}: ${pascalName(entry.type)}Data;`);
  parts.push('}', '');
  parts.push('/** Every catalog event type. */');
  parts.push('export type WebhookEventType = keyof WebhookEventPayloads;', '');
  parts.push('/** Every catalog event type, in catalog order. */');
  parts.push('export const WEBHOOK_EVENT_TYPES: readonly WebhookEventType[] = [');
  for (const entry of catalog.entries) parts.push(`  ${JSON.stringify(entry.type)},`);
  parts.push('];', '');
  parts.push('/** One event: narrow it with `switch (event.type)`. */');
  parts.push('export type WebhookEvent = {');
  parts.push('  [T in WebhookEventType]: EventEnvelope<T, WebhookEventPayloads[T]>;');
  parts.push('}[WebhookEventType];', '');
  parts.push('/** The event of one type, e.g. `WebhookEventOf<"session.ended">`. */');
  parts.push('export type WebhookEventOf<T extends WebhookEventType> = Extract<WebhookEvent, { type: T }>;');
  return `${parts.join('\n')}\n`;
}
