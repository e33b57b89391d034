/**
 * Dashboard sign-in in process, with BASE_URL on https: the `__Host-` cookie with `Secure`, a cookie
 * of the plain name refused there, sessions that expire and end, one session per browser, and an
 * API key that outranks any cookie. Links and sessions live in the real test database.
 */
import { startTestApp, TestApp, type CreatedTenant } from '../support/app';

let t: TestApp;
let acme: CreatedTenant;
let other: CreatedTenant;

beforeAll(async () => {
  t = await startTestApp({ env: { BASE_URL: 'https://console.example' } });
  acme = await t.createTenant('Acme');
  other = await t.createTenant('Other');
});

afterAll(async () => {
  await t?.close();
});

async function link(tenantId: string): Promise<{ path: string; url: string; expires_at: string }> {
  const res = await t.admin({ method: 'POST', url: `/admin/v1/tenants/${tenantId}/dashboard_links` });
  expect(res.statusCode).toBe(201);
  const body = res.json<{ url: string; expires_at: string }>();
  return { ...body, path: new URL(body.url).pathname };
}

/** Redeems a link; returns the session cookie's `name=value` and the whole Set-Cookie header. */
async function signIn(tenantId: string, cookie?: string): Promise<{ cookie: string; header: string; token: string }> {
  const res = await t.inject({ method: 'GET', url: (await link(tenantId)).path, headers: cookie ? { cookie } : {} });
  expect(res.statusCode).toBe(303);
  const header = String(res.headers['set-cookie']);
  const pair = header.split(';')[0] as string;
  return { cookie: pair, header, token: pair.split('=')[1] as string };
}

const credits = (headers: Record<string, string>) => t.inject({ method: 'GET', url: '/v1/credits', headers });

it('under https the link is https, and the session cookie is __Host-, Secure, HttpOnly, SameSite=Lax', async () => {
  const minted = await link(acme.tenant_id);
  expect(minted.url).toMatch(/^https:\/\/console\.example\/dashboard\/sign_in\/dl_[A-Za-z0-9_-]{43}$/);
  const lifetime = Date.parse(minted.expires_at) - Date.now();
  expect(lifetime).toBeGreaterThan(14 * 60_000);
  expect(lifetime).toBeLessThanOrEqual(15 * 60_000 + 1000);

  const { header, token } = await signIn(acme.tenant_id);
  expect(header).toMatch(/^__Host-vap_dashboard=ds_[A-Za-z0-9_-]{43}; /);
  for (const attribute of ['Path=/', 'HttpOnly', 'Secure', 'SameSite=Lax']) expect(header).toContain(attribute);
  expect(header).not.toMatch(/Domain=/i);
  expect((await credits({ cookie: `__Host-vap_dashboard=${token}` })).statusCode).toBe(200);
  // The plain name is what a sibling subdomain could plant: not accepted on https.
  expect((await credits({ cookie: `vap_dashboard=${token}` })).statusCode).toBe(401);
});

it('a session past its expiry is refused, by the API and by the pages', async () => {
  const { cookie, token } = await signIn(acme.tenant_id);
  expect((await credits({ cookie })).statusCode).toBe(200);
  const { createHash } = await import('node:crypto');
  await t.db.pool.query(
    `UPDATE dashboard_sessions SET expires_at = now() - interval '1 second' WHERE session_hash = $1`,
    [createHash('sha256').update(token).digest('hex')],
  );
  const refused = await credits({ cookie });
  expect(refused.statusCode).toBe(401);
  expect(refused.json<{ error: { type: string } }>().error.type).toBe('authentication');
  const page = await t.inject({ method: 'GET', url: '/dashboard/credits', headers: { cookie } });
  expect(page.statusCode).toBe(303);
  expect(page.headers.location).toBe('/dashboard/login?next=%2Fdashboard%2Fcredits');
});

it("signing in again in the same browser ends that browser's earlier session", async () => {
  const first = await signIn(acme.tenant_id);
  const second = await signIn(acme.tenant_id, first.cookie);
  expect((await credits({ cookie: first.cookie })).statusCode).toBe(401);
  expect((await credits({ cookie: second.cookie })).statusCode).toBe(200);
});

it("an API key outranks a session cookie: the key's tenant is served", async () => {
  const { cookie } = await signIn(acme.tenant_id);
  await t.asTenant(other.api_key, {
    method: 'PATCH',
    url: '/v1/credits',
    payload: { threshold_cents: 777 },
  });
  const both = await t.asTenant(other.api_key, { method: 'GET', url: '/v1/credits', headers: { cookie } });
  expect(both.json<{ threshold_cents: number }>().threshold_cents).toBe(777);
  const cookieOnly = await credits({ cookie });
  expect(cookieOnly.json<{ threshold_cents: number }>().threshold_cents).toBe(0);
  // A malformed Authorization header is judged as such, never replaced by the cookie.
  expect((await credits({ cookie, authorization: 'Basic abc' })).statusCode).toBe(401);
});

it('sign-out needs the CSRF token, ends the session even when asked twice, and clears the cookie', async () => {
  const { cookie } = await signIn(acme.tenant_id);
  expect((await t.inject({ method: 'POST', url: '/dashboard/sign_out', headers: { cookie } })).statusCode).toBe(403);
  const page = await t.inject({ method: 'GET', url: '/dashboard', headers: { cookie } });
  const csrf = /name="csrf-token" content="([^"]+)"/.exec(page.body)?.[1];
  expect(csrf).toBeDefined();
  for (let i = 0; i < 2; i++) {
    const out = await t.inject({
      method: 'POST',
      url: '/dashboard/sign_out',
      headers: { cookie, 'x-csrf-token': csrf as string },
    });
    expect(out.statusCode).toBe(200);
    expect(String(out.headers['set-cookie'])).toMatch(/^__Host-vap_dashboard=; .*Expires=Thu, 01 Jan 1970/);
  }
  expect((await credits({ cookie })).statusCode).toBe(401);
});
