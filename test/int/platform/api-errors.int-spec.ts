import type { LightMyRequestResponse } from 'fastify';
import { CreatedTenant, expectNoLeak, startTestApp, TestApp } from '../../support/app';

interface ErrorBody {
  error: { type: string; message: string; param?: string; request_id: string };
}

/** Asserts the error body of docs/api.md and that the request-id header matches it. */
function expectError(res: LightMyRequestResponse, status: number, type: string, param?: string): ErrorBody['error'] {
  expect({ status: res.statusCode, body: res.body }).toEqual({ status, body: expect.any(String) });
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const body = res.json<ErrorBody>();
  expect(Object.keys(body)).toEqual(['error']);
  expect(body.error.type).toBe(type);
  expect(typeof body.error.message).toBe('string');
  expect(body.error.message.length).toBeGreaterThan(0);
  expect(body.error.request_id).toMatch(/^req_[0-9a-f]+$/);
  expect(res.headers['request-id']).toBe(body.error.request_id);
  if (param === undefined) expect(body.error).not.toHaveProperty('param');
  else expect(body.error.param).toBe(param);
  for (const key of Object.keys(body.error)) expect(['type', 'message', 'param', 'request_id']).toContain(key);
  expectNoLeak(res.body);
  return body.error;
}

describe('API errors (docs/api.md, "Errors")', () => {
  let t: TestApp;
  let tenant: CreatedTenant;

  beforeAll(async () => {
    t = await startTestApp();
    tenant = await t.createTenant('Errors Inc');
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('authentication', () => {
    it('answers 401 authentication without a bearer', async () => {
      const res = await t.inject({ method: 'GET', url: '/v1/events' });
      expectError(res, 401, 'authentication');
      expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
    });

    it('answers 401 for a non-bearer Authorization scheme', async () => {
      const basic = Buffer.from(`${tenant.api_key}:`).toString('base64');
      expectError(
        await t.inject({ method: 'GET', url: '/v1/events', headers: { authorization: `Basic ${basic}` } }),
        401,
        'authentication',
      );
    });

    it('answers 401 for a malformed key and for a well-formed key that was never issued', async () => {
      expectError(await t.asTenant('nope', { method: 'GET', url: '/v1/events' }), 401, 'authentication');
      const forged = `${tenant.api_key.slice(0, 17)}${'A'.repeat(43)}`;
      expect(forged).toMatch(/^vap_[0-9a-z]{12}_A{43}$/);
      // Right prefix, wrong secret: the hash comparison must reject it.
      expectError(await t.asTenant(forged, { method: 'GET', url: '/v1/events' }), 401, 'authentication');
    });

    it('answers 401 for a revoked key', async () => {
      const other = await t.createTenant('Revoked Key Co');
      const prefix = other.api_key.split('_').slice(0, 2).join('_');
      const revoke = await t.admin({
        method: 'DELETE',
        url: `/admin/v1/tenants/${other.tenant_id}/api_keys/${prefix}`,
      });
      expect(revoke.statusCode).toBe(200);
      expectError(await t.asTenant(other.api_key, { method: 'GET', url: '/v1/events' }), 401, 'authentication');
    });

    it('answers 401 on the operator API for a wrong admin token, a missing one, and a tenant key', async () => {
      const payload = { name: 'x' };
      expectError(
        await t.inject({
          method: 'POST',
          url: '/admin/v1/tenants',
          payload,
          headers: { authorization: 'Bearer wrong' },
        }),
        401,
        'authentication',
      );
      expectError(
        await t.inject({
          method: 'POST',
          url: '/admin/v1/tenants',
          payload,
          headers: { authorization: `Bearer ${t.adminToken}x` },
        }),
        401,
        'authentication',
      );
      expectError(await t.inject({ method: 'POST', url: '/admin/v1/tenants', payload }), 401, 'authentication');
      expectError(
        await t.asTenant(tenant.api_key, { method: 'POST', url: '/admin/v1/tenants', payload }),
        401,
        'authentication',
      );
    });

    it('does not let the admin token act as a tenant API key', async () => {
      expectError(await t.asTenant(t.adminToken, { method: 'GET', url: '/v1/events' }), 401, 'authentication');
    });
  });

  describe('routing and bodies', () => {
    it('answers 404 not_found for an unknown route', async () => {
      expectError(await t.inject({ method: 'GET', url: '/v1/does-not-exist' }), 404, 'not_found');
      expectError(await t.admin({ method: 'POST', url: '/admin/v1/nothing', payload: {} }), 404, 'not_found');
    });

    it('answers 400 invalid_request for malformed JSON, without a stack trace', async () => {
      const res = await t.admin({
        method: 'POST',
        url: '/admin/v1/tenants',
        headers: { 'content-type': 'application/json' },
        payload: '{"name": "Acme",',
      });
      expectError(res, 400, 'invalid_request');
    });

    it('answers 400 for an empty JSON body (treated as no body: name is missing)', async () => {
      const res = await t.admin({
        method: 'POST',
        url: '/admin/v1/tenants',
        headers: { 'content-type': 'application/json' },
        payload: '',
      });
      expectError(res, 400, 'invalid_request', 'name');
    });

    it('answers 415 for an unsupported content type', async () => {
      const res = await t.admin({
        method: 'POST',
        url: '/admin/v1/tenants',
        headers: { 'content-type': 'application/xml' },
        payload: '<tenant><name>x</name></tenant>',
      });
      expectError(res, 415, 'unsupported_media_type');
    });

    it('answers 413 for a body over 1 MiB', async () => {
      const res = await t.admin({
        method: 'POST',
        url: '/admin/v1/tenants',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ name: 'x'.repeat(1024 * 1024 + 10) }),
      });
      expectError(res, 413, 'payload_too_large');
    });

    it('accepts a body just under 1 MiB up to validation (400 for a name too long, not 413)', async () => {
      const res = await t.admin({
        method: 'POST',
        url: '/admin/v1/tenants',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ name: 'x'.repeat(1000 * 1000) }),
      });
      expectError(res, 400, 'invalid_request', 'name');
    });

    it('answers 400 with param for an unknown field', async () => {
      const err = expectError(
        await t.admin({ method: 'POST', url: '/admin/v1/tenants', payload: { name: 'Acme', colour: 'blue' } }),
        400,
        'invalid_request',
        'colour',
      );
      expect(err.message).toContain('colour');
    });

    it('answers 400, not 500, for a contact that is an array instead of an object', async () => {
      const contacts = [{ phone_number: '+14155550104' }, [{ phone_number: '+14155550100' }]];
      for (const [url, payload] of [
        ['/v1/campaigns', { name: 'Nested', from_number: '+14155550000', contacts }],
        ['/v1/campaigns/run', { name: 'Nested', from_number: '+14155550000', contacts }],
      ] as const) {
        const err = expectError(
          await t.asTenant(tenant.api_key, { method: 'POST', url, payload }),
          400,
          'invalid_request',
          'contacts[1]',
        );
        expect(err.message).toContain('object');
      }
    });

    it('answers 400 with param plan for an invalid plan', async () => {
      expectError(
        await t.admin({ method: 'POST', url: '/admin/v1/tenants', payload: { name: 'Acme', plan: 'enterprise' } }),
        400,
        'invalid_request',
        'plan',
      );
    });

    it('answers 400 with param name for a missing or empty name, and param email for a bad e-mail', async () => {
      expectError(
        await t.admin({ method: 'POST', url: '/admin/v1/tenants', payload: {} }),
        400,
        'invalid_request',
        'name',
      );
      expectError(
        await t.admin({ method: 'POST', url: '/admin/v1/tenants', payload: { name: '' } }),
        400,
        'invalid_request',
        'name',
      );
      expectError(
        await t.admin({ method: 'POST', url: '/admin/v1/tenants', payload: { name: 7 } }),
        400,
        'invalid_request',
        'name',
      );
      expectError(
        await t.admin({ method: 'POST', url: '/admin/v1/tenants', payload: { name: 'Acme', email: 'not-an-email' } }),
        400,
        'invalid_request',
        'email',
      );
    });

    it('answers 400 for an Idempotency-Key longer than 255 characters', async () => {
      expectError(
        await t.admin({
          method: 'POST',
          url: '/admin/v1/tenants',
          headers: { 'idempotency-key': 'k'.repeat(256) },
          payload: { name: 'Acme' },
        }),
        400,
        'invalid_request',
        'Idempotency-Key',
      );
    });
  });

  describe('unknown ids and other tenants', () => {
    it("answers 404 for an unknown tenant's key", async () => {
      const err = expectError(
        await t.admin({ method: 'DELETE', url: '/admin/v1/tenants/ten_doesnotexist/api_keys/x' }),
        404,
        'not_found',
        'tenant_id',
      );
      expect(err.message).toMatch(/tenant/i);
    });

    it('answers 404 for an unknown key prefix of a known tenant', async () => {
      expectError(
        await t.admin({ method: 'DELETE', url: `/admin/v1/tenants/${tenant.tenant_id}/api_keys/vap_000000000000` }),
        404,
        'not_found',
        'key_prefix',
      );
    });

    it("answers 404 when revoking one tenant's key under another tenant's id, and the key keeps working", async () => {
      const other = await t.createTenant('Other Co');
      const prefix = tenant.api_key.split('_').slice(0, 2).join('_');
      expectError(
        await t.admin({ method: 'DELETE', url: `/admin/v1/tenants/${other.tenant_id}/api_keys/${prefix}` }),
        404,
        'not_found',
        'key_prefix',
      );
      expect((await t.asTenant(tenant.api_key, { method: 'GET', url: '/v1/events' })).statusCode).toBe(200);
    });

    it('answers 404 for suspend, reactivate, credits and key issuance on an unknown tenant', async () => {
      for (const [url, payload] of [
        ['/admin/v1/tenants/ten_nope/suspend', undefined],
        ['/admin/v1/tenants/ten_nope/reactivate', undefined],
        ['/admin/v1/tenants/ten_nope/credits', { amount_cents: 100 }],
        ['/admin/v1/tenants/ten_nope/api_keys', undefined],
      ] as const) {
        expectError(
          await t.admin({ method: 'POST', url, ...(payload ? { payload } : {}) }),
          404,
          'not_found',
          'tenant_id',
        );
      }
    });
  });

  describe('request ids', () => {
    it('sends a request-id header on successes too, distinct per request', async () => {
      const a = await t.inject({ method: 'GET', url: '/health' });
      const b = await t.inject({ method: 'GET', url: '/health' });
      expect(a.statusCode).toBe(200);
      expect(a.headers['request-id']).toMatch(/^req_[0-9a-f]+$/);
      expect(b.headers['request-id']).toMatch(/^req_[0-9a-f]+$/);
      expect(a.headers['request-id']).not.toBe(b.headers['request-id']);
    });

    it('ignores a client-sent request-id header (ids are generated by the server)', async () => {
      const res = await t.inject({
        method: 'GET',
        url: '/v1/nope',
        headers: { 'request-id': 'evil', 'x-request-id': 'evil' },
      });
      const err = expectError(res, 404, 'not_found');
      expect(err.request_id).not.toBe('evil');
    });
  });

  describe('no bad input yields a 5xx', () => {
    const badBodies: [string, string][] = [
      ['a JSON array', '[]'],
      ['a JSON string', '"tenant"'],
      ['a JSON number', '42'],
      ['JSON null', 'null'],
      ['an object as name', '{"name": {"$gt": ""}}'],
      ['an array as plan', '{"name": "a", "plan": ["pro"]}'],
      ['a prototype-pollution attempt', '{"name": "a", "__proto__": {"admin": true}}'],
      ['a constructor key', '{"name": "a", "constructor": {"prototype": {"x": 1}}}'],
      ['a deeply nested value', `{"name": ${'['.repeat(5000)}${']'.repeat(5000)}}`],
      ['a NUL character in the name', '{"name": "Acme\\u0000Corp"}'],
      ['a lone surrogate in the name', '{"name": "Acme\\ud800"}'],
      ['an out-of-range number', '{"name": 1e400}'],
    ];

    it.each(badBodies)('POST /admin/v1/tenants with %s → 4xx error body', async (_, payload) => {
      const res = await t.admin({
        method: 'POST',
        url: '/admin/v1/tenants',
        headers: { 'content-type': 'application/json' },
        payload,
      });
      expect({ status: res.statusCode, body: res.body }).toEqual({
        status: expect.any(Number),
        body: expect.any(String),
      });
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
      expectError(res, res.statusCode, res.json<ErrorBody>().error.type, res.json<ErrorBody>().error.param);
    });

    it.each([
      ['a non-integer', { amount_cents: 1.5 }, 'amount_cents'],
      ['zero', { amount_cents: 0 }, 'amount_cents'],
      ['a string', { amount_cents: '100' }, 'amount_cents'],
      ['too large', { amount_cents: 1e12 }, 'amount_cents'],
      ['an unknown field', { amount_cents: 5, note: 'x' }, 'note'],
    ])('POST credits with %s → 400', async (_, payload, param) => {
      const res = await t.admin({ method: 'POST', url: `/admin/v1/tenants/${tenant.tenant_id}/credits`, payload });
      expectError(res, 400, 'invalid_request', param);
    });

    it.each([
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['limit=abc', 'limit'],
      ['limit=1e400', 'limit'],
      ['after=not-a-uuid', 'after'],
      ['type=no.such_type', 'type'],
      ['wait=31', 'wait'],
      ['wait=-1', 'wait'],
      ['wait=soon', 'wait'],
      ['order=sideways', 'order'],
      ['order=desc&wait=1', 'wait'],
      ['unknown=1', 'unknown'],
    ])('GET /v1/events?%s → 400 with param', async (query, param) => {
      expectError(
        await t.asTenant(tenant.api_key, { method: 'GET', url: `/v1/events?${query}` }),
        400,
        'invalid_request',
        param,
      );
    });

    it.each([
      ['a NUL byte in a path parameter', '/admin/v1/tenants/%00/suspend'],
      ['a path parameter of 5000 characters', `/admin/v1/tenants/${'x'.repeat(5000)}/suspend`],
      ['a broken percent-encoding', '/admin/v1/tenants/%E0%A4%A/suspend'],
      ['an encoded path traversal', '/admin/v1/tenants/..%2F..%2Fetc%2Fpasswd/suspend'],
    ])('answers a 4xx error body for %s', async (_, url) => {
      const res = await t.admin({ method: 'POST', url });
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
      const body = res.json<Partial<ErrorBody>>();
      expectError(res, res.statusCode, body.error?.type ?? '(not the error body shape)', body.error?.param);
    });
  });
});
