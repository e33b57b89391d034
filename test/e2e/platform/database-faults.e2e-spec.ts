/**
 * The database drops every connection of the running service 40 times in a row while calls are
 * placed: the service stays up, no request gets a 500 (only successes, or a 503 with Retry-After
 * and the error body of docs/api.md), and every accepted call reaches its terminal event, exactly once, with
 * its webhooks delivered afterwards.
 */
import { CallsService, placeCallsUntilStopped, startCallsService, stopCallsSuite } from '../../support/calls-harness';
import { eventually } from '../../support/eventually';
import {
  createEndpoint,
  createTenant,
  envelopeOf,
  Receiver,
  sleep,
  startReceiver,
  TenantInfo,
} from '../../support/webhooks-harness';

jest.setTimeout(180_000);

let h: CallsService;
let receiver: Receiver;
let tenant: TenantInfo;

beforeAll(async () => {
  receiver = await startReceiver();
  h = await startCallsService({
    SIM_TIME_SCALE: '0.01',
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    WEBHOOK_TIMEOUT_MS: '2000',
    WEBHOOK_RETRY_SCHEDULE: '200ms,500ms,1s,2s,5s',
  });
  tenant = await createTenant(h.call, h.svc.adminToken, 'Database Faults Co');
  await createEndpoint(h.call, tenant.api_key, { url: receiver.url, events: ['session.*'] });
});

afterAll(() => stopCallsSuite(h));

it('survives 40 rounds of every database connection killed while calls arrive: no 500, nothing lost', async () => {
  const placing = placeCallsUntilStopped(h.call, tenant.api_key, 4);
  const { outcomes } = placing;

  for (let round = 0; round < 40; round++) {
    await h.db.pool
      .query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
         WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'`,
      )
      .catch(() => undefined);
    await sleep(100);
  }
  await sleep(500);
  await placing.stop();

  expect(h.svc.hasExited()).toBe(false);
  const byStatus = new Map<number, number>();
  for (const o of outcomes) byStatus.set(o.status, (byStatus.get(o.status) ?? 0) + 1);
  // Only successes and 503s with Retry-After, never a 500.
  const unexpected = outcomes.filter((o) => o.status !== 201 && !(o.status === 503 && o.retryAfter !== null));
  expect({ unexpected, byStatus: Object.fromEntries(byStatus) }).toEqual({
    unexpected: [],
    byStatus: expect.any(Object),
  });
  expect(outcomes.filter((o) => o.status === 503).every((o) => o.type === 'service_unavailable')).toBe(true);
  const accepted = outcomes.filter((o) => o.status === 201).map((o) => o.sessionId!);
  expect(accepted.length).toBeGreaterThan(10);
  console.log(
    `database faults: ${outcomes.length} requests, by status ${JSON.stringify(Object.fromEntries(byStatus))}`,
  );

  // Every accepted call plays to its end, once, and its webhooks arrive.
  await eventually(
    async () => {
      const { rows } = await h.db.pool.query<{ sid: string; created: number; terminal: number }>(
        `SELECT data->>'session_id' AS sid,
                count(*) FILTER (WHERE type = 'session.created')::int AS created,
                count(*) FILTER (WHERE type IN ('session.ended', 'session.failed'))::int AS terminal
         FROM events WHERE type IN ('session.created', 'session.ended', 'session.failed') GROUP BY 1`,
      );
      const counts = new Map(rows.map((r) => [r.sid, r]));
      return accepted.every((sid) => counts.get(sid)?.created === 1 && counts.get(sid)?.terminal === 1);
    },
    90_000,
    200,
  );
  await eventually(
    () => {
      const terminal = new Set(
        receiver.requests
          .map((r) => envelopeOf(r))
          .filter((e) => e.type === 'session.ended' || e.type === 'session.failed')
          .map((e) => (e.data as { session_id: string }).session_id),
      );
      return accepted.every((sid) => terminal.has(sid));
    },
    90_000,
    200,
  );
  expect(h.svc.hasExited()).toBe(false);
});
