/**
 * The dashboard says why a call waits (a real browser on `node dist/main.js`): a production call of a
 * depleted tenant shows its hold reason in the sessions list and on its page, and no longer once a
 * top-up let it go out.
 */
import { FROM_NUMBER, placeCall } from '../../support/calls-harness';
import { DashboardRig, expectClean, startDashboardRig } from '../../support/dashboard-harness';
import { eventually } from '../../support/eventually';
import { assignNumber } from '../../support/webhooks-harness';

jest.setTimeout(180_000);

let rig: DashboardRig;

beforeAll(async () => {
  rig = await startDashboardRig();
});

afterAll(async () => {
  await rig?.close();
});

const HELD_TEXT = 'Held: the credit balance is depleted';

it('a held call shows why it waits in the list and on its page, until a top-up lets it go out', async () => {
  const { h, tenant } = rig;
  const grant = await h.call('POST', `/admin/v1/tenants/${tenant.tenant_id}/credits`, {
    token: h.svc.adminToken,
    body: { amount_cents: -1 },
  });
  expect(grant.status).toBe(200);
  await eventually(async () => {
    const { rows } = await h.db.pool.query('SELECT depleted FROM credit_balances WHERE tenant_id = $1', [
      tenant.tenant_id,
    ]);
    return rows[0]?.depleted === true;
  }, 20_000);
  // A production call comes from a number the tenant owns (decision 178).
  await assignNumber(h.call, h.svc.adminToken, tenant.tenant_id, FROM_NUMBER);
  const session = await placeCall(h.call, tenant.api_key, '+14155550100', { testMode: false });
  expect(session.hold_reason).toBe('insufficient_credits');
  await eventually(
    async () =>
      (await rig.api('GET', `/v1/sessions/${session.session_id}`)).body.hold_reason === 'insufficient_credits',
    20_000,
    100,
  );

  const { page, seen } = await rig.open();
  await page.goto(`${h.svc.baseUrl}/dashboard/sessions`);
  const row = page.getByRole('row').filter({ hasText: session.session_id });
  await row.getByText(HELD_TEXT).waitFor();
  await row.getByRole('link', { name: session.session_id }).click();
  await page.getByRole('heading', { level: 1, name: `Session ${session.session_id}` }).waitFor();
  await page.getByText(HELD_TEXT).first().waitFor();

  expect((await rig.api('POST', '/v1/credits/topups', { amount_cents: 1000 })).status).toBe(201);
  await eventually(
    async () => (await rig.api('GET', `/v1/sessions/${session.session_id}`)).body.status === 'completed',
    30_000,
    100,
  );
  await page.reload();
  await page.getByRole('heading', { level: 1, name: `Session ${session.session_id}` }).waitFor();
  await page.locator('.fields').first().waitFor();
  expect(await page.getByText(HELD_TEXT).count()).toBe(0);
  expectClean(seen);
});
