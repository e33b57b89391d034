/**
 * The outbox fans events out to endpoints in SQL; the catalog's matchesEventFilter states the same
 * rule in TypeScript. Both must agree: one event of every catalog type goes through the real outbox
 * processor against endpoints with a spread of valid filters, and the delivery rows it writes are
 * exactly the (endpoint, type) pairs matchesEventFilter accepts.
 */
import { eventCatalog } from '../../../src/app.module';
import type { StoredEvent } from '../../../src/event-store/event-store.port';
import { newEventId } from '../../../src/kernel/ids';
import { webhookOutboxProcessor } from '../../../src/webhooks/projections/webhook-outbox.processor';
import { createTestDatabase, TestDatabase } from '../../support/database';

const TENANT = 'ten_filters';

const FILTERS: readonly (readonly string[])[] = [
  ['*'],
  ['session.*'],
  ['session.ended'],
  ['session.ended', 'session.*'],
  ['campaign.*', 'room.failed'],
  ['voice_clone.*', 'credits.low_balance'],
  ['number.*', 'function.timeout'],
  ['function.*'],
  ['webhook.*'],
  ['webhook.endpoint_disabled_notice'],
  ['room.created', 'room.joined', 'credits.*'],
  [],
];

let position = 0n;
function stored(type: string, data: Record<string, unknown>, streamId: string): StoredEvent {
  position += 1n;
  return {
    id: newEventId(),
    type,
    data,
    metadata: { tenant_id: TENANT, created_at: '2026-03-02T17:00:00.000Z' },
    streamId,
    streamPosition: 0,
    position: { commit: position, prepare: position },
  };
}

describe('event filters: matchesEventFilter and the outbox fan-out SQL', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase();
  });

  afterAll(async () => {
    await db.drop();
  });

  it('deliver every catalog type to exactly the endpoints whose filter matches it', async () => {
    for (const filter of FILTERS) expect(eventCatalog.parseEventFilter(filter)).toEqual({ ok: true });
    const endpoints = FILTERS.map((events, i) => {
      const endpointId = `we_filter_${i}`;
      return stored(
        'webhook_endpoint.created',
        {
          endpoint_id: endpointId,
          tenant_id: TENANT,
          url: `https://hooks.example.com/${i}`,
          events,
          description: null,
          secret_sealed: 'sealed',
        },
        `webhook_endpoint-${endpointId}`,
      );
    });
    // Examples name endpoints that do not exist here, so the disabled notice excludes none of these
    // and the test event (addressed to its endpoint only, whatever the filters) reaches none.
    const events = eventCatalog.entries.map((e) => stored(e.type, { ...e.example }, `filters-${e.type}`));

    const outbox = webhookOutboxProcessor(
      eventCatalog,
      { deliveries: () => undefined, mail: () => undefined },
      'http://127.0.0.1:3000',
    );
    const tx = await db.pool.connect();
    try {
      await tx.query('BEGIN');
      await outbox.handle(tx, [...endpoints, ...events]);
      await tx.query('COMMIT');
    } finally {
      tx.release();
    }

    const { rows } = await db.pool.query<{ endpoint_id: string; event_type: string }>(
      'SELECT endpoint_id, event_type FROM webhook_deliveries ORDER BY endpoint_id, event_type',
    );
    const delivered = rows.map((r) => `${r.endpoint_id} ${r.event_type}`);
    const expected = FILTERS.flatMap((filter, i) =>
      eventCatalog.types
        .filter((type) => type !== 'webhook.test' && eventCatalog.matchesEventFilter(filter, type))
        .map((type) => `we_filter_${i} ${type}`),
    );
    expect(delivered.sort()).toEqual(expected.sort());
    expect(delivered.length).toBeGreaterThan(eventCatalog.types.length);
  });
});
