/**
 * At-least-once delivery across a crash: the real service process (`node dist/main.js`) is
 * SIGKILLed while a burst of deliveries is in flight and restarted on the same database with the
 * same WEBHOOK_SECRET_KEY; every stored catalog event must eventually reach the receiver, signed.
 */
import { eventCatalog } from '../../../src/app.module';
import { PostgresEventStore } from '../../../src/event-store/postgres/postgres-event-store';
import { appendCatalogBurst } from '../../support/catalog-burst';
import { createTestDatabase, TestDatabase } from '../../support/database';
import { eventually } from '../../support/eventually';
import { killAllServices, makeDataDir, removeDataDir, ServiceProcess, startService } from '../../support/process';
import {
  apiClient,
  closeAllReceivers,
  createEndpoint,
  createTenant,
  CreatedEndpoint,
  envelopeOf,
  header,
  newSecretKey,
  Receiver,
  sendTest,
  startReceiver,
  TenantInfo,
  verifiesStandard,
  verifiesX,
} from '../../support/webhooks-harness';

const { isCatalogType } = eventCatalog;

jest.setTimeout(150_000);

const TIMEOUT_MS = 2_000; // the lease of a claimed delivery is WEBHOOK_TIMEOUT_MS + 30 s
// The dead process sent everything it had claimed at once (nothing waits in an instance), so all of
// it may have reached the receiver before the kill; it stays leased until the lease lapses, then is
// sent again and recorded. The log settles within a lease and some.
const SETTLE_MS = TIMEOUT_MS + 30_000 + 20_000;
const DIRECT_EVENTS = 300;
const API_EVENTS = 30;

describe('webhook delivery survives kill -9 of the service', () => {
  let db: TestDatabase;
  let dataDir: string;
  let receiver: Receiver;
  let store: PostgresEventStore;
  let env: Record<string, string>;

  beforeAll(async () => {
    db = await createTestDatabase({ poolSize: 5 });
    store = new PostgresEventStore(db.pool);
    dataDir = makeDataDir();
    // Slow enough that many deliveries are in flight when the process dies.
    receiver = await startReceiver(() => ({ status: 200, delayMs: 100 }));
    env = {
      DATABASE_URL: db.url,
      DATA_DIR: dataDir,
      WEBHOOK_SECRET_KEY: newSecretKey(),
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS),
      WEBHOOK_RETRY_SCHEDULE: '200ms,400ms,800ms,1s,2s',
      LOG_LEVEL: 'warn',
    };
  });

  afterAll(async () => {
    await killAllServices();
    await closeAllReceivers();
    await store?.close();
    await db?.drop();
    if (dataDir) removeDataDir(dataDir);
  });

  it('every stored catalog event is received at least once, correctly signed', async () => {
    const first: ServiceProcess = await startService({ env });
    const adminToken = first.adminToken;
    let base = first.baseUrl;
    const call = apiClient(() => base).call;
    const tenant: TenantInfo = await createTenant(call, adminToken, 'Crash Co');
    const ep: CreatedEndpoint = await createEndpoint(call, tenant.api_key, { url: receiver.url });

    // The burst: catalog events appended straight into the same database by a separate store
    // (as another producer would), plus webhook.test events through the API, all concurrently.
    const direct = appendCatalogBurst(store, {
      count: DIRECT_EVENTS,
      tenantId: tenant.tenant_id,
      endpointId: ep.id,
      streamPrefix: 'crash_source',
    });
    const viaApi = Promise.allSettled(Array.from({ length: API_EVENTS }, () => sendTest(call, tenant.api_key, ep.id)));

    // Kill -9 while deliveries are in flight.
    await eventually(() => receiver.requests.length >= 40, 30_000, 5);
    first.kill('SIGKILL');
    const exit = await first.waitForExit(10_000);
    expect(exit.signal).toBe('SIGKILL');
    await direct.done;
    const apiResults = await viaApi;
    const receivedAtKill = receiver.requests.length;

    const { rows: leased } = await db.pool.query<{ n: string }>(
      `SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'pending' AND locked_until > now()`,
    );
    const { rows: undelivered } = await db.pool.query<{ n: string }>(
      `SELECT count(*) AS n FROM webhook_deliveries WHERE status <> 'succeeded'`,
    );

    // Restart on the same database and key (a new port).
    const second = await startService({ env, adminToken });
    base = second.baseUrl;

    const { rows: storedRows } = await db.pool.query<{ event_id: string; type: string }>(
      `SELECT event_id, type FROM events WHERE metadata->>'tenant_id' = $1`,
      [tenant.tenant_id],
    );
    const stored = new Set(storedRows.filter((r) => isCatalogType(r.type)).map((r) => r.event_id));
    // Every direct event, and every webhook.test whose API call got its 202 before the kill.
    for (const id of direct.ids) expect(stored.has(id)).toBe(true);
    for (const r of apiResults) if (r.status === 'fulfilled') expect(stored.has(r.value)).toBe(true);

    const receivedIds = () => new Set(receiver.requests.map((r) => header(r.headers, 'x-webhook-id')!));
    await eventually(
      () => {
        const got = receivedIds();
        const missing = [...stored].filter((id) => !got.has(id));
        if (missing.length > 0) throw new Error(`${missing.length} of ${stored.size} stored events not received yet`);
        return true;
      },
      TIMEOUT_MS + 30_000 + 40_000,
      200,
    );

    // Nothing but stored events arrived, every one verifies, and the log settles to succeeded.
    const got = receivedIds();
    expect([...got].filter((id) => !stored.has(id))).toEqual([]);
    for (const req of receiver.requests) {
      const env = envelopeOf(req);
      expect(env.tenant_id).toBe(tenant.tenant_id);
      expect(header(req.headers, 'x-webhook-id')).toBe(env.id);
      expect({ id: env.id, x: verifiesX(ep.secret, req), std: verifiesStandard(ep.secret, req) }).toEqual({
        id: env.id,
        x: true,
        std: true,
      });
    }
    // Redeliveries carry the same body, byte for byte.
    const firstBody = new Map<string, Buffer>();
    for (const req of receiver.requests) {
      const id = header(req.headers, 'x-webhook-id')!;
      const seen = firstBody.get(id);
      if (seen) expect(req.rawBody.equals(seen)).toBe(true);
      else firstBody.set(id, req.rawBody);
    }
    await eventually(async () => {
      const { rows } = await db.pool.query<{ status: string; n: string }>(
        `SELECT status, count(*) AS n FROM webhook_deliveries WHERE endpoint_id = $1 GROUP BY status`,
        [ep.id],
      );
      expect(rows).toEqual([{ status: 'succeeded', n: String(stored.size) }]);
      return true;
    }, SETTLE_MS);

    const duplicates = receiver.requests.length - got.size;
    console.log(
      `crash test: ${stored.size} stored catalog events; ${receivedAtKill} requests before kill -9; ` +
        `${leased[0]!.n} deliveries leased by the dead process, ${undelivered[0]!.n} not yet succeeded at the kill; ` +
        `${receiver.requests.length} requests in all, ${duplicates} duplicate(s) (at-least-once redeliveries)`,
    );
    expect(second.hasExited()).toBe(false);
  });
});
