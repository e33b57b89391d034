/**
 * `POST /dashboard/login` is unauthenticated, so what it makes the service do is bounded (decision
 * 64): a limit per client address (429 with Retry-After), a limit per e-mail address (the same 202,
 * nothing sent), a small queue for the background work (the excess dropped), and an index on
 * `lower(email)` for the lookup. Links are counted in the real test database.
 */
import { randomUUID } from 'node:crypto';
import { startTestApp, TestApp } from '../support/app';
import { eventually } from '../support/eventually';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ env: { DASHBOARD_LOGIN_QUEUE: '0' } });
});

afterAll(async () => {
  await t?.close();
});

const login = (email: string, remoteAddress = '198.51.100.1') =>
  t.inject({ method: 'POST', url: '/dashboard/login', remoteAddress, payload: { email } });

/** A tenant with an e-mail address of its own. */
async function tenantWithEmail(): Promise<{ tenantId: string; email: string }> {
  const email = `${randomUUID()}@tenant.example`;
  const res = await t.admin({ method: 'POST', url: '/admin/v1/tenants', payload: { name: 'Mailed', email } });
  expect(res.statusCode).toBe(201);
  return { tenantId: res.json<{ tenant_id: string }>().tenant_id, email };
}

const links = async (tenantId: string): Promise<number> =>
  (
    await t.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM dashboard_links WHERE tenant_id = $1', [
      tenantId,
    ])
  ).rows[0]!.n;

it('a client address gets 10 answers a minute, then 429 with Retry-After; other addresses are served', async () => {
  const answers = [];
  for (let i = 0; i < 11; i++) answers.push(await login(`nobody-${i}@nowhere.example`, '203.0.113.9'));
  expect(answers.slice(0, 10).map((a) => a.statusCode)).toEqual(Array(10).fill(202));
  const refused = answers[10]!;
  expect(refused.statusCode).toBe(429);
  expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
  expect(refused.json<{ error: { type: string; request_id: string } }>().error).toMatchObject({
    type: 'rate_limited',
    request_id: refused.headers['request-id'],
  });
  // Beyond the limit, a request is refused as it arrives, before its body is read.
  const early = await t.inject({
    method: 'POST',
    url: '/dashboard/login',
    remoteAddress: '203.0.113.9',
    headers: { 'content-type': 'application/json' },
    payload: '{"email":',
  });
  expect(early.statusCode).toBe(429);
  expect(early.headers['retry-after']).toBeDefined();
  // Invalid requests do not count; another client is not held back.
  for (let i = 0; i < 20; i++) expect((await login('not an address', '203.0.113.10')).statusCode).toBe(400);
  expect((await login('nobody@nowhere.example', '203.0.113.10')).statusCode).toBe(202);
  // IPv6 clients count by their /64.
  for (let i = 0; i < 10; i++) await login(`v6-${i}@nowhere.example`, `2001:db8:5:6::${i + 1}`);
  expect((await login('v6@nowhere.example', '2001:db8:5:6:ffff::1')).statusCode).toBe(429);
});

it('an address gets at most 3 links in 15 minutes; every answer is the same 202', async () => {
  const { tenantId, email } = await tenantWithEmail();
  const bodies = new Set<string>();
  for (let i = 0; i < 5; i++) {
    // From five clients, one after the other, each waiting for the link before the next.
    const res = await login(i % 2 ? email.toUpperCase() : email, `192.0.2.${i + 1}`);
    expect(res.statusCode).toBe(202);
    bodies.add(res.body.replace(email.toUpperCase(), email));
    if (i < 3) await eventually(async () => (await links(tenantId)) === i + 1, 5_000, 20);
  }
  expect(bodies.size).toBe(1);
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(await links(tenantId)).toBe(3);
});

it('the background work is bounded: beyond what runs and waits, a request is dropped (with a log line)', async () => {
  const tenants = await Promise.all(Array.from({ length: 8 }, () => tenantWithEmail()));
  // All at once: two run, none may wait (DASHBOARD_LOGIN_QUEUE=0), the rest are dropped.
  const answers = await Promise.all(tenants.map((x, i) => login(x.email, `192.0.2.${100 + i}`)));
  expect(answers.map((a) => a.statusCode)).toEqual(Array(8).fill(202));
  await new Promise((resolve) => setTimeout(resolve, 500));
  const made = await Promise.all(tenants.map((x) => links(x.tenantId)));
  expect(made.reduce((a, b) => a + b, 0)).toBe(2);
});

it('the lookup by lower(email) has an index', async () => {
  const client = await t.db.pool.connect();
  try {
    await client.query('SET enable_seqscan = off');
    const { rows } = await client.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN SELECT tenant_id, email FROM tenants WHERE lower(email) = lower($1) LIMIT 2`,
      ['someone@tenant.example'],
    );
    expect(rows.map((r) => r['QUERY PLAN']).join('\n')).toMatch(/Index Scan (using|on) tenants_lower_email/);
  } finally {
    client.release();
  }
});
