/**
 * Dashboard sign-in in process, with BASE_URL on https: the `__Host-` cookie with `Secure`, a cookie
 * of the plain name refused there, sessions that expire and end, one session per browser, and an
 * API key that outranks any cookie; opening a link signs nobody in (its page's POST does, from this
 * site only); a suspension and the operator end a tenant's sessions on every instance. Links and
 * sessions live in the real test database.
 */
import { createHash } from 'node:crypto';
import { startTestApp, TestApp, type CreatedTenant } from '../../support/app';

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

const tokenOf = (path: string): string => path.split('/').pop() as string;

/** The sign-in page's button: POST /dashboard/sign_in with the link's token. */
const redeem = (token: string, headers: Record<string, string> = {}) =>
  t.inject({ method: 'POST', url: '/dashboard/sign_in', headers, payload: { token } });

/** Opens a link and presses its button; returns the session cookie's `name=value` and the whole Set-Cookie header. */
async function signIn(tenantId: string, cookie?: string): Promise<{ cookie: string; header: string; token: string }> {
  const { path } = await link(tenantId);
  expect((await t.inject({ method: 'GET', url: path })).statusCode).toBe(200);
  const res = await redeem(tokenOf(path), cookie ? { cookie } : {});
  expect(res.statusCode).toBe(200);
  expect(res.json()).toEqual({ signed_in: true, next: '/dashboard' });
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

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');
const linkRow = async (token: string) =>
  (await t.db.pool.query('SELECT used_at FROM dashboard_links WHERE token_hash = $1', [hashOf(token)])).rows[0] as {
    used_at: Date | null;
  };

describe('opening a sign-in link signs nobody in: its page POSTs the token (login CSRF, mail scanners)', () => {
  it('a GET shows the page naming the account, uses nothing and sets no cookie; the POST signs in once', async () => {
    const { path } = await link(acme.tenant_id);
    const token = tokenOf(path);
    // A mail scanner opening the link, twice.
    for (let i = 0; i < 2; i++) {
      const page = await t.inject({ method: 'GET', url: path });
      expect(page.statusCode).toBe(200);
      expect(page.headers['set-cookie']).toBeUndefined();
      expect(page.headers['cache-control']).toBe('no-store');
      expect(page.headers['referrer-policy']).toBe('no-referrer');
      expect(page.body).toContain('<meta name="dashboard-notice" content="sign_in">');
      expect(page.body).toContain('<meta name="sign-in-account" content="Acme">');
    }
    expect((await linkRow(token)).used_at).toBeNull();
    const signedIn = await redeem(token);
    expect(signedIn.statusCode).toBe(200);
    expect(String(signedIn.headers['set-cookie'])).toMatch(/^__Host-vap_dashboard=ds_/);
    expect((await linkRow(token)).used_at).not.toBeNull();
    // Used: the POST is a 410 and the page says the link cannot be used.
    const again = await redeem(token);
    expect(again.statusCode).toBe(410);
    expect(again.json<{ error: { type: string; param: string } }>().error).toMatchObject({
      type: 'gone',
      param: 'token',
    });
    expect(again.headers['set-cookie']).toBeUndefined();
    const page = await t.inject({ method: 'GET', url: path });
    expect(page.statusCode).toBe(410);
    expect(page.body).toContain('content="link_refused"');
  });

  it('a sign-in POST sent by another site is refused and uses nothing; the link still works here', async () => {
    const { path } = await link(acme.tenant_id);
    const token = tokenOf(path);
    const crossSite: Record<string, string>[] = [
      { origin: 'https://evil.example' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site', origin: 'https://console.example' },
    ];
    for (const headers of crossSite) {
      const res = await redeem(token, headers);
      expect(res.statusCode).toBe(403);
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    expect((await linkRow(token)).used_at).toBeNull();
    const form = await t.inject({
      method: 'POST',
      url: '/dashboard/sign_in',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `token=${token}`,
    });
    expect(form.statusCode).toBe(415);
    const ours = await redeem(token, { origin: 'https://console.example', 'sec-fetch-site': 'same-origin' });
    expect(ours.statusCode).toBe(200);
  });

  it('malformed sign-in POSTs are 400s with the error body', async () => {
    for (const [payload, param] of [
      [{}, 'token'],
      [{ token: 5 }, 'token'],
      [{ token: 'x'.repeat(101) }, 'token'],
      [{ token: 'dl_x', next: '/dashboard' }, 'next'],
    ] as const) {
      const res = await t.inject({ method: 'POST', url: '/dashboard/sign_in', payload });
      expect(res.statusCode).toBe(400);
      expect(res.json<{ error: { param?: string } }>().error.param).toBe(param);
    }
    expect(
      (await t.inject({ method: 'POST', url: '/dashboard/sign_in', payload: { token: 'nonsense' } })).statusCode,
    ).toBe(410);
  });
});

describe('ending a tenant’s dashboard sessions, on every instance', () => {
  let second: TestApp;

  beforeAll(async () => {
    // Another instance on the same database, with its own caches.
    second = await startTestApp({
      env: { BASE_URL: 'https://console.example' },
      database: t.db,
      adminToken: t.adminToken,
    });
  });
  afterAll(async () => {
    await second?.close();
  });

  const creditsOn = (app: TestApp, cookie: string) =>
    app.inject({ method: 'GET', url: '/v1/credits', headers: { cookie } });

  it('a suspension ends every session of the tenant; it cannot sign in while suspended; reactivation revives none', async () => {
    const tenant = await t.createTenant('Suspended Co');
    const a = await signIn(tenant.tenant_id);
    const b = await signIn(tenant.tenant_id);
    const bystander = await signIn(acme.tenant_id);
    const unused = await link(tenant.tenant_id);
    // Both instances have served (and cached what they cache of) the sessions.
    for (const app of [t, second])
      for (const s of [a, b]) expect((await creditsOn(app, s.cookie)).statusCode).toBe(200);

    const suspended = await second.admin({ method: 'POST', url: `/admin/v1/tenants/${tenant.tenant_id}/suspend` });
    expect(suspended.statusCode).toBe(200);
    for (const app of [t, second]) {
      for (const s of [a, b]) {
        expect((await creditsOn(app, s.cookie)).statusCode).toBe(401);
        const page = await app.inject({ method: 'GET', url: '/dashboard', headers: { cookie: s.cookie } });
        expect(page.statusCode).toBe(303);
      }
    }
    const { rows } = await t.db.pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM dashboard_sessions WHERE tenant_id = $1 AND ended_at IS NULL',
      [tenant.tenant_id],
    );
    expect(rows[0]!.n).toBe(0);
    expect((await creditsOn(t, bystander.cookie)).statusCode).toBe(200);

    // While suspended: a link minted before cannot be used, none can be minted.
    expect((await t.inject({ method: 'GET', url: unused.path })).statusCode).toBe(410);
    expect((await redeem(tokenOf(unused.path))).statusCode).toBe(410);
    const minted = await t.admin({ method: 'POST', url: `/admin/v1/tenants/${tenant.tenant_id}/dashboard_links` });
    expect(minted.statusCode).toBe(409);

    await t.admin({ method: 'POST', url: `/admin/v1/tenants/${tenant.tenant_id}/reactivate` });
    for (const s of [a, b]) expect((await creditsOn(t, s.cookie)).statusCode).toBe(401);
    const fresh = await signIn(tenant.tenant_id);
    expect((await creditsOn(second, fresh.cookie)).statusCode).toBe(200);
  });

  it('DELETE /admin/v1/tenants/{id}/dashboard_sessions ends them all at once (200 with the count)', async () => {
    const tenant = await t.createTenant('Signed Out Co');
    const sessions = [await signIn(tenant.tenant_id), await signIn(tenant.tenant_id), await signIn(tenant.tenant_id)];
    const bystander = await signIn(acme.tenant_id);
    for (const s of sessions) expect((await creditsOn(second, s.cookie)).statusCode).toBe(200);

    const ended = await t.admin({ method: 'DELETE', url: `/admin/v1/tenants/${tenant.tenant_id}/dashboard_sessions` });
    expect(ended.statusCode).toBe(200);
    expect(ended.json()).toEqual({ tenant_id: tenant.tenant_id, ended: 3 });
    for (const app of [t, second])
      for (const s of sessions) expect((await creditsOn(app, s.cookie)).statusCode).toBe(401);
    expect((await creditsOn(second, bystander.cookie)).statusCode).toBe(200);

    const again = await t.admin({ method: 'DELETE', url: `/admin/v1/tenants/${tenant.tenant_id}/dashboard_sessions` });
    expect(again.json()).toEqual({ tenant_id: tenant.tenant_id, ended: 0 });
    // A new sign-in works afterwards.
    expect((await creditsOn(t, (await signIn(tenant.tenant_id)).cookie)).statusCode).toBe(200);

    const unknown = await t.admin({ method: 'DELETE', url: '/admin/v1/tenants/ten_unknown/dashboard_sessions' });
    expect(unknown.statusCode).toBe(404);
    const anonymous = await t.inject({
      method: 'DELETE',
      url: `/admin/v1/tenants/${tenant.tenant_id}/dashboard_sessions`,
    });
    expect(anonymous.statusCode).toBe(401);
  });
});
