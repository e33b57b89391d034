/**
 * Held production work waits on the credits' release, not on a poll (the real service, node
 * dist/main.js, SIM_TIME_SCALE=0.01, the built-in test payment processor settling after 300 ms; no
 * MEDIA_GATEWAY_URL, so production calls play on the simulator and are billed):
 *
 * - 200 production calls of a depleted tenant wait with their timers untouched (no row of theirs is
 *   written while they wait: before, each was claimed, read the balance and was rescheduled every
 *   second), and a top-up releases them all; with MAX_QUEUED_CALLS_PER_TENANT=200, the 201st is
 *   refused (429, the cap in its message).
 * - A production campaign of a depleted tenant waits the same way (its pacer's row untouched) and
 *   calls its contacts once a top-up settles.
 */
import {
  CallsService,
  depletedTenant as depletedTenantOf,
  placeCall,
  productionTenant,
  startCallsService,
} from '../../support/calls-harness';
import { eventually } from '../../support/eventually';
import { killAllServices } from '../../support/process';
import { TenantInfo } from '../../support/webhooks-harness';

jest.setTimeout(240_000);

const ANSWERED = '+14155550100'; // 45 s: one started minute, 10 cents
const CAP = 200;

let h: CallsService;

beforeAll(async () => {
  h = await startCallsService({
    SIM_TIME_SCALE: '0.01',
    TOPUP_SETTLE_DELAY: '300ms',
    MAX_QUEUED_CALLS_PER_TENANT: String(CAP),
  });
});

afterAll(async () => {
  await h?.destroy();
  await killAllServices();
});

const api = <T = any>(tenant: TenantInfo, method: string, path: string, body?: unknown) =>
  h.call<T>(method, path, { token: tenant.api_key, ...(body === undefined ? {} : { body }) });

const depletedTenant = (label: string) => depletedTenantOf(h, label);

/** Every version of the tenant's timers of `kind` (a row written gets a new xmin). */
async function versions(tenantId: string, kind: string): Promise<Map<string, string>> {
  const { rows } = await h.db.pool.query<{ timer_id: string; v: string }>(
    `SELECT timer_id, xmin::text AS v FROM timers WHERE kind = $1 AND payload->>'tenant_id' = $2`,
    [kind, tenantId],
  );
  return new Map(rows.map((r) => [r.timer_id, r.v]));
}

const written = (before: Map<string, string>, after: Map<string, string>): number =>
  [...before].filter(([id, v]) => after.get(id) !== v).length;

/** Places `CAP` production calls for the tenant and waits until the read model has them all queued. */
async function placeHeldCalls(tenant: TenantInfo): Promise<string[]> {
  const sessions: string[] = [];
  for (let i = 0; i < CAP; i += 20) {
    const batch = await Promise.all(
      Array.from({ length: 20 }, () => placeCall(h.call, tenant.api_key, ANSWERED, { testMode: false })),
    );
    sessions.push(...batch.map((s) => s.session_id));
  }
  await eventually(async () => {
    const { rows } = await h.db.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM sessions WHERE tenant_id = $1 AND status = 'queued'`,
      [tenant.tenant_id],
    );
    return rows[0]!.n === CAP;
  }, 30_000);
  return sessions;
}

describe('held production calls', () => {
  it('wait without polling, and all go out once a top-up settles', async () => {
    const tenant = await depletedTenant('Held Calls Co');
    const sessions = await placeHeldCalls(tenant);
    // Every held call's timer has run once and waits: over 3 s, none of their rows is written.
    await new Promise((r) => setTimeout(r, 1500));
    const before = await versions(tenant.tenant_id, 'sim.step');
    expect(before.size).toBe(CAP);
    await new Promise((r) => setTimeout(r, 3000));
    const after = await versions(tenant.tenant_id, 'sim.step');
    expect(written(before, after)).toBe(0);
    expect(after.size).toBe(CAP);

    const topup = await api(tenant, 'POST', '/v1/credits/topups', { amount_cents: 3000 });
    expect(topup.status).toBe(201);
    await eventually(
      async () => {
        const { rows } = await h.db.pool.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM sessions WHERE session_id = ANY($1) AND status = 'completed'`,
          [sessions],
        );
        return rows[0]!.n === CAP;
      },
      60_000,
      200,
    );
    // Each billed once: -1 + 3000 - 200 × 10 (the debits of one tenant take turns on its ledger stream).
    await eventually(async () => (await api(tenant, 'GET', '/v1/credits')).body.balance_cents === 999, 90_000, 200);
    expect(await versions(tenant.tenant_id, 'sim.step')).toEqual(new Map());
  });

  it('are capped per tenant: one more than MAX_QUEUED_CALLS_PER_TENANT is a 429 that names the cap', async () => {
    const tenant = await depletedTenant('Capped Calls Co');
    await placeHeldCalls(tenant);
    const refused = await api(tenant, 'POST', '/v1/calls', {
      to: ANSWERED,
      from: '+14155550000',
      test_mode: false,
      agent_config: { prompt: 'Hi' },
    });
    expect(refused.status).toBe(429);
    expect(refused.body.error.type).toBe('rate_limited');
    expect(refused.body.error.message).toContain(`At most ${CAP} production calls`);
    expect(refused.body.error.request_id).toEqual(expect.any(String));
    // Under an Idempotency-Key the 429 is not kept: a retry with the same key, once a line is free, can succeed.
    const keyed = await h.call('POST', '/v1/calls', {
      token: tenant.api_key,
      headers: { 'idempotency-key': 'capped-retry' },
      body: { to: ANSWERED, from: '+14155550000', test_mode: false, agent_config: { prompt: 'Hi' } },
    });
    expect(keyed.status).toBe(429);
    const kept = await h.db.pool.query(`SELECT 1 FROM idempotency_keys WHERE key = 'capped-retry'`);
    expect(kept.rowCount).toBe(0);
    // Test calls are not counted, nor held.
    const free = await placeCall(h.call, tenant.api_key, ANSWERED, { testMode: true });
    expect(free.status).toBe('queued');
    // Another tenant is not affected.
    const other = await productionTenant(h, 'Uncapped Co');
    const call = await placeCall(h.call, other.api_key, ANSWERED, { testMode: false });
    expect(call.status).toBe('queued');
  });
});

describe('the queue cap under a burst', () => {
  it('admits exactly the cap when many production calls arrive at once, the read model not caught up yet', async () => {
    const tenant = await depletedTenant('Burst Co');
    // All at once: before, each request counted the read model, which had not applied the others yet.
    const answers = await Promise.all(
      Array.from({ length: CAP + 100 }, () =>
        api(tenant, 'POST', '/v1/calls', {
          to: ANSWERED,
          from: '+14155550000',
          test_mode: false,
          agent_config: { prompt: 'Hi' },
        }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(CAP);
    expect(statuses.filter((s) => s === 429)).toHaveLength(100);
  });
});

describe('a held production campaign', () => {
  it('waits without polling, then calls its contacts once a top-up settles', async () => {
    const tenant = await depletedTenant('Held Campaign Co');
    const created = await api(tenant, 'POST', '/v1/campaigns/run', {
      name: 'Held',
      from_number: '+14155550000',
      test_mode: false,
      agent_config: { prompt: 'Hi' },
      settings: { max_concurrency: 2, quiet_hours: { start: '00:00', end: '00:00' } },
      contacts: [{ phone_number: ANSWERED }, { phone_number: '+14155550101' }],
    });
    expect(created.status).toBe(201);
    const id = created.body.campaign_id as string;
    await eventually(async () => (await versions(tenant.tenant_id, 'campaign.pace')).size === 1, 10_000);
    await new Promise((r) => setTimeout(r, 1500));
    const before = await versions(tenant.tenant_id, 'campaign.pace');
    await new Promise((r) => setTimeout(r, 3000));
    expect(written(before, await versions(tenant.tenant_id, 'campaign.pace'))).toBe(0);
    expect((await api(tenant, 'GET', `/v1/campaigns/${id}`)).body).toMatchObject({
      status: 'running',
      contacts: { pending: 2, dispatched: 0 },
    });

    expect((await api(tenant, 'POST', '/v1/credits/topups', { amount_cents: 1000 })).status).toBe(201);
    await eventually(async () => (await api(tenant, 'GET', `/v1/campaigns/${id}`)).body.status === 'completed', 30_000);
    expect((await api(tenant, 'GET', `/v1/campaigns/${id}`)).body).toMatchObject({
      completed_sessions: 1,
      failed_sessions: 1,
    });
  });
});
