/**
 * `POST /dashboard/login` is unauthenticated, so what it makes the service do is bounded (decision
 * 64, 68): a limit per client address (429 with Retry-After), limits per e-mail address and client
 * and per e-mail address (the same 202, nothing sent), bounded queues for the background work (the
 * excess dropped) where only addresses a tenant has wait for a link, and an index on `lower(email)`. Links are counted in the real test database.
 */
import { randomUUID } from 'node:crypto';
import { startTestApp, TestApp } from '../../support/app';
import { eventually } from '../../support/eventually';

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
  // A query string does not make it another route: refused as early, its body unread.
  const withQuery = await t.inject({
    method: 'POST',
    url: '/dashboard/login?next=%2Fdashboard',
    remoteAddress: '203.0.113.9',
    headers: { 'content-type': 'application/json' },
    payload: '{"email":',
  });
  expect(withQuery.statusCode).toBe(429);
  expect(withQuery.headers['retry-after']).toBeDefined();
  // Invalid requests do not count; another client is not held back.
  for (let i = 0; i < 20; i++) expect((await login('not an address', '203.0.113.10')).statusCode).toBe(400);
  expect((await login('nobody@nowhere.example', '203.0.113.10')).statusCode).toBe(202);
  // IPv6 clients count by their /64.
  for (let i = 0; i < 10; i++) await login(`v6-${i}@nowhere.example`, `2001:db8:5:6::${i + 1}`);
  expect((await login('v6@nowhere.example', '2001:db8:5:6:ffff::1')).statusCode).toBe(429);
});

it('an address gets at most 3 links in 15 minutes per client, and 10 whoever asks; every answer is the same 202', async () => {
  const { tenantId, email } = await tenantWithEmail();
  const bodies = new Set<string>();
  const ask = async (client: string, made: number | null) => {
    const res = await login(bodies.size % 2 ? email.toUpperCase() : email, client);
    expect(res.statusCode).toBe(202);
    bodies.add(res.body.replace(email.toUpperCase(), email));
    // Each waits for its link before the next (one link waits per address at a time).
    if (made !== null) await eventually(async () => (await links(tenantId)) === made, 5_000, 20);
  };
  for (let i = 1; i <= 3; i++) await ask('192.0.2.1', i);
  await ask('192.0.2.1', null); // the client's fourth: nothing sent
  for (let i = 4; i <= 10; i++) await ask(`192.0.2.${i}`, i);
  await ask('192.0.2.11', null); // the address's eleventh: nothing sent, whoever asks
  expect(bodies.size).toBe(1);
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(await links(tenantId)).toBe(10);
});

const nextPaths = async (tenantId: string): Promise<(string | null)[]> =>
  (
    await t.db.pool.query<{ next_path: string | null }>(
      'SELECT next_path FROM dashboard_links WHERE tenant_id = $1 ORDER BY expires_at',
      [tenantId],
    )
  ).rows.map((r) => r.next_path);

it("another client's requests for an address do not use up its owner's: the owner still gets a link", async () => {
  const { tenantId, email } = await tenantWithEmail();
  for (let i = 1; i <= 4; i++) {
    const res = await login(email, '203.0.113.66');
    expect(res.statusCode).toBe(202);
    if (i <= 3) await eventually(async () => (await links(tenantId)) === i, 5_000, 20);
  }
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(await links(tenantId)).toBe(3);
  // The owner, from its own address, asking to open its campaigns page.
  const own = await t.inject({
    method: 'POST',
    url: '/dashboard/login',
    remoteAddress: '2001:db8:77::5',
    payload: { email, next: '/dashboard/campaigns' },
  });
  expect(own.statusCode).toBe(202);
  await eventually(async () => (await links(tenantId)) === 4, 5_000, 20);
  expect((await nextPaths(tenantId)).at(-1)).toBe('/dashboard/campaigns');
});

it('a flood of made-up addresses from many clients does not keep a tenant from its link', async () => {
  const { tenantId, email } = await tenantWithEmail();
  const flood = Array.from({ length: 300 }, (_, i) =>
    login(`bogus-${i}-${randomUUID()}@nowhere.example`, `10.${(i >> 8) & 255}.${i & 255}.7`),
  );
  const own = login(email, '198.51.100.200');
  const answers = await Promise.all([...flood, own]);
  expect(answers.every((a) => a.statusCode === 202)).toBe(true);
  await eventually(async () => (await links(tenantId)) === 1, 5_000, 20);
});

it('the background work is bounded: beyond what runs and waits, a request is dropped (with a log line)', async () => {
  const tenants = await Promise.all(Array.from({ length: 8 }, () => tenantWithEmail()));
  // All at once: two run, none may wait (DASHBOARD_LOGIN_QUEUE=0), the rest are dropped.
  const answers = await Promise.all(tenants.map((x, i) => login(x.email, `192.0.2.${100 + i}`)));
  expect(answers.map((a) => a.statusCode)).toEqual(Array(8).fill(202));
  await new Promise((resolve) => setTimeout(resolve, 500));
  const made = (await Promise.all(tenants.map((x) => links(x.tenantId)))).reduce((a, b) => a + b, 0);
  // Two run at once. The addresses are looked up in batches: when the first request's lookup starts
  // before the others arrive, it is a batch of its own, and its link may be made before the second
  // batch is handed out, freeing its place for one more. Either way most requests are dropped.
  expect(made).toBeGreaterThanOrEqual(2);
  expect(made).toBeLessThanOrEqual(3);
});

it('the lookup by lower(email) has an index', async () => {
  const client = await t.db.pool.connect();
  try {
    await client.query('SET enable_seqscan = off');
    const { rows } = await client.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN SELECT lower(email) AS address, min(tenant_id) AS tenant_id, min(email) AS email, count(*)::int AS n
         FROM tenants WHERE lower(email) = ANY($1::text[]) GROUP BY lower(email)`,
      [['someone@tenant.example', 'else@tenant.example']],
    );
    expect(rows.map((r) => r['QUERY PLAN']).join('\n')).toMatch(/Index Scan (using|on) tenants_lower_email/);
  } finally {
    client.release();
  }
});
