/**
 * Signing in to the dashboard, and what it refuses, in a real browser (Debian's chromium driven by
 * playwright-core) against the service as `node dist/main.js` with a real SMTP server: one-time
 * links from the operator and by e-mail (opening one signs nobody in: its page's button does), the
 * HttpOnly SameSite=Lax session, sign-out; reused, expired and made-up links, links opened by a
 * mail scanner, another site trying to sign the browser in, a missing or forged CSRF token, another
 * tenant's ids, malformed input; a session that outlives kill -9.
 */
import { CallsService, placeCall } from '../../support/calls-harness';
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FROM } from '../../support/campaigns-harness';
import {
  dashboardLink,
  DashboardRig,
  expectClean,
  followSignInLink,
  screenshot,
  startDashboardRig,
  unlabelled,
  watch,
} from '../../support/dashboard-harness';
import { eventually } from '../../support/eventually';
import { createEndpoint, decodeMailText, SmtpSink, startReceiver, TenantInfo } from '../../support/webhooks-harness';

jest.setTimeout(180_000);

let rig: DashboardRig;
let h: CallsService;
let smtp: SmtpSink;
let tenant: TenantInfo;
let other: TenantInfo;

beforeAll(async () => {
  rig = await startDashboardRig();
  ({ h, smtp, tenant, other } = rig);
});

afterAll(async () => {
  await rig?.close();
});

const api = <T = any>(method: string, path: string, body?: unknown, who?: TenantInfo) =>
  rig.api<T>(method, path, body, who);
const open: DashboardRig['open'] = (who, options) => rig.open(who, options);

describe('signing in', () => {
  it('a one-time link signs in once, into an HttpOnly SameSite=Lax session; reused or expired links are refused', async () => {
    const context = await rig.blank();
    const page = await context.newPage();
    const seen = watch(page, h.svc.baseUrl);
    const link = await dashboardLink(h.call, h.svc.adminToken, tenant.tenant_id);
    expect(link).toMatch(new RegExp(`^${h.svc.baseUrl}/dashboard/sign_in/dl_[A-Za-z0-9_-]{43}$`));

    // A mail scanner follows the link first, twice: that uses nothing.
    for (let i = 0; i < 2; i++) expect((await fetch(link, { redirect: 'manual' })).status).toBe(200);
    const first = await page.goto(link);
    expect(first?.status()).toBe(200);
    await page.getByRole('heading', { level: 1, name: 'Sign in to your dashboard' }).waitFor();
    await page.getByText('signs you in to the dashboard of Dashboard Co').waitFor();
    expect(await context.cookies()).toEqual([]);
    expect(await unlabelled(page)).toEqual([]);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL((u) => u.pathname === '/dashboard');
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    const [cookie] = await context.cookies();
    expect(cookie).toMatchObject({ name: 'vap_dashboard', httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(cookie?.secure).toBe(false); // http:// here; `Secure` under https
    expect(await page.evaluate('document.cookie')).toBe(''); // the page's script cannot read it
    expectClean(seen);

    // The same link again, from another browser: refused, and it signs nobody in.
    const stranger = await rig.blank();
    const strangerPage = await stranger.newPage();
    const again = await strangerPage.goto(link);
    expect(again?.status()).toBe(410);
    await strangerPage.getByRole('heading', { name: 'This sign-in link cannot be used' }).waitFor();
    expect(await stranger.cookies()).toEqual([]);

    // A link past its 15 minutes: its expiry moved into the past in the real database.
    const late = await dashboardLink(h.call, h.svc.adminToken, tenant.tenant_id);
    await h.db.pool.query(`UPDATE dashboard_links SET expires_at = now() - interval '1 second' WHERE used_at IS NULL`);
    expect((await strangerPage.goto(late))?.status()).toBe(410);
    expect(await stranger.cookies()).toEqual([]);
    // A made-up token, and a malformed one.
    expect((await strangerPage.goto(`${h.svc.baseUrl}/dashboard/sign_in/dl_${'A'.repeat(43)}`))?.status()).toBe(410);
    expect((await strangerPage.goto(`${h.svc.baseUrl}/dashboard/sign_in/nonsense`))?.status()).toBe(410);
    expect(await stranger.cookies()).toEqual([]);

    const minted = await h.call('POST', '/admin/v1/tenants/ten_unknown/dashboard_links', { token: h.svc.adminToken });
    expect(minted.status).toBe(404);
    expect((await h.call('POST', `/admin/v1/tenants/${tenant.tenant_id}/dashboard_links`)).status).toBe(401);
  });

  it('a signed-out visit goes through the e-mailed link and back to the page; sign-out ends the session', async () => {
    const campaign = (
      await api('POST', '/v1/campaigns', { name: 'Deep link', from_number: FROM, test_mode: true, contacts: [] })
    ).body;
    const context = await rig.blank();
    const page = await context.newPage();
    const seen = watch(page, h.svc.baseUrl);
    await page.goto(`${h.svc.baseUrl}/dashboard/campaigns/${campaign.campaign_id}`);
    expect(new URL(page.url()).pathname).toBe('/dashboard/login');
    await screenshot(page, 'sign-in');
    expect(await unlabelled(page)).toEqual([]);

    const before = smtp.mails.length;
    await page.getByLabel('E-mail address of your account').fill(tenant.email.toUpperCase());
    await page.getByRole('button', { name: 'E-mail me a sign-in link' }).click();
    await page.getByRole('status').filter({ hasText: 'a sign-in link is on its way' }).waitFor();
    const mail = await eventually(
      () => smtp.mails.slice(before).find((m) => m.to.includes(tenant.email)) ?? false,
      10_000,
    );
    const url = new RegExp(`${h.svc.baseUrl}/dashboard/sign_in/dl_[A-Za-z0-9_-]{43}`).exec(
      decodeMailText(mail.raw),
    )?.[0];
    expect(url).toBeDefined();

    // An address nobody has gets the same answer and no e-mail.
    const unknown = await h.call('POST', '/dashboard/login', { body: { email: 'nobody@nowhere.example' } });
    expect(unknown.status).toBe(202);
    const bad = await h.call('POST', '/dashboard/login', { body: { email: 'not an address' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ type: 'invalid_request', param: 'email' });

    await followSignInLink(page, url as string);
    expect(new URL(page.url()).pathname).toBe(`/dashboard/campaigns/${campaign.campaign_id}`);
    await page.getByRole('heading', { level: 1, name: 'Campaign Deep link' }).waitFor();
    expect(smtp.mails.slice(before).filter((m) => m.to.includes('nobody@nowhere.example'))).toEqual([]);

    const cookie = (await context.cookies())[0]?.value as string;
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/dashboard\/login$/);
    expect(await context.cookies()).toEqual([]);
    // The old cookie is worth nothing now, anywhere.
    const replayed = await h.call('GET', '/v1/credits', { headers: { cookie: `vap_dashboard=${cookie}` } });
    expect(replayed.status).toBe(401);
    await page.goto(`${h.svc.baseUrl}/dashboard`);
    expect(new URL(page.url()).pathname).toBe('/dashboard/login');
    expectClean(seen);
  });
});

describe('login CSRF: another site cannot sign a browser in', () => {
  let evil: Server;
  let evilUrl: string;

  beforeAll(async () => {
    // Another site: `localhost` is not the service's `127.0.0.1`.
    evil = createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Evil</title>'),
    );
    await new Promise<void>((resolve) => evil.listen(0, '127.0.0.1', resolve));
    evilUrl = `http://localhost:${(evil.address() as AddressInfo).port}/`;
  });
  afterAll(async () => {
    await new Promise((resolve) => evil.close(resolve));
  });

  it("sending the browser to the attacker's own link, or posting its token, signs the browser in to nothing", async () => {
    // The attacker's own account's link, which it would like the victim to be signed in with.
    const link = await dashboardLink(h.call, h.svc.adminToken, other.tenant_id);
    const token = /dl_[A-Za-z0-9_-]{43}$/.exec(link)?.[0] as string;
    const context = await rig.blank();
    const page = await context.newPage();
    await page.goto(evilUrl);
    // A cross-site POST of the token: text/plain (a "simple" request), then a form.
    await page.evaluate(
      async ([target, t]) => {
        await fetch(`${target}/dashboard/sign_in`, {
          method: 'POST',
          mode: 'no-cors',
          credentials: 'include',
          headers: { 'content-type': 'text/plain' },
          body: JSON.stringify({ token: t }),
        });
      },
      [h.svc.baseUrl, token] as const,
    );
    const json = await page.evaluate(
      async ([target, t]) =>
        fetch(`${target}/dashboard/sign_in`, {
          method: 'POST',
          credentials: 'include',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ token: t }),
        }).then(
          (r) => r.status,
          () => 'blocked',
        ),
      [h.svc.baseUrl, token] as const,
    );
    expect(json).toBe('blocked'); // no CORS preflight is ever allowed
    await Promise.all([
      page.waitForURL((u) => u.pathname === '/dashboard/sign_in'),
      // Evaluated in the page (this tsconfig has no DOM types, so the script is a string).
      page.evaluate(`(() => {
        const form = document.createElement('form');
        form.method = 'POST';
        form.action = ${JSON.stringify(`${h.svc.baseUrl}/dashboard/sign_in`)};
        const input = document.createElement('input');
        input.name = 'token';
        input.value = ${JSON.stringify(token)};
        form.append(input);
        document.body.append(form);
        form.submit();
      })()`),
    ]);
    expect(await context.cookies()).toEqual([]);
    // The top-level navigation to the link that signed a browser in before: now only its page.
    await page.goto(evilUrl);
    await Promise.all([
      page.waitForURL((u) => u.pathname.startsWith('/dashboard/sign_in/')),
      page.evaluate(`window.location.href = ${JSON.stringify(link)}`),
    ]);
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    expect(await context.cookies()).toEqual([]);
    const { rows } = await h.db.pool.query(`SELECT used_at FROM dashboard_links WHERE token_hash = $1`, [
      createHash('sha256').update(token).digest('hex'),
    ]);
    expect(rows).toEqual([{ used_at: null }]);
  });
});

describe('refusals', () => {
  it('a state change without the CSRF token, or with another, is refused and changes nothing', async () => {
    const { page } = await open();
    const attempt = (headers: Record<string, string>) =>
      page.evaluate(async (h) => {
        const res = await fetch('/v1/credits', {
          method: 'PATCH',
          headers: { 'content-type': 'application/json', ...h },
          body: JSON.stringify({ threshold_cents: 4242 }),
        });
        return { status: res.status, body: (await res.json()) as { error: { type: string } } };
      }, headers);
    const missing = await attempt({});
    expect(missing.status).toBe(403);
    expect(missing.body.error.type).toBe('forbidden');
    expect((await attempt({ 'x-csrf-token': 'forged' })).status).toBe(403);
    const signOut = await page.evaluate(async () => (await fetch('/dashboard/sign_out', { method: 'POST' })).status);
    expect(signOut).toBe(403);
    expect((await api('GET', '/v1/credits')).body.threshold_cents).not.toBe(4242);
    // Reads need no token; the page's own token is accepted.
    const token = await page.locator('meta[name="csrf-token"]').getAttribute('content');
    expect((await attempt({ 'x-csrf-token': token as string })).status).toBe(200);
    expect((await api('GET', '/v1/credits')).body.threshold_cents).toBe(4242);
  });

  it("another tenant's ids and unknown ids show a not-found page (404) with nothing of the resource", async () => {
    const theirs = await placeCall(h.call, other.api_key, '+14155550100', { testMode: true });
    const theirReceiver = await startReceiver();
    const theirEndpoint = await createEndpoint(h.call, other.api_key, {
      url: theirReceiver.url,
      description: 'their CRM',
    });
    const theirCampaign = (
      await api(
        'POST',
        '/v1/campaigns',
        { name: 'Their secret plan', from_number: FROM, test_mode: true, contacts: [] },
        other,
      )
    ).body;
    const theirRoom = (await api('POST', '/v1/rooms', { client_reference_id: 'their-lead' }, other)).body;
    const theirNumber = (
      await api('POST', '/v1/phone_numbers', { phone_number: '+14155558888', agent_config: { prompt: 'Hi' } }, other)
    ).body;
    const theirTopup = (await api('POST', '/v1/credits/topups', { amount_cents: 500 }, other)).body;
    for (const made of [theirRoom.room_id, theirNumber.phone_number_id, theirTopup.topup_id])
      expect(made).toBeDefined();
    const { page } = await open();
    for (const path of [
      `/dashboard/rooms/${theirRoom.room_id}`,
      `/dashboard/phone_numbers/${theirNumber.phone_number_id}`,
      `/dashboard/topups/${theirTopup.topup_id}`,
      `/dashboard/sessions/${theirs.session_id}`,
      `/dashboard/webhook_endpoints/${theirEndpoint.id}`,
      `/dashboard/campaigns/${theirCampaign.campaign_id}`,
      '/dashboard/sessions/ses_unknown',
      '/dashboard/rooms/room_unknown',
      '/dashboard/nothing/here',
      '/dashboard/nothing',
      '/dashboard/topups',
    ]) {
      const res = await page.goto(`${h.svc.baseUrl}${path}`);
      expect([path, res?.status()]).toEqual([path, 404]);
      await page.getByRole('heading', { level: 1, name: 'Not found' }).waitFor();
      const html = await page.content();
      for (const secret of [
        theirReceiver.url,
        'their CRM',
        'Their secret plan',
        'their-lead',
        '+14155558888',
        other.tenant_id,
      ]) {
        expect(html).not.toContain(secret);
      }
    }
    // Leaving the not-found page by its link shows the page asked for, not "Not found" again.
    await page.getByRole('link', { name: 'Back to the overview' }).click();
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Credits' }).click();
    await page.getByRole('heading', { level: 1, name: 'Credits' }).waitFor();
    // The API behind the pages refuses them just the same.
    const read = await page.evaluate(
      async (id) => (await fetch(`/v1/webhook_endpoints/${id}`)).status,
      theirEndpoint.id,
    );
    expect(read).toBe(404);
    const token = (await page.locator('meta[name="csrf-token"]').getAttribute('content')) as string;
    const enable = await page.evaluate(
      async ([id, csrf]) =>
        (
          await fetch(`/v1/webhook_endpoints/${id}/rotate_secret`, {
            method: 'POST',
            headers: { 'x-csrf-token': csrf },
          })
        ).status,
      [theirEndpoint.id, token] as const,
    );
    expect(enable).toBe(404);
  });
});

describe('the sign-in routes refuse bad input with a 4xx', () => {
  const raw = (path: string, init: RequestInit = {}) =>
    fetch(`${h.svc.baseUrl}${path}`, { redirect: 'manual', ...init });

  it('a link redeemed by ten requests at once signs in exactly once', async () => {
    const link = await dashboardLink(h.call, h.svc.adminToken, tenant.tenant_id);
    const sessions = async () =>
      (
        await h.db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM dashboard_sessions WHERE tenant_id = $1`, [
          tenant.tenant_id,
        ])
      ).rows[0]?.n ?? 0;
    const before = await sessions();
    const token = /dl_[A-Za-z0-9_-]{43}$/.exec(link)?.[0] as string;
    // Opened ten times at once: nothing used.
    const opened = await Promise.all(Array.from({ length: 10 }, () => raw(new URL(link).pathname)));
    expect(opened.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect(await sessions()).toBe(before);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        raw('/dashboard/sign_in', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ token }),
        }),
      ),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, ...Array(9).fill(410)]);
    const signedIn = answers.find((a) => a.status === 200);
    expect(signedIn?.headers.get('set-cookie')).toMatch(
      /^vap_dashboard=ds_[A-Za-z0-9_-]{43}; .*HttpOnly; SameSite=Lax/,
    );
    expect(await sessions()).toBe(before + 1);
    const { rows } = await h.db.pool.query(`SELECT used_at FROM dashboard_links WHERE token_hash = $1`, [
      createHash('sha256').update(token).digest('hex'),
    ]);
    expect(rows).toHaveLength(1);
    expect(rows[0].used_at).not.toBeNull();
  });

  it('malformed requests to the dashboard routes are 4xx with the error body', async () => {
    const login = (body: string | undefined, type = 'application/json') =>
      raw('/dashboard/login', {
        method: 'POST',
        ...(body === undefined ? {} : { body, headers: { 'content-type': type } }),
      });
    const cases: [string, Response, number, string?][] = [
      ['text body', await login('email=a@b.example', 'text/plain'), 415],
      ['form body', await login('email=a@b.example', 'application/x-www-form-urlencoded'), 415],
      ['no body', await login(undefined), 400],
      ['array', await login('[]'), 400],
      ['not JSON', await login('{"email":'), 400],
      ['number', await login('{"email":5}'), 400, 'email'],
      ['not an address', await login('{"email":"a@b"}'), 400, 'email'],
      ['too long', await login(JSON.stringify({ email: `${'a'.repeat(250)}@b.example` })), 400, 'email'],
      ['unknown field', await login('{"email":"a@b.example","tenant_id":"x"}'), 400, 'tenant_id'],
      ['sign-out signed out', await raw('/dashboard/sign_out', { method: 'POST' }), 401],
      ['garbage cookie', await raw('/v1/credits', { headers: { cookie: 'vap_dashboard=ds_nope' } }), 401],
      ['unknown asset', await raw('/dashboard/assets/nope.js'), 404],
      ['asset outside', await raw('/dashboard/assets/..%2F..%2Fpackage.json'), 404],
      ['bad encoding', await raw('/dashboard/sessions/%E0%A4%A'), 400],
    ];
    for (const [label, res, status, param] of cases) {
      const text = await res.text();
      expect([label, res.status]).toEqual([label, status]);
      if (res.headers.get('content-type')?.includes('json')) {
        const body = JSON.parse(text) as { error: { type: string; param?: string; request_id: string } };
        expect(body.error.request_id).toMatch(/^req_/);
        if (param) expect([label, body.error.param]).toEqual([label, param]);
      }
    }
    // An overlong link is no route of its own: the signed-out visitor is sent to sign in, as for any page.
    const overlong = await raw(`/dashboard/sign_in/${'x'.repeat(5000)}`);
    expect(overlong.status).toBe(303);
    expect(overlong.headers.get('location')).toMatch(/^\/dashboard\/login\?next=/);
    expect(overlong.headers.get('set-cookie')).toBeNull();
    // An API key wins over a cookie: the key's tenant, whatever the cookie says.
    const both = await raw('/v1/credits', {
      headers: { authorization: `Bearer ${other.api_key}`, cookie: 'vap_dashboard=ds_nope' },
    });
    expect(both.status).toBe(200);
    // A `next` outside the dashboard is dropped: the mailed link leads to the dashboard, not away.
    const mailed = smtp.mails.length;
    expect((await login(JSON.stringify({ email: tenant.email, next: 'https://evil.example/' }))).status).toBe(202);
    const mail = await eventually(() => smtp.mails.slice(mailed).find((m) => m.to.includes(tenant.email)) ?? false);
    const url = /\/dashboard\/sign_in\/dl_[A-Za-z0-9_-]{43}/.exec(decodeMailText(mail.raw))?.[0] as string;
    expect((await raw(url)).status).toBe(200);
    const followed = await raw('/dashboard/sign_in', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: url.split('/').pop() }),
    });
    expect(followed.status).toBe(200);
    expect(await followed.json()).toEqual({ signed_in: true, next: '/dashboard' });
  });
});

describe('a crash', () => {
  it('a dashboard session survives kill -9 and a restart, CSRF token and all; a used link stays used', async () => {
    const link = await dashboardLink(h.call, h.svc.adminToken, tenant.tenant_id);
    const context = await rig.blank({ locale: 'en-US', timezoneId: 'UTC' });
    const page = await context.newPage();
    await followSignInLink(page, link);
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();

    h.svc.kill('SIGKILL');
    await h.svc.waitForExit(10_000);
    await h.restart();
    // Cookies are per host, not per port: the restarted service (on a new port) gets the same cookie.
    const seen = watch(page, h.svc.baseUrl);
    const res = await page.goto(`${h.svc.baseUrl}/dashboard/credits`);
    expect(res?.status()).toBe(200);
    await page.getByRole('heading', { level: 1, name: 'Credits' }).waitFor();
    await page.getByLabel('Warn below (USD; 0 for never)').fill('3');
    await page.getByRole('button', { name: 'Save threshold' }).click();
    await eventually(async () => (await page.getByTestId('threshold').innerText()) === '$3.00', 10_000, 100);
    expect((await api('GET', '/v1/credits')).body.threshold_cents).toBe(300);
    expectClean(seen);

    const stranger = await rig.blank();
    expect((await (await stranger.newPage()).goto(link.replace(/^http:\/\/[^/]+/, h.svc.baseUrl)))?.status()).toBe(410);
  });
});
