/**
 * The fair claim (src/webhooks/infra/delivery-claims.ts) on a real PostgreSQL: per-endpoint bound,
 * least-busy-first order across tenants and endpoints, leases, their renewal and takeover.
 */
import { loadAppConfig } from '../../../src/app.module';
import { ManualClock } from '../../../src/kernel/clock';
import { DeliveryClaims } from '../../../src/webhooks/infra/delivery-claims';
import { createTestDatabase, TestDatabase } from '../../support/database';

const T0 = new Date('2026-03-01T12:00:00.000Z');
const TIMEOUT_MS = 15_000;
const LEASE_MS = TIMEOUT_MS + 30_000;

describe('DeliveryClaims', () => {
  let db: TestDatabase;
  let clock: ManualClock;
  let claims: DeliveryClaims;
  let seq = 0;

  beforeAll(async () => {
    db = await createTestDatabase({ poolSize: 4 });
  });
  beforeEach(async () => {
    await db.pool.query('TRUNCATE webhook_deliveries, webhook_endpoints');
    clock = new ManualClock(T0);
    const config = loadAppConfig({ WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS), WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT: '8' });
    claims = new DeliveryClaims(db.pool, config, clock);
  });
  afterAll(async () => {
    await db?.drop();
  });

  async function endpoint(endpointId: string, tenantId: string, status = 'active'): Promise<void> {
    await db.pool.query(
      `INSERT INTO webhook_endpoints (endpoint_id, tenant_id, url, events, status, secret_sealed, created_at, updated_at)
       VALUES ($1, $2, 'http://127.0.0.1:9/hook', '{*}', $3, 'sealed', $4, $4)`,
      [endpointId, tenantId, status, T0],
    );
  }

  /** `n` pending deliveries to the endpoint, due `dueInMs` from T0 (oldest first, 1 ms apart). */
  async function deliveries(endpointId: string, tenantId: string, n: number, dueInMs = -60_000): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const id = `dlv_${String(++seq).padStart(6, '0')}`;
      ids.push(id);
      await db.pool.query(
        `INSERT INTO webhook_deliveries (delivery_id, event_id, endpoint_id, tenant_id, event_type, payload, status, next_attempt_at, created_at, updated_at)
         VALUES ($1, gen_random_uuid(), $2, $3, 'webhook.test', '{}', 'pending', $4, $4, $4)`,
        [id, endpointId, tenantId, new Date(T0.getTime() + dueInMs + i)],
      );
    }
    return ids;
  }

  const countBy = (rows: { endpoint_id: string }[]) =>
    rows.reduce<Record<string, number>>((acc, r) => ({ ...acc, [r.endpoint_id]: (acc[r.endpoint_id] ?? 0) + 1 }), {});

  it('takes at most the free slots of each endpoint, oldest due first, and leaves out an endpoint at its bound', async () => {
    await endpoint('we_slow', 'ten_a');
    await endpoint('we_fast', 'ten_b');
    const slow = await deliveries('we_slow', 'ten_a', 20);
    await deliveries('we_fast', 'ten_b', 3, -1_000);

    const first = await claims.claim(128, new Map());
    expect(countBy(first)).toEqual({ we_slow: 8, we_fast: 3 });
    expect(
      first
        .filter((d) => d.endpoint_id === 'we_slow')
        .map((d) => d.delivery_id)
        .sort(),
    ).toEqual(slow.slice(0, 8));
    for (const d of first) expect(d.locked_until.getTime()).toBe(T0.getTime() + LEASE_MS);

    // we_slow at its bound: nothing of it is claimable, whatever room there is.
    expect(await claims.claim(128, new Map([['we_slow', 8]]))).toEqual([]);
    // Five of its attempts ended: five more, the next oldest.
    const next = await claims.claim(128, new Map([['we_slow', 3]]));
    expect(next.map((d) => d.delivery_id).sort()).toEqual(slow.slice(8, 13));
  });

  it('gives free slots to the least busy tenant, then endpoint, before the oldest backlog', async () => {
    // ten_a has two endpoints with an old backlog; ten_b one endpoint with newer deliveries.
    await endpoint('we_a1', 'ten_a');
    await endpoint('we_a2', 'ten_a');
    await endpoint('we_b', 'ten_b');
    await deliveries('we_a1', 'ten_a', 10, -120_000);
    await deliveries('we_a2', 'ten_a', 10, -110_000);
    await deliveries('we_b', 'ten_b', 10, -1_000);

    // Six slots: three per tenant, ten_a's spread over both of its endpoints.
    const six = await claims.claim(6, new Map());
    expect(countBy(six)).toEqual({ we_a1: 2, we_a2: 1, we_b: 3 });

    // ten_b already has 6 in flight, ten_a none: the next 4 slots go to ten_a, though ten_b has room.
    await db.pool.query('UPDATE webhook_deliveries SET locked_until = NULL');
    const four = await claims.claim(4, new Map([['we_b', 6]]));
    expect(countBy(four)).toEqual({ we_a1: 2, we_a2: 2 });
  });

  it('a suspended endpoint is never claimed', async () => {
    await endpoint('we_off', 'ten_a', 'suspended');
    await deliveries('we_off', 'ten_a', 3);
    expect(await claims.claim(128, new Map())).toEqual([]);
  });

  it('a claim is not taken again while its lease runs; renewal keeps it; a lapsed one is taken over', async () => {
    await endpoint('we_1', 'ten_a');
    const [id] = await deliveries('we_1', 'ten_a', 1);
    const [claimed] = await claims.claim(128, new Map());
    expect(claimed!.delivery_id).toBe(id);

    clock.advance(LEASE_MS - 10_000);
    expect(await claims.claim(128, new Map())).toEqual([]);
    // The holder renews its lease: a full lease from now.
    const renewed = await claims.renew([{ deliveryId: id!, lockedUntil: claimed!.locked_until }]);
    expect(renewed.get(id!)?.getTime()).toBe(clock.now().getTime() + LEASE_MS);
    clock.advance(20_000); // past the first lease, within the renewed one
    expect(await claims.claim(128, new Map())).toEqual([]);

    // A stale token (not the lease as it stands) renews nothing.
    expect((await claims.renew([{ deliveryId: id!, lockedUntil: claimed!.locked_until }])).size).toBe(0);

    // Not renewed any more (the holder died): taken over once it lapses.
    clock.advance(LEASE_MS);
    const [takenOver] = await claims.claim(128, new Map());
    expect(takenOver!.delivery_id).toBe(id);
    // The old holder can no longer renew it.
    expect((await claims.renew([{ deliveryId: id!, lockedUntil: renewed.get(id!)! }])).size).toBe(0);
  });

  it('a recorded delivery (claim released) is not renewed', async () => {
    await endpoint('we_1', 'ten_a');
    await deliveries('we_1', 'ten_a', 1);
    const [claimed] = await claims.claim(128, new Map());
    await db.pool.query(`UPDATE webhook_deliveries SET status = 'succeeded', locked_until = NULL`);
    expect((await claims.renew([{ deliveryId: claimed!.delivery_id, lockedUntil: claimed!.locked_until }])).size).toBe(
      0,
    );
  });

  it('msUntilNextDue leaves out endpoints at their bound and claimed rows', async () => {
    await endpoint('we_full', 'ten_a');
    await endpoint('we_other', 'ten_b');
    expect(await claims.msUntilNextDue([])).toBe(5000);
    await deliveries('we_full', 'ten_a', 5);
    expect(await claims.msUntilNextDue([])).toBe(1);
    expect(await claims.msUntilNextDue(['we_full'])).toBe(5000);
    await deliveries('we_other', 'ten_b', 1, 300);
    expect(await claims.msUntilNextDue(['we_full'])).toBe(300);
    clock.advance(300);
    await claims.claim(128, new Map([['we_full', 8]]));
    expect(await claims.msUntilNextDue(['we_full'])).toBe(5000);
  });
});
