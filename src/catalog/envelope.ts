/**
 * The webhook body. Receivers verify the HMAC over the exact bytes, and redeliveries must be
 * byte-identical, so the envelope is built and serialised by pure functions with a fixed key
 * order: id, type, tenant_id, created_at, data (data keys in catalog schema order).
 */
import type { EventCatalog } from './event-catalog';

export interface EventEnvelope {
  id: string;
  type: string;
  tenant_id: string;
  created_at: string;
  data: Record<string, unknown>;
}

export interface EnvelopeSource {
  readonly id: string;
  readonly type: string;
  readonly data: Record<string, unknown>;
  readonly metadata: { readonly tenant_id: string | null; readonly created_at: string };
}

export function toEnvelope(catalog: EventCatalog, event: EnvelopeSource): EventEnvelope {
  const tenantId = event.metadata.tenant_id;
  // Every delivered event belongs to a tenant (its envelope's tenant_id, docs/events.md); a platform-level event reaching here is a bug.
  if (tenantId === null) throw new Error(`Event ${event.id} (${event.type}) has no tenant_id and cannot be delivered`);
  return {
    id: event.id,
    type: event.type,
    tenant_id: tenantId,
    created_at: event.metadata.created_at,
    data: catalog.orderPayloadKeys(event.type, event.data),
  };
}

/** Compact JSON. Re-orders keys itself, so a hand-built envelope serialises the same way. */
export function serializeEnvelope(catalog: EventCatalog, e: EventEnvelope): string {
  const ordered: EventEnvelope = {
    id: e.id,
    type: e.type,
    tenant_id: e.tenant_id,
    created_at: e.created_at,
    data: catalog.orderPayloadKeys(e.type, e.data),
  };
  return JSON.stringify(ordered);
}

/** The documented example delivery of a catalog type (docs/events.md and the OpenAPI document). */
export function exampleEnvelope(catalog: EventCatalog, type: string): EventEnvelope {
  const entry = catalog.entry(type);
  if (entry === undefined) throw new Error(`Unknown catalog type ${type}`);
  return toEnvelope(catalog, {
    id: '0195a1c4-7e2b-7c3d-9f10-4b6a8e2d5c71',
    type,
    data: { ...entry.example },
    metadata: { tenant_id: 'ten_01jf8v9k3m5n7b9v1c3x', created_at: '2026-03-02T17:05:12.503Z' },
  });
}

/**
 * The envelope of any catalog event, as the event feed and a session's events list it: `data`
 * follows the schema of the event's `type` (the OpenAPI document's `webhooks` section has each).
 */
export const ANY_ENVELOPE_SCHEMA = {
  title: 'EventEnvelope',
  type: 'object',
  properties: {
    id: {
      type: 'string',
      format: 'uuid',
      description: 'Unique event id (UUIDv7), the same as its webhook delivery’s.',
    },
    type: { type: 'string', description: 'The catalog type, e.g. `session.ended`.', examples: ['session.ended'] },
    tenant_id: { type: 'string' },
    created_at: { type: 'string', format: 'date-time' },
    data: { type: 'object', description: 'The payload of the event’s type, as in `webhooks`.' },
  },
  required: ['id', 'type', 'tenant_id', 'created_at', 'data'],
  additionalProperties: false,
} as const;
