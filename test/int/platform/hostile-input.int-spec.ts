/**
 * Bad input that used to get a 500 (issue: hardening), each now a 400 with the error body of docs/api.md:
 * NUL and control characters in query parameters, `null` for optional fields, dates that Date.parse
 * accepts but RFC 3339 does not, and a missing required field reported as missing. Also what
 * test/int/platform/openapi-fuzz/ found: a projection rebuild that deadlocked with the live runner.
 */
import type { LightMyRequestResponse } from 'fastify';
import { CreatedTenant, expectNoLeak, startTestApp, TestApp } from '../../support/app';

interface ErrorBody {
  error: { type: string; message: string; param?: string; request_id: string };
}

function expect400(res: LightMyRequestResponse, param: string | undefined, message?: RegExp): void {
  expect({ status: res.statusCode, body: res.body }).toEqual({ status: 400, body: expect.any(String) });
  const { error } = res.json<ErrorBody>();
  expect(error.type).toBe('invalid_request');
  expect(error.param).toBe(param);
  if (message) expect(error.message).toMatch(message);
  expectNoLeak(res.body);
}

describe('hostile input gets a 400, never a 500', () => {
  let t: TestApp;
  let tenant: CreatedTenant;
  let endpointId: string;

  beforeAll(async () => {
    t = await startTestApp({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' } });
    tenant = await t.createTenant('Hostile Input Co');
    const created = await t.asTenant(tenant.api_key, {
      method: 'POST',
      url: '/v1/webhook_endpoints',
      payload: { url: 'http://127.0.0.1:9/hooks' },
    });
    expect(created.statusCode).toBe(201);
    endpointId = created.json<{ id: string }>().id;
  });
  afterAll(async () => {
    await t?.close();
  });

  const get = (url: string) => t.asTenant(tenant.api_key, { method: 'GET', url });

  it.each([
    ['/v1/sessions?campaign_id=%00', 'campaign_id'],
    ['/v1/sessions?starting_after=%00', 'starting_after'],
    ['/v1/sessions?status=%01queued', 'status'],
    ['/v1/events?type=session.created%00', 'type'],
    ['/v1/events?after=%7F', 'after'],
    ['/v1/dnc?limit=1%0A', 'limit'],
  ])('refuses control characters in a query parameter: %s', async (url, param) => {
    expect400(await get(url), param, /NUL or control characters/);
  });

  it('refuses a lone surrogate in a query parameter', async () => {
    // %ED%A0%80 is not UTF-8; a query parser that keeps it raw or decodes it must not pass it on.
    const res = await get('/v1/sessions?campaign_id=%ED%A0%80');
    expect(res.statusCode).toBeLessThan(500);
  });

  it.each([['events'], ['url']])('PATCH with {"%s": null} is a 400 saying it must not be null', async (field) => {
    const res = await t.asTenant(tenant.api_key, {
      method: 'PATCH',
      url: `/v1/webhook_endpoints/${endpointId}`,
      payload: { [field]: null },
    });
    expect400(res, field, new RegExp(`^${field} must not be null\\.$`));
  });

  it('PATCH with {"description": null} clears the description (a nullable field)', async () => {
    const set = await t.asTenant(tenant.api_key, {
      method: 'PATCH',
      url: `/v1/webhook_endpoints/${endpointId}`,
      payload: { description: 'CRM' },
    });
    expect(set.json<{ description: string | null }>().description).toBe('CRM');
    const cleared = await t.asTenant(tenant.api_key, {
      method: 'PATCH',
      url: `/v1/webhook_endpoints/${endpointId}`,
      payload: { description: null },
    });
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json<{ description: string | null }>().description).toBeNull();
  });

  it.each(['2020-W01', '2020-W01-1', '2020-123', '2020-01-01', '2026-02-30T00:00:00Z', 'yesterday'])(
    'recover refuses since=%j (not an RFC 3339 date-time)',
    async (since) => {
      const res = await t.asTenant(tenant.api_key, {
        method: 'POST',
        url: `/v1/webhook_endpoints/${endpointId}/recover`,
        payload: { since },
      });
      expect400(res, 'since', /RFC 3339/);
    },
  );

  it('recover accepts an RFC 3339 date-time with an offset', async () => {
    const res = await t.asTenant(tenant.api_key, {
      method: 'POST',
      url: `/v1/webhook_endpoints/${endpointId}/recover`,
      payload: { since: '2026-01-01T01:00:00+01:00' },
    });
    expect(res.statusCode).toBe(202);
    expect(res.json<{ since: string }>().since).toBe('2026-01-01T00:00:00.000Z');
  });

  it('a call without `to` is told that `to` is required, not a length rule', async () => {
    const res = await t.asTenant(tenant.api_key, {
      method: 'POST',
      url: '/v1/calls',
      payload: { from: '+14155550199', agent_config: { prompt: 'Hi' }, test_mode: true },
    });
    expect400(res, 'to', /^to is required\.$/);
  });

  it('a nested required field is named with its path', async () => {
    const res = await t.asTenant(tenant.api_key, {
      method: 'POST',
      url: '/v1/calls',
      payload: { to: '+14155550100', from: '+14155550199', agent_config: {}, test_mode: true },
    });
    expect400(res, 'agent_config.prompt', /^agent_config\.prompt is required\.$/);
  });

  it('null for an optional call field is a 400, not silently "unset"', async () => {
    const res = await t.asTenant(tenant.api_key, {
      method: 'POST',
      url: '/v1/calls',
      payload: { to: '+14155550100', from: '+14155550199', agent_config: { prompt: 'Hi' }, test_mode: null },
    });
    expect400(res, 'test_mode', /^test_mode must not be null\.$/);
  });

  it('rebuilding projections while their live runners write is never a 500 (it deadlocked)', async () => {
    const statuses: number[] = [];
    for (let round = 0; round < 8; round++) {
      const results = await Promise.all([
        t.admin({ method: 'POST', url: '/admin/v1/projections/rebuild', payload: {} }),
        t.admin({ method: 'POST', url: '/admin/v1/projections/rebuild', payload: { projection: 'tenants' } }),
        ...Array.from({ length: 4 }, (_, i) =>
          t.admin({ method: 'POST', url: '/admin/v1/tenants', payload: { name: `Rebuild ${round}.${i}` } }),
        ),
        t.admin({ method: 'POST', url: `/admin/v1/tenants/${tenant.tenant_id}/api_keys` }),
        t.admin({ method: 'POST', url: `/admin/v1/tenants/${tenant.tenant_id}/credits`, payload: { amount_cents: 1 } }),
      ]);
      statuses.push(...results.map((r) => r.statusCode));
    }
    expect(statuses.filter((s) => s !== 200 && s !== 201)).toEqual([]);
  });
});
