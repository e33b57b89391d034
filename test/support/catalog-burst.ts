/**
 * A burst of catalog events appended straight into the event store, as another producer sharing the
 * database would: one event of each catalog type in turn, each on a stream of its own, 25 at a time.
 */
import { eventCatalog } from '../../src/app.module';
import type { EventStore } from '../../src/event-store/event-store.port';
import { newEventId } from '../../src/kernel/ids';

export interface CatalogBurst {
  /** The events' ids, in the order they are appended. */
  ids: string[];
  /** Settles once every event is appended. */
  done: Promise<void>;
}

/**
 * `count` events of the tenant, each the catalog example of its type (a `webhook.test` names
 * `endpointId`), appended on streams `<streamPrefix>-<event id>`.
 */
export function appendCatalogBurst(
  store: EventStore,
  opts: { count: number; tenantId: string; endpointId: string; streamPrefix: string },
): CatalogBurst {
  const catalog = eventCatalog.entries;
  const events = Array.from({ length: opts.count }, (_, i) => {
    const entry = catalog[i % catalog.length]!;
    const data: Record<string, unknown> = { ...entry.example };
    if (entry.type === 'webhook.test') data.endpoint_id = opts.endpointId;
    return { id: newEventId(), type: entry.type, data };
  });
  const done = (async () => {
    for (let i = 0; i < events.length; i += 25) {
      await Promise.all(
        events
          .slice(i, i + 25)
          .map((e) =>
            store.append(
              `${opts.streamPrefix}-${e.id}`,
              [{ ...e, metadata: { tenant_id: opts.tenantId, created_at: new Date().toISOString() } }],
              'no_stream',
            ),
          ),
      );
    }
  })();
  return { ids: events.map((e) => e.id), done };
}
