import type { EventCatalog } from '../../catalog/event-catalog';
import { serializeEnvelope, toEnvelope } from '../../catalog/envelope';
import { defineProjection, everyEvent, type Projection } from '../../runtime/processing/processor';

/**
 * The tenant's catalog events as envelopes, in commit order (seq follows the processing order, which
 * is the store's commit order). Works the same whichever event store adapter is configured.
 * `onCommitted` gets the tenants whose rows a batch wrote, after its commit (the feed's long polls
 * wake on it); a batch rolled back and applied again may name a tenant twice, which only wakes it twice.
 */
export const auditEventsProjection = (
  catalog: EventCatalog,
  onCommitted: (tenantIds: ReadonlySet<string>) => void = () => undefined,
): Projection => {
  let written = new Set<string>();
  return defineProjection({
    name: 'audit_events',
    edge: everyEvent,
    tables: ['audit_events'],
    afterCommit() {
      const tenants = written;
      written = new Set();
      if (tenants.size > 0) onCommitted(tenants);
    },
    async applyBatch(tx, events) {
      const rows = events.filter((e) => catalog.isCatalogType(e.type) && e.metadata.tenant_id);
      if (rows.length === 0) return;
      for (const e of rows) if (e.metadata.tenant_id) written.add(e.metadata.tenant_id);
      await tx.query({
        name: 'audit_events_insert',
        text: `INSERT INTO audit_events (event_id, tenant_id, type, session_id, envelope)
       SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::json[])
       ON CONFLICT (event_id) DO NOTHING`,
        values: [
          rows.map((e) => e.id),
          rows.map((e) => e.metadata.tenant_id),
          rows.map((e) => e.type),
          rows.map((e) => (typeof e.data.session_id === 'string' ? e.data.session_id : null)),
          rows.map((e) => serializeEnvelope(catalog, toEnvelope(catalog, e))),
        ],
      });
    },
  });
};
