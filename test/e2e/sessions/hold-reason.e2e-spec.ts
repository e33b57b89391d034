/**
 * A held call says why it waits (the real service, node dist/main.js, SIM_TIME_SCALE=0.001, the
 * built-in test payment processor settling after 300 ms; no MEDIA_GATEWAY_URL, so production calls
 * play on the simulator and are billed):
 *
 * - a call placed without `test_mode` is a production call: the 201 says `test_mode: false`, and on
 *   a depleted tenant `hold_reason: "insufficient_credits"` at once (before, nothing said why it
 *   sat queued); GET and the list say the same; once a top-up settles it goes out and the reason
 *   clears;
 * - a call still held when its watchdog fires (an hour of simulated call time plus 30 s: about 34 s
 *   here) ends `failed` with `end_reason: "insufficient_credits"` (before: `watchdog_timeout`);
 * - test calls and calls of a tenant with credit are never held.
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

jest.setTimeout(180_000);

const ANSWERED = '+14155550100';
const HELD = 'insufficient_credits';

let h: CallsService;

beforeAll(async () => {
  h = await startCallsService({ SIM_TIME_SCALE: '0.001', TOPUP_SETTLE_DELAY: '300ms' });
});

afterAll(async () => {
  await h?.destroy();
  await killAllServices();
});

const api = <T = any>(tenant: TenantInfo, method: string, path: string, body?: unknown) =>
  h.call<T>(method, path, { token: tenant.api_key, ...(body === undefined ? {} : { body }) });

const depletedTenant = (label: string) => depletedTenantOf(h, label);

/** The session as GET shows it once the read model has `want` (a predicate on the body). */
const sessionOnce = (tenant: TenantInfo, id: string, want: (s: any) => boolean, timeoutMs = 20_000) =>
  eventually(
    async () => {
      const res = await api(tenant, 'GET', `/v1/sessions/${id}`);
      if (res.status !== 200 || !want(res.body)) throw new Error(`not yet: ${JSON.stringify(res.body)}`);
      return res.body;
    },
    timeoutMs,
    100,
  );

describe('a production call held for credit', () => {
  it('says why it waits at once, in GET and in the list, and clears once a top-up lets it go out', async () => {
    const tenant = await depletedTenant('Held Reason Co');
    // No test_mode: a production call, billed.
    const placed = await placeCall(h.call, tenant.api_key, ANSWERED);
    expect(placed).toMatchObject({ status: 'queued', test_mode: false, hold_reason: HELD });
    const id = placed.session_id;
    // The read model has it too (it is a projection of session.dispatch_held), and it stays held.
    await sessionOnce(tenant, id, (s) => s.hold_reason === HELD && s.status === 'queued');
    await new Promise((r) => setTimeout(r, 1000));
    expect((await api(tenant, 'GET', `/v1/sessions/${id}`)).body).toMatchObject({
      status: 'queued',
      hold_reason: HELD,
    });
    const listed = (await api(tenant, 'GET', '/v1/sessions?status=queued')).body.data as any[];
    expect(listed.find((s) => s.session_id === id)).toMatchObject({ hold_reason: HELD });

    expect((await api(tenant, 'POST', '/v1/credits/topups', { amount_cents: 1000 })).status).toBe(201);
    const done = await sessionOnce(tenant, id, (s) => s.status === 'completed');
    expect(done).toMatchObject({ hold_reason: null, end_reason: 'completed', actual_cost_cents: 10 });
  });

  it('still held when its watchdog fires, it fails with end_reason insufficient_credits', async () => {
    const tenant = await depletedTenant('Never Topped Up Co');
    const placed = await placeCall(h.call, tenant.api_key, ANSWERED, { testMode: false });
    expect(placed.hold_reason).toBe(HELD);
    const failed = await sessionOnce(tenant, placed.session_id, (s) => s.status === 'failed', 90_000);
    expect(failed).toMatchObject({ end_reason: HELD, hold_reason: null, started_at: null, actual_cost_cents: 0 });
  });

  it('test calls, and calls of a tenant that is not depleted, are never held', async () => {
    const depleted = await depletedTenant('Test Calls Co');
    const test = await placeCall(h.call, depleted.api_key, ANSWERED, { testMode: true });
    expect(test).toMatchObject({ test_mode: true, hold_reason: null });
    const fresh = await productionTenant(h, 'Fresh Co');
    const billed = await placeCall(h.call, fresh.api_key, ANSWERED);
    expect(billed).toMatchObject({ test_mode: false, hold_reason: null });
    await sessionOnce(depleted, test.session_id, (s) => s.status === 'completed' && s.hold_reason === null);
    await sessionOnce(fresh, billed.session_id, (s) => s.status === 'completed' && s.hold_reason === null);
  });
});
