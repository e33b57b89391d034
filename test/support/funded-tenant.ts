import type { CallsService } from './calls-harness';
import { eventually } from './eventually';
import { assignNumber, createTenant, type TenantInfo } from './webhooks-harness';

/**
 * A tenant whose production calls go out: a test top-up of `amountCents` (the service runs with
 * PAYMENT_PROCESSOR=test), waited for until the balance shows it (a depleted tenant's calls wait),
 * and the operator's assignment of each of `owns`, the numbers it calls from (decision 178).
 */
export async function createFundedTenant(
  h: CallsService,
  name: string,
  amountCents = 5000,
  owns: readonly string[] = [],
): Promise<TenantInfo> {
  const tenant = await createTenant(h.call, h.svc.adminToken, name);
  for (const number of owns) await assignNumber(h.call, h.svc.adminToken, tenant.tenant_id, number);
  const topup = await h.call('POST', '/v1/credits/topups', {
    token: tenant.api_key,
    body: { amount_cents: amountCents },
  });
  expect(topup.status).toBe(201);
  await eventually(
    async () => (await h.call('GET', '/v1/credits', { token: tenant.api_key })).body.balance_cents > 0,
    20_000,
  );
  return tenant;
}
