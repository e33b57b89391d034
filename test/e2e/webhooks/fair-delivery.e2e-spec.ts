/**
 * Fair, isolated delivery (docs/webhooks.md "Fairness and leases"): one tenant's receiver takes 8 s
 * per answer and has 400 events queued; another tenant's endpoint keeps receiving events meanwhile.
 *
 * - The other tenant's deliveries leave at once: append-to-receipt latency stays under 1 s.
 * - The slow receiver never has more than WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT requests open.
 * - Nothing the slow receiver answered with 200 is sent to it again: a claim never lapses while its
 *   attempt waits in the worker or is on the wire (WEBHOOK_TIMEOUT_MS is 15 s, above the 8 s).
 *
 * The real application in-process (workers running), loopback receivers, events appended straight
 * into its event store as a producer would.
 */
import { eventCatalog } from '../../../src/app.module';
import { EVENT_STORE, EventStore } from '../../../src/event-store/event-store.port';
import { newEventId } from '../../../src/kernel/ids';
import { eventually } from '../../support/eventually';
import { startListeningApp, ListeningApp } from '../../support/webhooks-app';
import {
  closeAllReceivers,
  createEndpoint,
  createTenant,
  header,
  Receiver,
  sleep,
  startReceiver,
  verifiesX,
} from '../../support/webhooks-harness';

const { entries: EVENT_CATALOG } = eventCatalog;

jest.setTimeout(90_000);

const SLOW_ANSWER_MS = 8_000;
const TIMEOUT_MS = 15_000;
const PER_ENDPOINT = 8;
const BACKLOG = 400;
const FAST_EVENTS = 30;
const FAST_SPACING_MS = 330; // 30 events over about 10 s
/**
 * How long the slow receiver is watched: past the lease of the first claims (15 s + 30 s), after
 * which, before claims were bounded and renewed, answered deliveries started to arrive again.
 */
const OBSERVE_SLOW_MS = 55_000;

let app: ListeningApp;
let store: EventStore;

beforeAll(async () => {
  app = await startListeningApp({
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS),
    WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT: String(PER_ENDPOINT),
    LOG_LEVEL: 'warn',
  });
  store = app.t.app.get<EventStore>(EVENT_STORE);
});

afterAll(async () => {
  // Receivers first: the attempts still open at the slow one end at once instead of after 8 s.
  await closeAllReceivers();
  await app?.close();
});

/** Catalog events (webhook.test left out: it goes only to the endpoint it names). */
const ENTRIES = EVENT_CATALOG.filter((e) => e.type !== 'webhook.test');

async function append(tenantId: string, i: number): Promise<string> {
  const entry = ENTRIES[i % ENTRIES.length]!;
  const id = newEventId();
  await store.append(
    `fair_source-${id}`,
    [
      {
        id,
        type: entry.type,
        data: { ...entry.example },
        metadata: { tenant_id: tenantId, created_at: new Date().toISOString() },
      },
    ],
    'no_stream',
  );
  return id;
}

const percentile = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

/** The most requests the receiver held open at once, each held `holdMs` from its arrival. */
function maxOpen(receiver: Receiver, holdMs: number): number {
  const at = receiver.requests.map((r) => r.receivedAt).sort((a, b) => a - b);
  let max = 0;
  for (let i = 0, j = 0; i < at.length; i++) {
    // A slot freed by an answer is taken again just after it: 100 ms of slack for timer precision.
    while (at[i]! - at[j]! >= holdMs - 100) j++;
    max = Math.max(max, i - j + 1);
  }
  return max;
}

it(`a receiver taking 8 s with ${BACKLOG} events queued delays no other tenant, and is never sent an answered delivery twice`, async () => {
  const slowTenant = await createTenant(app.call, app.t.adminToken, 'Slow Receiver Co');
  const fastTenant = await createTenant(app.call, app.t.adminToken, 'Fast Receiver Co');
  const slow = await startReceiver(() => ({ status: 200, delayMs: SLOW_ANSWER_MS }));
  const fast = await startReceiver(() => ({ status: 200 }));
  const slowEp = await createEndpoint(app.call, slowTenant.api_key, { url: slow.url });
  const fastEp = await createEndpoint(app.call, fastTenant.api_key, { url: fast.url });

  // The backlog: 400 events for the slow tenant, appended 25 at a time.
  for (let i = 0; i < BACKLOG; i += 25) {
    await Promise.all(Array.from({ length: 25 }, (_, k) => append(slowTenant.tenant_id, i + k)));
  }
  await eventually(() => slow.requests.length > 0, 15_000, 10);
  const slowStarted = Date.now();

  // Meanwhile the other tenant's events, one every 330 ms: time from append to receipt.
  const sentAt = new Map<string, number>();
  for (let i = 0; i < FAST_EVENTS; i++) {
    const started = Date.now();
    const id = await append(fastTenant.tenant_id, i);
    sentAt.set(id, started);
    await sleep(Math.max(0, FAST_SPACING_MS - (Date.now() - started)));
  }
  await eventually(() => [...sentAt.keys()].every((id) => fast.byId(id).length > 0), 60_000, 20);
  const latencies = [...sentAt].map(([id, at]) => fast.byId(id)[0]!.receivedAt - at).sort((a, b) => a - b);

  // Watch the slow receiver long enough for a timed-out or lapsed claim to be sent again.
  await sleep(Math.max(0, OBSERVE_SLOW_MS - (Date.now() - slowStarted)));
  const perId = new Map<string, number>();
  for (const r of slow.requests) {
    const id = header(r.headers, 'x-webhook-id')!;
    perId.set(id, (perId.get(id) ?? 0) + 1);
  }
  const repeated = [...perId.values()].filter((n) => n > 1).length;
  const open = maxOpen(slow, SLOW_ANSWER_MS);
  console.log(
    `fair delivery: other tenant's latency over ${latencies.length} events: p50 ${percentile(latencies, 50)} ms, ` +
      `p99 ${percentile(latencies, 99)} ms, max ${latencies[latencies.length - 1]} ms; slow receiver in ` +
      `${Math.round((Date.now() - slowStarted) / 1000)} s: ${slow.requests.length} requests, ${perId.size} distinct, ` +
      `${repeated} ids received more than once, at most ${open} open at once`,
  );

  expect({ fastEvents: latencies.length, fastRequests: fast.requests.length }).toEqual({
    fastEvents: FAST_EVENTS,
    fastRequests: FAST_EVENTS,
  });
  expect(latencies[latencies.length - 1]).toBeLessThan(1_000);
  expect(repeated).toBe(0);
  expect(open).toBeLessThanOrEqual(PER_ENDPOINT);
  // The slow receiver was kept busy all along: about 8 answers every 8 s.
  expect(slow.requests.length).toBeGreaterThanOrEqual(PER_ENDPOINT * 3);
  // Signed as usual.
  for (const r of slow.requests.slice(0, 5)) expect(verifiesX(slowEp.secret, r)).toBe(true);
  for (const r of fast.requests.slice(0, 5)) expect(verifiesX(fastEp.secret, r)).toBe(true);
});
