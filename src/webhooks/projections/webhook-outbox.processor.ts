import type { PoolClient } from 'pg';
import { defineProjection, everyEvent, type Projection } from '../../runtime/processing/processor';
import type { EventCatalog } from '../../catalog/event-catalog';
import { serializeEnvelope, toEnvelope } from '../../catalog/envelope';
import type { StoredEvent } from '../../event-store/event-store.port';
import { endpointEdge, endpointStream } from '../domain/endpoint.decider';

const noticeEdge = endpointEdge.only('webhook.endpoint_disabled_notice');

/**
 * The outbox: one checkpointed pass over the store that keeps `webhook_endpoints` current and turns
 * every catalog event into one delivery row per matching endpoint of its tenant, in the same
 * transaction as the checkpoint. Because endpoints and events come through the same ordered pass,
 * an event is matched against the endpoints that existed when it was committed, never a stale view.
 * Not rebuildable: replaying it would address old events to endpoints created later.
 */
export function webhookOutboxProcessor(
  catalog: EventCatalog,
  wake: { deliveries: () => void; mail: () => void },
  /** BASE_URL: the notice links to the endpoint's dashboard page. */
  baseUrl: string,
): Projection {
  // Whether a batch since the last commit queued a notice: only then is the mail worker woken.
  let mailQueued = false;
  return defineProjection({
    name: 'webhook_outbox',
    edge: everyEvent,
    tables: [],
    rebuildable: false,
    afterCommit: () => {
      wake.deliveries();
      if (mailQueued) wake.mail();
      mailQueued = false;
    },
    async applyBatch(tx, events) {
      const deliveries: StoredEvent[] = [];
      for (const event of events) {
        if (event.type.startsWith('webhook_endpoint.') && endpointStream.owns(event.streamId))
          await applyEndpointEvent(tx, event);
        if (catalog.isCatalogType(event.type) && event.metadata.tenant_id) deliveries.push(event);
        if (event.type === 'webhook.endpoint_disabled_notice') {
          await queueNoticeMail(tx, event, baseUrl);
          mailQueued = true;
        }
      }
      if (deliveries.length > 0) await fanOut(tx, catalog, deliveries);
    },
  });
}

async function applyEndpointEvent(tx: PoolClient, stored: StoredEvent): Promise<void> {
  const event = endpointEdge.decode(stored);
  const id = endpointStream.idOf(stored.streamId);
  const at = stored.metadata.created_at;
  switch (event.type) {
    case 'webhook_endpoint.created':
      await tx.query(
        `INSERT INTO webhook_endpoints (endpoint_id, tenant_id, url, events, description, status, secret_sealed, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, 'active', $6, $7, $7) ON CONFLICT (endpoint_id) DO NOTHING`,
        [
          id,
          event.data.tenant_id,
          event.data.url,
          event.data.events,
          event.data.description,
          event.data.secret_sealed,
          at,
        ],
      );
      return;
    case 'webhook_endpoint.updated':
      await tx.query(
        'UPDATE webhook_endpoints SET url = $2, events = $3, description = $4, updated_at = $5 WHERE endpoint_id = $1',
        [id, event.data.url, event.data.events, event.data.description, at],
      );
      return;
    case 'webhook_endpoint.secret_rotated':
      await tx.query('UPDATE webhook_endpoints SET secret_sealed = $2, updated_at = $3 WHERE endpoint_id = $1', [
        id,
        event.data.secret_sealed,
        at,
      ]);
      return;
    case 'webhook_endpoint.deleted':
      await tx.query(`UPDATE webhook_endpoints SET status = 'deleted', updated_at = $2 WHERE endpoint_id = $1`, [
        id,
        at,
      ]);
      return;
    case 'webhook_endpoint.suspended':
      await tx.query(`UPDATE webhook_endpoints SET status = 'suspended', updated_at = $2 WHERE endpoint_id = $1`, [
        id,
        at,
      ]);
      return;
    case 'webhook_endpoint.enabled':
      await tx.query(`UPDATE webhook_endpoints SET status = 'active', updated_at = $2 WHERE endpoint_id = $1`, [
        id,
        at,
      ]);
      await tx.query('UPDATE webhook_endpoint_health SET failure_streak = 0 WHERE endpoint_id = $1', [id]);
      return;
    default:
      return;
  }
}

/** One statement for the whole batch: events × the tenant's live endpoints whose filter matches. */
async function fanOut(tx: PoolClient, catalog: EventCatalog, events: readonly StoredEvent[]): Promise<void> {
  await tx.query({
    name: 'webhook_deliveries_fan_out',
    text: `INSERT INTO webhook_deliveries
       (delivery_id, event_id, endpoint_id, tenant_id, event_type, payload, status, next_attempt_at, created_at, updated_at)
     SELECT 'dlv_' || replace(gen_random_uuid()::text, '-', ''), ev.event_id, e.endpoint_id, ev.tenant_id, ev.type,
            ev.payload, 'pending', now(), now(), now()
     FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[])
          AS ev(event_id, tenant_id, type, payload, target)
     JOIN webhook_endpoints e ON e.tenant_id = ev.tenant_id AND e.status IN ('active', 'suspended')
     WHERE CASE ev.type
             -- a test event goes to its endpoint only; a disabled notice to every other endpoint
             WHEN 'webhook.test' THEN e.endpoint_id = ev.target
             ELSE (ev.type <> 'webhook.endpoint_disabled_notice' OR e.endpoint_id <> ev.target)
                  AND ('*' = ANY (e.events) OR ev.type = ANY (e.events)
                       OR split_part(ev.type, '.', 1) || '.*' = ANY (e.events))
           END
     ON CONFLICT (event_id, endpoint_id) DO NOTHING`,
    values: [
      events.map((e) => e.id),
      events.map((e) => e.metadata.tenant_id),
      events.map((e) => e.type),
      events.map((e) => serializeEnvelope(catalog, toEnvelope(catalog, e))),
      events.map((e) => (typeof e.data.endpoint_id === 'string' ? e.data.endpoint_id : null)),
    ],
  });
}

async function queueNoticeMail(tx: PoolClient, event: StoredEvent, baseUrl: string): Promise<void> {
  const { data } = noticeEdge.decode(event);
  const subject = `Webhook endpoint ${data.endpoint_id} was suspended`;
  const body = [
    `Your webhook endpoint ${data.url} (${data.endpoint_id}) was suspended at ${data.disabled_at}`,
    `after ${data.failure_streak} consecutive failed deliveries (last HTTP status: ${data.last_status ?? 'no response'}).`,
    '',
    'Deliveries for it are kept and will be sent once you re-enable it, from the dashboard:',
    `${baseUrl.replace(/\/$/, '')}/dashboard/webhook_endpoints/${data.endpoint_id}`,
    `or with the API: POST /v1/webhook_endpoints/${data.endpoint_id}/enable`,
  ].join('\n');
  await tx.query(
    // to_address stays empty: the mail worker asks the tenants context for the address when it sends.
    `INSERT INTO mail_outbox (mail_id, tenant_id, subject, body) VALUES ($1, $2, $3, $4)
     ON CONFLICT (mail_id) DO NOTHING`,
    [`mail_${event.id}`, event.metadata.tenant_id, subject, body],
  );
}
