import type { LightMyRequestResponse } from 'fastify';
import { randomUUID } from 'node:crypto';
import { SECRET_BOX } from '../../../src/infra/secret-box.provider';
import type { SecretBox } from '../../../src/kernel/secret-box';
import { WorkerLifecycle } from '../../../src/runtime/workers/lifecycle';
import { CreatedTenant, startTestApp, TestApp } from '../../support/app';

describe('Idempotency-Key on POST (docs/api.md, "Idempotency")', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  const createWithKey = (key: string, payload: unknown) =>
    t.admin({
      method: 'POST',
      url: '/admin/v1/tenants',
      headers: { 'idempotency-key': key },
      payload: payload as object,
    });

  const tenantCreatedEvents = async (name: string): Promise<number> => {
    const { rows } = await t.db.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM events WHERE type = 'tenant.created' AND data->>'name' = $1`,
      [name],
    );
    return rows[0]!.n;
  };

  it('does the work once for the same key and body; the replay of a new tenant is a 409 without its API key', async () => {
    const key = randomUUID();
    const name = `Idem ${key}`;
    const first = await createWithKey(key, { name, plan: 'starter' });
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const created = first.json<CreatedTenant>();

    const second = await createWithKey(key, { name, plan: 'starter' });
    expect(second.statusCode).toBe(409);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.headers['content-type']).toMatch(/^application\/json/);
    expect(second.body).not.toContain(created.api_key);
    const error = second.json<{ error: { type: string; message: string; param?: string } }>().error;
    expect(error.type).toBe('conflict');
    expect(error.param).toBeUndefined();
    expect(error.message).toMatch(/shown once/);
    expect(error.message).toContain(created.tenant_id);

    expect(await tenantCreatedEvents(name)).toBe(1);
    const { rows } = await t.db.pool.query('SELECT count(*)::int AS n FROM tenants WHERE name = $1', [name]);
    expect(rows[0].n).toBe(1);
    // The one key shown works.
    expect((await t.asTenant(created.api_key, { method: 'GET', url: '/v1/events' })).statusCode).toBe(200);
  });

  it('treats the same body with keys in another order as the same request', async () => {
    const key = randomUUID();
    const name = `Reordered ${key}`;
    const first = await t.admin({
      method: 'POST',
      url: '/admin/v1/tenants',
      headers: { 'idempotency-key': key, 'content-type': 'application/json' },
      payload: JSON.stringify({ name, plan: 'pro' }),
    });
    const second = await t.admin({
      method: 'POST',
      url: '/admin/v1/tenants',
      headers: { 'idempotency-key': key, 'content-type': 'application/json' },
      payload: JSON.stringify({ plan: 'pro', name }),
    });
    expect(first.statusCode).toBe(201);
    // Either a replay (a 409: the API key is shown once) or a 422 is defensible; never a second tenant.
    expect([409, 422]).toContain(second.statusCode);
    expect(await tenantCreatedEvents(name)).toBe(1);
  });

  it('answers 422 for the same key with another body, and creates nothing more', async () => {
    const key = randomUUID();
    const name = `First ${key}`;
    expect((await createWithKey(key, { name })).statusCode).toBe(201);
    const other = await createWithKey(key, { name: `Second ${key}` });
    expect(other.statusCode).toBe(422);
    expect(other.json()).toEqual({
      error: expect.objectContaining({
        type: expect.any(String),
        message: expect.any(String),
        request_id: other.headers['request-id'],
      }),
    });
    expect(await tenantCreatedEvents(`Second ${key}`)).toBe(0);
    expect(await tenantCreatedEvents(name)).toBe(1);
  });

  it('answers 422 for the same key on another path', async () => {
    const key = randomUUID();
    const tenant = await t.createTenant(`Path ${key}`);
    const first = await t.admin({
      method: 'POST',
      url: `/admin/v1/tenants/${tenant.tenant_id}/credits`,
      headers: { 'idempotency-key': key },
      payload: { amount_cents: 100 },
    });
    expect(first.statusCode).toBe(200);
    const second = await t.admin({
      method: 'POST',
      url: `/admin/v1/tenants/${tenant.tenant_id}/suspend`,
      headers: { 'idempotency-key': key },
      payload: { amount_cents: 100 },
    });
    expect(second.statusCode).toBe(422);
    const { rows } = await t.db.pool.query('SELECT status FROM tenants WHERE tenant_id = $1', [tenant.tenant_id]);
    expect(rows).toEqual([{ status: 'active' }]);
  });

  it('creates two tenants for two different keys with the same body', async () => {
    const name = `Twice ${randomUUID()}`;
    const a = await createWithKey(randomUUID(), { name });
    const b = await createWithKey(randomUUID(), { name });
    expect(a.statusCode).toBe(201);
    expect(b.statusCode).toBe(201);
    expect(b.headers['idempotent-replayed']).toBeUndefined();
    expect(a.json<CreatedTenant>().tenant_id).not.toBe(b.json<CreatedTenant>().tenant_id);
    expect(await tenantCreatedEvents(name)).toBe(2);
  });

  it('creates a tenant per request without any key', async () => {
    const name = `No key ${randomUUID()}`;
    await t.createTenant(name);
    await t.createTenant(name);
    expect(await tenantCreatedEvents(name)).toBe(2);
  });

  it('replays a 400 as the same 400', async () => {
    const key = randomUUID();
    const first = await createWithKey(key, { name: 'Bad plan', plan: 'gold' });
    expect(first.statusCode).toBe(400);
    const second = await createWithKey(key, { name: 'Bad plan', plan: 'gold' });
    expect(second.statusCode).toBe(400);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.json()).toEqual(first.json());
    expect(second.json<{ error: { param: string } }>().error.param).toBe('plan');
  });

  it('replays a 404 for an unknown tenant as the same 404', async () => {
    const key = randomUUID();
    const first = await t.admin({
      method: 'POST',
      url: '/admin/v1/tenants/ten_missing/suspend',
      headers: { 'idempotency-key': key },
    });
    expect(first.statusCode).toBe(404);
    const second = await t.admin({
      method: 'POST',
      url: '/admin/v1/tenants/ten_missing/suspend',
      headers: { 'idempotency-key': key },
    });
    expect(second.statusCode).toBe(404);
    expect(second.json()).toEqual(first.json());
  });

  it('replays a 200 action (credits) with status 200, and grants once', async () => {
    const tenant = await t.createTenant(`Credit ${randomUUID()}`);
    const key = randomUUID();
    const send = () =>
      t.admin({
        method: 'POST',
        url: `/admin/v1/tenants/${tenant.tenant_id}/credits`,
        headers: { 'idempotency-key': key },
        payload: { amount_cents: 700 },
      });
    const first = await send();
    const second = await send();
    expect(first.statusCode).toBe(200);
    expect(second.statusCode).toBe(200);
    expect(second.json()).toEqual(first.json());
    const { rows } = await t.db.pool.query('SELECT balance_cents FROM credit_balances WHERE tenant_id = $1', [
      tenant.tenant_id,
    ]);
    expect(rows).toEqual([{ balance_cents: '700' }]);
  });

  it('does the work once when the same key and body race', async () => {
    const key = randomUUID();
    const name = `Race ${key}`;
    const responses = await Promise.all(Array.from({ length: 8 }, () => createWithKey(key, { name })));
    const statuses = responses.map((r) => r.statusCode);
    // The winner gets 201; others get the replay (a 409: the key is shown once) or "in progress" (409).
    for (const s of statuses) expect([201, 409]).toContain(s);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(await tenantCreatedEvents(name)).toBe(1);
  });
});

describe('Idempotency-Key: nothing runs twice, keys belong to their principal', () => {
  let t: TestApp;
  let tenant: CreatedTenant;

  beforeAll(async () => {
    t = await startTestApp();
    tenant = await t.createTenant('Once Only Calls');
  });
  afterAll(async () => {
    await t?.close();
  });

  const placeWithKey = (key: string) =>
    t.asTenant(tenant.api_key, {
      method: 'POST',
      url: '/v1/calls',
      headers: { 'idempotency-key': key },
      payload: { to: '+14155550100', from: '+14155550199', agent_config: { prompt: 'Hi' }, test_mode: true },
    });

  const placedCount = async (sessionId: string): Promise<number> => {
    const { rows } = await t.db.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM events WHERE type = 'session.created' AND data->>'session_id' = $1`,
      [sessionId],
    );
    return rows[0]!.n;
  };
  const allPlaced = async (): Promise<number> => {
    const { rows } = await t.db.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM events WHERE type = 'session.created' AND metadata->>'tenant_id' = $1`,
      [tenant.tenant_id],
    );
    return rows[0]!.n;
  };

  it('a key left in progress by a killed process is taken over without placing a second call', async () => {
    const key = randomUUID();
    const first = await placeWithKey(key);
    expect(first.statusCode).toBe(201);
    const sessionId = first.json<{ session_id: string }>().session_id;
    const before = await allPlaced();
    // As if the process had been killed after the call was stored but before the answer was kept.
    await t.db.pool.query(
      `UPDATE idempotency_keys SET status = 'in_progress', response_status = NULL, response_sealed = NULL,
         locked_until = now() - interval '1 second' WHERE tenant_id = $1 AND key = $2`,
      [tenant.tenant_id, key],
    );
    const retry = await placeWithKey(key);
    expect(retry.statusCode).toBe(201);
    expect(retry.json<{ session_id: string }>().session_id).toBe(sessionId);
    expect(await placedCount(sessionId)).toBe(1);
    expect(await allPlaced()).toBe(before);
  });

  it('a retry after a 5xx released the key finds the call the first attempt committed', async () => {
    const key = randomUUID();
    const first = await placeWithKey(key);
    const sessionId = first.json<{ session_id: string }>().session_id;
    const before = await allPlaced();
    // What the interceptor does on a 5xx (say the answer failed after the append committed).
    await t.db.pool.query('DELETE FROM idempotency_keys WHERE tenant_id = $1 AND key = $2', [tenant.tenant_id, key]);
    const retry = await placeWithKey(key);
    expect(retry.statusCode).toBe(201);
    expect(retry.json<{ session_id: string }>().session_id).toBe(sessionId);
    expect(await placedCount(sessionId)).toBe(1);
    expect(await allPlaced()).toBe(before);
  });

  it('the same key of two tenants places two calls', async () => {
    const other = await t.createTenant('Other Key Owner');
    const key = randomUUID();
    const mine = await placeWithKey(key);
    const theirs = await t.asTenant(other.api_key, {
      method: 'POST',
      url: '/v1/calls',
      headers: { 'idempotency-key': key },
      payload: { to: '+14155550100', from: '+14155550199', agent_config: { prompt: 'Hi' }, test_mode: true },
    });
    expect(mine.statusCode).toBe(201);
    expect(theirs.statusCode).toBe(201);
    expect(theirs.json<{ session_id: string }>().session_id).not.toBe(mine.json<{ session_id: string }>().session_id);
  });

  it('an unauthenticated request claims no key, so it cannot make the operator’s request fail', async () => {
    const key = randomUUID();
    // The signed media ingest authenticates in its handler: a forged call is refused, and writes no key.
    const forged = await t.inject({
      method: 'POST',
      url: '/media/v1/sessions/ses_00000000000000000000/signals',
      headers: { 'idempotency-key': key, 'content-type': 'application/json' },
      payload: JSON.stringify({ seq: 1, signal: { kind: 'answered' } }),
    });
    expect(forged.statusCode).toBeGreaterThanOrEqual(400);
    expect(forged.statusCode).toBeLessThan(500);
    const { rows } = await t.db.pool.query('SELECT count(*)::int AS n FROM idempotency_keys WHERE key = $1', [key]);
    expect(rows[0].n).toBe(0);
    const operator = await t.admin({
      method: 'POST',
      url: '/admin/v1/tenants',
      headers: { 'idempotency-key': key },
      payload: { name: `Operator ${key}` },
    });
    expect(operator.statusCode).toBe(201);
  });
});

describe('Idempotency-Key: a lagging read model never becomes the stored answer', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('creating an endpoint while the processors are stopped still answers 201 with its secret; the replay shows it no more', async () => {
    const tenant = await t.createTenant('Lagging Projections');
    // No processor runs: read-your-writes waits its 10 s and gives up; the read model never has the endpoint.
    await t.app.get(WorkerLifecycle).stopAll();
    const key = randomUUID();
    const create = () =>
      t.asTenant(tenant.api_key, {
        method: 'POST',
        url: '/v1/webhook_endpoints',
        headers: { 'idempotency-key': key },
        payload: { url: 'http://127.0.0.1:9/hook', events: ['session.*'], description: 'CRM' },
      });
    const first = await create();
    expect(first.statusCode).toBe(201);
    const body = first.json<{ id: string; secret: string; url: string; status: string; created_at: string }>();
    expect(body).toMatchObject({ url: 'http://127.0.0.1:9/hook', status: 'active' });
    expect(body.secret).toMatch(/^whsec_/);
    expect(body.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    const replay = await create();
    expect(replay.statusCode).toBe(409);
    expect(replay.body).not.toContain(body.secret);
    expect(replay.json<{ error: { message: string } }>().error.message).toContain(body.id);
  }, 30_000);
});

describe('Idempotency-Key: a retry after the key was released finds what the first attempt committed', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  /** What the interceptor does on a 5xx: the key is released, so the client's retry runs again. */
  const release = (scope: string, key: string) =>
    t.db.pool.query('DELETE FROM idempotency_keys WHERE tenant_id = $1 AND key = $2', [scope, key]);
  const count = async (type: string, tenantId: string): Promise<number> => {
    const { rows } = await t.db.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM events WHERE type = $1 AND metadata->>'tenant_id' = $2`,
      [type, tenantId],
    );
    return rows[0]!.n;
  };

  it('a credit grant is applied once', async () => {
    const tenant = await t.createTenant('Granted Once');
    const key = randomUUID();
    const grant = () =>
      t.admin({
        method: 'POST',
        url: `/admin/v1/tenants/${tenant.tenant_id}/credits`,
        headers: { 'idempotency-key': key },
        payload: { amount_cents: 500 },
      });
    expect((await grant()).statusCode).toBeLessThan(300);
    await release('admin', key);
    expect((await grant()).statusCode).toBeLessThan(300);
    expect(await count('credits.granted', tenant.tenant_id)).toBe(1);
  });

  it('an endpoint is created once; the retry cannot show its secret again, and says so with a 409', async () => {
    const tenant = await t.createTenant('Endpoint Once');
    const key = randomUUID();
    const create = () =>
      t.asTenant(tenant.api_key, {
        method: 'POST',
        url: '/v1/webhook_endpoints',
        headers: { 'idempotency-key': key },
        payload: { url: 'http://127.0.0.1:9/hook' },
      });
    const first = await create();
    expect(first.statusCode).toBe(201);
    await release(tenant.tenant_id, key);
    const retry = await create();
    expect(retry.statusCode).toBe(409);
    expect(retry.body).not.toContain(first.json<{ secret: string }>().secret);
    expect(retry.json<{ error: { message: string } }>().error.message).toMatch(/shown once/);
    expect(retry.json<{ error: { message: string } }>().error.message).toContain(first.json<{ id: string }>().id);
    expect(await count('webhook_endpoint.created', tenant.tenant_id)).toBe(1);
  });

  it('a secret is rotated once; the retry cannot show the new secret, and says so with a 409', async () => {
    const tenant = await t.createTenant('Rotated Once');
    const endpoint = await t.asTenant(tenant.api_key, {
      method: 'POST',
      url: '/v1/webhook_endpoints',
      payload: { url: 'http://127.0.0.1:9/hook' },
    });
    const id = endpoint.json<{ id: string }>().id;
    const key = randomUUID();
    const rotate = () =>
      t.asTenant(tenant.api_key, {
        method: 'POST',
        url: `/v1/webhook_endpoints/${id}/rotate_secret`,
        headers: { 'idempotency-key': key },
      });
    const first = await rotate();
    expect(first.statusCode).toBe(200);
    await release(tenant.tenant_id, key);
    const retry = await rotate();
    expect(retry.statusCode).toBe(409);
    expect(retry.body).not.toContain(first.json<{ secret: string }>().secret);
    expect(retry.json<{ error: { message: string } }>().error.message).toMatch(/shown once/);
    expect(await count('webhook_endpoint.secret_rotated', tenant.tenant_id)).toBe(1);
  });

  it('a tenant is created once; the retry cannot show the API key again, and says so with a 409', async () => {
    const key = randomUUID();
    const name = `Tenant Once ${key}`;
    const create = () =>
      t.admin({ method: 'POST', url: '/admin/v1/tenants', headers: { 'idempotency-key': key }, payload: { name } });
    const first = await create();
    expect(first.statusCode).toBe(201);
    await release('admin', key);
    const retry = await create();
    expect(retry.statusCode).toBe(409);
    expect(retry.json<{ error: { message: string } }>().error.message).toMatch(/issue a new key/);
    const { rows } = await t.db.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM events WHERE type = 'tenant.created' AND data->>'name' = $1`,
      [name],
    );
    expect(rows[0]!.n).toBe(1);
  });
});

describe('Idempotency-Key: a replay never shows a secret again (decision 63)', () => {
  let t: TestApp;
  let tenant: CreatedTenant;

  beforeAll(async () => {
    t = await startTestApp({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' } });
    tenant = await t.createTenant('Secrets Once');
  });
  afterAll(async () => {
    await t?.close();
  });

  /** The stored answer under the key, opened: it must hold none of the secrets. */
  const stored = async (scope: string, key: string): Promise<{ text: string; withheld: string | null }> => {
    const { rows } = await t.db.pool.query<{ response_sealed: string | null; secrets_withheld: string | null }>(
      'SELECT response_sealed, secrets_withheld FROM idempotency_keys WHERE tenant_id = $1 AND key = $2',
      [scope, key],
    );
    const row = rows[0]!;
    const box = t.app.get<SecretBox>(SECRET_BOX);
    return { text: row.response_sealed === null ? '' : box.open(row.response_sealed), withheld: row.secrets_withheld };
  };

  const expectShownOnce = (res: LightMyRequestResponse, secret: string, id: string) => {
    expect(res.statusCode).toBe(409);
    expect(res.headers['idempotent-replayed']).toBe('true');
    expect(res.body).not.toContain(secret);
    const error = res.json<{ error: { type: string; message: string; param?: string; request_id: string } }>().error;
    expect(error).toMatchObject({ type: 'conflict', request_id: res.headers['request-id'] });
    // Not the "in progress" 409 a client retries.
    expect(error.param).toBeUndefined();
    expect(error.message).not.toMatch(/in progress/i);
    expect(error.message).toMatch(/shown once/);
    expect(error.message).toContain(id);
  };

  it('tenant creation: the replay is a 409, and the stored answer holds no API key', async () => {
    const key = randomUUID();
    const send = () =>
      t.admin({
        method: 'POST',
        url: '/admin/v1/tenants',
        headers: { 'idempotency-key': key },
        payload: { name: key },
      });
    const first = (await send()).json<CreatedTenant>();
    expectShownOnce(await send(), first.api_key, first.tenant_id);
    const kept = await stored('admin', key);
    expect(kept.withheld).toBe('api_key');
    expect(kept.text).toContain(first.tenant_id);
    expect(kept.text).not.toContain(first.api_key.slice(17));
  });

  it('an API key issued: the replay is a 409, and the stored answer holds no API key', async () => {
    const key = randomUUID();
    const send = () =>
      t.admin({
        method: 'POST',
        url: `/admin/v1/tenants/${tenant.tenant_id}/api_keys`,
        headers: { 'idempotency-key': key },
      });
    const first = await send();
    expect(first.statusCode).toBe(201);
    const issued = first.json<{ api_key: string; key_prefix: string }>();
    expectShownOnce(await send(), issued.api_key, issued.key_prefix);
    expect((await stored('admin', key)).text).not.toContain(issued.api_key.slice(17));
  });

  it('an endpoint created and its secret rotated: each replay is a 409, and no stored answer holds a whsec_', async () => {
    const createKey = randomUUID();
    const create = () =>
      t.asTenant(tenant.api_key, {
        method: 'POST',
        url: '/v1/webhook_endpoints',
        headers: { 'idempotency-key': createKey },
        payload: { url: 'http://127.0.0.1:9/hook' },
      });
    const first = await create();
    expect(first.statusCode).toBe(201);
    const endpoint = first.json<{ id: string; secret: string }>();
    expectShownOnce(await create(), endpoint.secret, endpoint.id);

    const rotateKey = randomUUID();
    const rotate = () =>
      t.asTenant(tenant.api_key, {
        method: 'POST',
        url: `/v1/webhook_endpoints/${endpoint.id}/rotate_secret`,
        headers: { 'idempotency-key': rotateKey },
      });
    const rotated = await rotate();
    expect(rotated.statusCode).toBe(200);
    const secret = rotated.json<{ secret: string }>().secret;
    expectShownOnce(await rotate(), secret, endpoint.id);
    const { rows } = await t.db.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM events WHERE type = 'webhook_endpoint.secret_rotated' AND stream_id = $1`,
      [`webhook_endpoint-${endpoint.id}`],
    );
    expect(rows[0]!.n).toBe(1);
    for (const key of [createKey, rotateKey]) {
      const kept = await stored(tenant.tenant_id, key);
      expect(kept.withheld).toBe('secret');
      expect(kept.text).not.toMatch(/whsec_/);
    }
  });

  it('an operator sign-in link: the replay is a 409, and the stored answer holds no dl_ token', async () => {
    const key = randomUUID();
    const send = () =>
      t.admin({
        method: 'POST',
        url: `/admin/v1/tenants/${tenant.tenant_id}/dashboard_links`,
        headers: { 'idempotency-key': key },
      });
    const first = await send();
    expect(first.statusCode).toBe(201);
    const { url } = first.json<{ url: string }>();
    const token = url.slice(url.lastIndexOf('/') + 1);
    expect(token).toMatch(/^dl_/);
    const replay = await send();
    expect(replay.statusCode).toBe(409);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).not.toContain(token);
    expect(replay.json<{ error: { type: string; message: string } }>().error).toMatchObject({
      type: 'conflict',
      message: expect.stringMatching(/shown once/),
    });
    const kept = await stored('admin', key);
    expect(kept.withheld).toBe('url');
    expect(kept.text).not.toMatch(/dl_/);
  });

  it('an answer without a secret is still replayed as it was', async () => {
    const key = randomUUID();
    const send = () =>
      t.asTenant(tenant.api_key, {
        method: 'POST',
        url: '/v1/dnc',
        headers: { 'idempotency-key': key },
        payload: { phone_number: '+14155550123' },
      });
    const first = await send();
    const second = await send();
    expect(second.statusCode).toBe(first.statusCode);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.json()).toEqual(first.json());
  });
});
