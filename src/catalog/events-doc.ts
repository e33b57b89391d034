/**
 * Renders docs/events.md from the catalog. The file is generated (src/cli/generate-events-doc.ts)
 * and a unit test fails when it differs from this output, so the doc cannot drift.
 */
import type { CatalogEntry, EventCatalog } from './event-catalog';
import { exampleEnvelope } from './envelope';
import type { JsonSchemaObject, JsonSchemaTypeName } from './payload-schema';

interface FieldRow {
  readonly name: string;
  readonly type: string;
  readonly required: boolean;
  readonly nullable: boolean;
  readonly notes: string;
}

function typesOf(schema: JsonSchemaObject): readonly JsonSchemaTypeName[] {
  const { type } = schema;
  if (type === undefined) return [];
  return typeof type === 'string' ? [type] : type;
}

function code(values: readonly (string | null)[]): string {
  return values
    .filter((v): v is string => v !== null)
    .map((v) => `\`${v}\``)
    .join(', ');
}

function range(schema: JsonSchemaObject): string {
  const { minimum: min, maximum: max } = schema;
  if (min !== undefined && max !== undefined) return ` (${min} to ${max})`;
  if (min !== undefined) return ` (${min} or more)`;
  if (max !== undefined) return ` (${max} or less)`;
  return '';
}

function typeLabel(schema: JsonSchemaObject): string {
  const base = typesOf(schema).find((t) => t !== 'null') ?? 'any';
  if (schema.enum !== undefined) return `enum: ${code(schema.enum)}`;
  if (schema.const !== undefined) return `\`${schema.const}\``;
  if (base === 'string' && schema.format === 'date-time') return 'timestamp';
  if (base === 'integer' || base === 'number') return `${base}${range(schema)}`;
  if (base === 'array') {
    const items = schema.items;
    if (items === undefined) return 'array';
    return items.properties !== undefined ? 'array of objects' : `array of ${typeLabel(items)}`;
  }
  return base;
}

function rowsOf(schema: JsonSchemaObject, prefix = ''): FieldRow[] {
  const properties = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  const rows: FieldRow[] = [];
  for (const [name, prop] of Object.entries(properties)) {
    rows.push({
      name: `${prefix}${name}`,
      type: typeLabel(prop),
      required: required.has(name),
      nullable: typesOf(prop).includes('null'),
      notes: prop.description ?? '',
    });
    if (prop.items?.properties !== undefined) rows.push(...rowsOf(prop.items, `${prefix}${name}[].`));
    else if (prop.properties !== undefined) rows.push(...rowsOf(prop, `${prefix}${name}.`));
  }
  return rows;
}

/** A pipe would split the table cell (notes put anything with angle brackets in code spans). */
function cell(value: string): string {
  return value.replace(/\|/g, '\\|');
}

function yesNo(value: boolean): string {
  return value ? 'yes' : 'no';
}

function json(value: unknown): string {
  return ['```json', JSON.stringify(value, null, 2), '```'].join('\n');
}

/** GitHub's heading anchors: lower case, punctuation other than - and _ dropped. */
function anchor(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^a-z0-9_\- ]/g, '')
    .replace(/ /g, '-');
}

function renderEntry(catalog: EventCatalog, entry: CatalogEntry): string {
  const rows = rowsOf(entry.schema);
  const table = [
    '| Field | Type | Required | Nullable | Notes |',
    '|---|---|---|---|---|',
    ...rows.map(
      (r) => `| \`${r.name}\` | ${cell(r.type)} | ${yesNo(r.required)} | ${yesNo(r.nullable)} | ${cell(r.notes)} |`,
    ),
  ].join('\n');
  return [
    `### \`${entry.type}\``,
    '',
    entry.description,
    '',
    table,
    '',
    'Example `data`:',
    '',
    json(catalog.orderPayloadKeys(entry.type, { ...entry.example })),
  ].join('\n');
}

const INTRO = `# Webhook events

<!-- Generated from the contexts' catalog fragments (src/<context>/<context>.events.ts) by src/cli/generate-events-doc.ts (npm run docs:events). Do not edit by hand. -->

The platform sends an HTTP \`POST\` with a JSON body to every active endpoint subscribed to an event.
This page lists every event type, its payload fields and an example. The \`webhooks\` section of the
OpenAPI document at \`/openapi.json\` is built from the same schemas.`;

const ENVELOPE = `## Envelope

Every delivery has the same envelope, whatever its type. Keys always appear in this order, and
\`data\` keys in the order listed for each type below.

| Field | Type | Notes |
|---|---|---|
| \`id\` | string (UUIDv7) | Unique event id. Redeliveries carry the same id: use it for idempotency. |
| \`type\` | string | One of the types below. |
| \`tenant_id\` | string | Id of the owning tenant. |
| \`created_at\` | timestamp | When the platform emitted the event, with millisecond precision. |
| \`data\` | object | The payload; its fields depend on \`type\`. |`;

const HEADERS = `## Delivery headers

| Header | Content |
|---|---|
| \`Content-Type\` | \`application/json\`, always |
| \`X-Webhook-Signature\` | \`sha256=\` followed by the lower-case hex HMAC-SHA256 of \`<X-Webhook-Timestamp>.<raw body>\`, keyed with the whole \`whsec_…\` secret |
| \`X-Webhook-Timestamp\` | Unix seconds, the value used in the signing base |
| \`X-Webhook-Id\` | same as the body \`id\` |
| \`X-Webhook-Event\` | same as the body \`type\`, to route before parsing |
| \`webhook-id\` | [Standard Webhooks](https://www.standardwebhooks.com/): same as the body \`id\` |
| \`webhook-timestamp\` | Standard Webhooks: same value as \`X-Webhook-Timestamp\` |
| \`webhook-signature\` | Standard Webhooks: \`v1,\` followed by the base64 HMAC-SHA256 of \`<webhook-id>.<webhook-timestamp>.<raw body>\`, keyed with the base64-decoded part of the secret after \`whsec_\` |

To verify a delivery, compute the signature over the raw request bytes (parsing and re-serialising
the body changes them), compare it with \`X-Webhook-Signature\` in constant time, \`sha256=\` prefix
included, and reject the delivery when either header is missing or the timestamp is more than 300
seconds away from your clock. Standard Webhooks libraries can verify the \`webhook-*\` headers instead;
those also sign the event id.

Answer with any 2xx status to acknowledge. 5xx, 408, 429, timeouts (15 seconds by default) and network
errors are retried with backoff for up to 24 hours, about 10 attempts, with the same event id. 410
suspends the endpoint at once; any other status fails the delivery. About 10 consecutive permanent
failures suspend the endpoint and emit \`webhook.endpoint_disabled_notice\`.`;

const CONVENTIONS = `## Conventions

- Timestamps are ISO-8601 strings in UTC, such as \`2026-03-02T17:05:12.503Z\`.
- Durations are integers, in seconds unless the field name ends in \`_ms\`. Money is an integer in cents.
- Phone numbers are strings in international format with a leading \`+\`.
- A field that is not *required* may be left out of the payload. A field that is *nullable* may be
  \`null\`; every optional field is nullable too, because a field without a value can appear as \`null\`.
- Payloads carry no fields beyond those listed.
- For a WebRTC room session, \`from_number\`, \`to_number\`, \`phone_number\`, \`campaign_id\` and
  \`contact_id\` are \`null\`: join on \`session_id\` or \`client_reference_id\`.
- Every room event may carry \`participant_id\` and \`client_reference_id\` (both optional), to join
  on, besides the fields particular to it.
- \`campaign.resumed\` fires when a quiet-hours pause ends by itself (\`reason: quiet_hours_ended\`) and
  on a manual resume (\`reason: manual\`).

## Subscribing

An endpoint's \`events\` list holds entries of three kinds: \`*\` (every type), an exact type such as
\`session.ended\`, or a group wildcard such as \`session.*\`. Any other entry is rejected with a 400.`;

function renderIndex(catalog: EventCatalog): string {
  const rows = catalog.entries.map((e) => `| [\`${e.type}\`](#${anchor(e.type)}) | ${cell(e.description)} |`);
  return ['## Event types', '', '| Type | When |', '|---|---|', ...rows].join('\n');
}

function renderExampleEnvelope(catalog: EventCatalog): string {
  const first = catalog.entries[0];
  if (first === undefined) return '';
  return [
    `A complete \`${first.type}\` delivery body (shown indented; the wire format is compact JSON):`,
    '',
    json(exampleEnvelope(catalog, first.type)),
  ].join('\n');
}

export function renderEventsMarkdown(catalog: EventCatalog): string {
  const sections: string[] = [
    INTRO,
    ENVELOPE,
    renderExampleEnvelope(catalog),
    HEADERS,
    CONVENTIONS,
    renderIndex(catalog),
  ];
  for (const group of catalog.groups) {
    sections.push(`## ${catalog.groupTitles[group]}`);
    for (const entry of catalog.entries) if (entry.group === group) sections.push(renderEntry(catalog, entry));
  }
  return `${sections.join('\n\n')}\n`;
}
