/**
 * The OpenAPI 3.1 `webhooks` map: one operation per catalog type, describing the POST the
 * platform sends to a receiver. Payload schemas come from the catalog (JSON Schema 2020-12 is
 * the OpenAPI 3.1 schema dialect), so they cannot drift from what is validated and delivered.
 */
import type { CatalogEntry, EventCatalog } from './event-catalog';
import { exampleEnvelope } from './envelope';

/** The body's schema keys, in delivery order. */
function envelopeSchema(entry: CatalogEntry): Record<string, unknown> {
  return {
    type: 'object',
    properties: {
      id: {
        type: 'string',
        format: 'uuid',
        description: 'Unique event id (UUIDv7). Redeliveries carry the same id: use it for idempotency.',
      },
      type: { type: 'string', const: entry.type },
      tenant_id: { type: 'string', description: 'Id of the owning tenant.' },
      created_at: {
        type: 'string',
        format: 'date-time',
        description: 'When the platform emitted the event, UTC with millisecond precision.',
      },
      data: structuredClone(entry.schema),
    },
    required: ['id', 'type', 'tenant_id', 'created_at', 'data'],
    additionalProperties: false,
  };
}

function header(name: string, description: string, schema: Record<string, unknown>): Record<string, unknown> {
  return { name, in: 'header', required: true, description, schema };
}

function deliveryHeaders(entry: CatalogEntry): Record<string, unknown>[] {
  return [
    header(
      'X-Webhook-Signature',
      '`sha256=` followed by the lower-case hex HMAC-SHA256 of `<X-Webhook-Timestamp>.<raw body>`, keyed with the whole `whsec_…` secret. Compare in constant time, prefix included.',
      { type: 'string', pattern: '^sha256=[0-9a-f]{64}$' },
    ),
    header(
      'X-Webhook-Timestamp',
      'Unix seconds used in the signing base. Reject deliveries more than 300 seconds away from your clock.',
      { type: 'string', pattern: '^[0-9]+$' },
    ),
    header('X-Webhook-Id', 'Same as the body `id`.', { type: 'string', format: 'uuid' }),
    header('X-Webhook-Event', 'Same as the body `type`, to route before parsing.', {
      type: 'string',
      const: entry.type,
    }),
    header('webhook-id', 'Standard Webhooks: same as the body `id`.', { type: 'string', format: 'uuid' }),
    header('webhook-timestamp', 'Standard Webhooks: same value as X-Webhook-Timestamp.', {
      type: 'string',
      pattern: '^[0-9]+$',
    }),
    header(
      'webhook-signature',
      'Standard Webhooks: `v1,` followed by the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the base64-decoded part of the secret after `whsec_`.',
      { type: 'string', pattern: '^v1,[A-Za-z0-9+/]+={0,2}( v1,[A-Za-z0-9+/]+={0,2})*$' },
    ),
  ];
}

function operation(catalog: EventCatalog, entry: CatalogEntry): Record<string, unknown> {
  return {
    operationId: entry.type,
    summary: entry.type,
    description: entry.description,
    tags: [catalog.groupTitles[entry.group]],
    parameters: deliveryHeaders(entry),
    requestBody: {
      required: true,
      description: 'The event envelope. Verify the signatures against these exact bytes before parsing.',
      content: {
        'application/json': {
          schema: envelopeSchema(entry),
          example: structuredClone(exampleEnvelope(catalog, entry.type)),
        },
      },
    },
    responses: {
      '2XX': { description: 'Acknowledged: any 2xx status counts as delivered; the response body is ignored.' },
      '410': { description: 'Gone: the delivery fails and the endpoint is suspended at once.' },
      default: {
        description:
          '5xx, 408, 429, timeouts (15 s by default) and network errors are retried with backoff for up to 24 hours, honouring Retry-After; any other status fails the delivery at once. Redirects are not followed.',
      },
    },
  };
}

/** A fresh object on every call, so callers may mutate it (e.g. when merging into a document). */
export function buildOpenApiWebhooks(catalog: EventCatalog): Record<string, unknown> {
  const webhooks: Record<string, unknown> = {};
  for (const entry of catalog.entries) webhooks[entry.type] = { post: operation(catalog, entry) };
  return webhooks;
}
