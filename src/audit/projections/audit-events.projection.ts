import type { EventCatalog } from '../../catalog/event-catalog';
import { serializeEnvelope, toEnvelope } from '../../catalog/envelope';
import { defineProjection, type Projection } from '../../runtime/processor';

/**
 * The tenant's catalog events as envelopes, in commit order (seq follows the processing order, which
 * is the store's commit order). Works the same whichever event store adapter is configured.
 */
export const auditEventsProjection = (catalog: EventCatalog): Projection =>
  defineProjection({
    name: 'audit_events',
    handles: '*',
    tables: ['audit_events'],
    async applyBatch(tx, events) {
      const rows = events.filter((e) => catalog.isCatalogType(e.type) && e.metadata.tenant_id);
      if (rows.length === 0) return;
      await tx.query(
        `INSERT INTO audit_events (event_id, tenant_id, type, session_id, envelope)
       SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::json[])
       ON CONFLICT (event_id) DO NOTHING`,
        [
          rows.map((e) => e.id),
          rows.map((e) => e.metadata.tenant_id),
          rows.map((e) => e.type),
          rows.map((e) => (typeof e.data.session_id === 'string' ? e.data.session_id : null)),
          rows.map((e) => serializeEnvelope(catalog, toEnvelope(catalog, e))),
        ],
      );
    },
  });
