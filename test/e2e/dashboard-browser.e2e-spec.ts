/**
 * The dashboard in a real browser: the service as `node dist/main.js`, Debian's chromium driven by
 * playwright-core, loopback webhook receivers and a real SMTP server. A tenant signs in through a
 * one-time link (and through an e-mailed one), re-enables a suspended endpoint, pauses and resumes
 * a running campaign, opens a completed test call and plays its recording, rotates a secret and
 * sees it once. Reused and expired links, a missing CSRF token and another tenant's ids are refused.
 * Every page is screenshotted; none requests anything outside the platform or logs a console error.
 */
import type { Browser, BrowserContext } from 'playwright-core';
import { allEvents, CallsService, placeCall, startCallsService, TERMINAL_TYPES } from '../support/calls-harness';
import { ALWAYS, contactsFor, FROM } from '../support/campaigns-harness';
import {
  dashboardLink,
  launchDashboardBrowser,
  PageWatch,
  screenshot,
  signedIn,
  unlabelled,
  watch,
} from '../support/dashboard-harness';
import { eventually } from '../support/eventually';
import { killAllServices } from '../support/process';
import {
  closeAllReceivers,
  createEndpoint,
  createTenant,
  decodeMailText,
  envelopeOf,
  Receiver,
  SmtpSink,
  startReceiver,
  startSmtp,
  TenantInfo,
  verifiesStandard,
} from '../support/webhooks-harness';

jest.setTimeout(180_000);

let h: CallsService;
let smtp: SmtpSink;
let browser: Browser;
let tenant: TenantInfo;
let other: TenantInfo;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  smtp = await startSmtp();
  h = await startCallsService({
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    SIM_TIME_SCALE: '0.01',
    WEBHOOK_RETRY_SCHEDULE: '100ms',
    WEBHOOK_SUSPEND_AFTER: '2',
    TOPUP_SETTLE_DELAY: '200ms',
    SMTP_URL: smtp.url,
  });
  tenant = await createTenant(h.call, h.svc.adminToken, 'Dashboard Co');
  other = await createTenant(h.call, h.svc.adminToken, 'Other Co');
  browser = await launchDashboardBrowser();
});

afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => undefined);
  await browser?.close();
  await closeAllReceivers();
  await smtp?.close();
  await h?.destroy();
  await killAllServices();
});

const api = <T = any>(method: string, path: string, body?: unknown, who: TenantInfo = tenant) =>
  h.call<T>(method, path, { token: who.api_key, ...(body === undefined ? {} : { body }) });

async function open(
  who: TenantInfo = tenant,
  options: { viewport?: { width: number; height: number }; timezoneId?: string } = {},
) {
  const { context, page } = await signedIn(browser, h.call, h.svc.adminToken, who.tenant_id, options);
  contexts.push(context);
  return { context, page, seen: watch(page, h.svc.baseUrl) };
}

function expectClean(seen: PageWatch): void {
  expect(seen.outside).toEqual([]);
  expect(seen.errors).toEqual([]);
}

const signedDeliveries = (receiver: Receiver, secret: string) =>
  receiver.requests.map((r) => {
    if (!verifiesStandard(secret, r)) throw new Error(`unsigned or wrongly signed delivery: ${r.body}`);
    return envelopeOf(r);
  });

describe('signing in', () => {
  it('a one-time link signs in once, into an HttpOnly SameSite=Lax session; reused or expired links are refused', async () => {
    const context = await browser.newContext();
    contexts.push(context);
    const page = await context.newPage();
    const seen = watch(page, h.svc.baseUrl);
    const link = await dashboardLink(h.call, h.svc.adminToken, tenant.tenant_id);
    expect(link).toMatch(new RegExp(`^${h.svc.baseUrl}/dashboard/sign_in/dl_[A-Za-z0-9_-]{43}$`));

    const first = await page.goto(link);
    expect(new URL(page.url()).pathname).toBe('/dashboard');
    expect(first?.status()).toBe(200);
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    const [cookie] = await context.cookies();
    expect(cookie).toMatchObject({ name: 'vap_dashboard', httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(cookie?.secure).toBe(false); // http:// here; `Secure` under https
    expect(await page.evaluate('document.cookie')).toBe(''); // the page's script cannot read it
    expectClean(seen);

    // The same link again, from another browser: refused, and it signs nobody in.
    const stranger = await browser.newContext();
    contexts.push(stranger);
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
    const context = await browser.newContext();
    contexts.push(context);
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

    await page.goto(url as string);
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

describe('acting through the dashboard', () => {
  it('a suspended endpoint is found on the overview and re-enabled; held deliveries go out, signed', async () => {
    let healthy = false;
    const receiver = await startReceiver(() => ({ status: healthy ? 200 : 500 }));
    const endpoint = await createEndpoint(h.call, tenant.api_key, { url: receiver.url, description: 'CRM' });
    const send = async () => expect((await api('POST', `/v1/webhook_endpoints/${endpoint.id}/test`)).status).toBe(202);
    await send();
    await send();
    await eventually(
      async () => (await api('GET', `/v1/webhook_endpoints/${endpoint.id}`)).body.status === 'suspended',
      20_000,
      100,
    );
    // Work done while suspended: a test call whose events are held for the endpoint.
    const session = await placeCall(h.call, tenant.api_key, '+14155550100', { testMode: true });
    await eventually(
      async () =>
        (await allEvents(h.call, tenant.api_key)).some(
          (e) => e.type === 'session.ended' && e.data.session_id === session.session_id,
        ),
      20_000,
      100,
    );
    const triedBefore = receiver.requests.length;

    // The suspension notice links to the endpoint's page.
    const notice = await eventually(
      () => smtp.mails.find((m) => m.to.includes(tenant.email) && m.subject.includes(endpoint.id)) ?? false,
      10_000,
    );
    const pageUrl = `${h.svc.baseUrl}/dashboard/webhook_endpoints/${endpoint.id}`;
    expect(decodeMailText(notice.raw)).toContain(pageUrl);

    const { page, seen } = await open();
    const failing = page.getByRole('article').filter({ hasText: 'Failing endpoints' });
    await failing.getByRole('link', { name: receiver.url }).waitFor();
    await page.goto(pageUrl);
    await page.getByRole('heading', { level: 1, name: `Webhook endpoint ${receiver.url}` }).waitFor();
    await page.locator('.fields .status-suspended').waitFor();
    // Each delivery with its attempts: status, error and duration.
    await page.getByText('HTTP 500').first().waitFor();
    expect(await page.locator('table').innerText()).toMatch(/HTTP 500.*\d+ ms/);
    await screenshot(page, 'webhook-endpoint-suspended');
    expect(receiver.requests.length).toBe(triedBefore); // nothing goes out while suspended

    healthy = true;
    await page.getByRole('button', { name: 'Re-enable' }).click();
    await page.getByRole('status').filter({ hasText: 'Re-enabled' }).waitFor();
    await page.locator('.fields .status-active').waitFor();
    expect((await api('GET', `/v1/webhook_endpoints/${endpoint.id}`)).body.status).toBe('active');
    const held = await eventually(() => {
      const got = signedDeliveries(receiver, endpoint.secret).filter((e) => e.data.session_id === session.session_id);
      return got.some((e) => e.type === 'session.ended') && got;
    }, 20_000);
    expect(held.map((e) => e.type)).toContain('session.created');

    // "Retry" sends a delivery that failed again; "Send test event" sends a new one.
    const testIds = signedDeliveries(receiver, endpoint.secret)
      .filter((e) => e.type === 'webhook.test')
      .map((e) => e.id);
    await page.getByRole('button', { name: 'Send test event' }).click();
    await eventually(
      () =>
        signedDeliveries(receiver, endpoint.secret).filter((e) => e.type === 'webhook.test').length > testIds.length,
    );
    const failed = page
      .getByRole('row')
      .filter({ hasText: 'webhook.test' })
      .filter({ has: page.locator('.status-failed') });
    await failed.first().waitFor();
    const retryButton = failed.first().getByRole('button', { name: /^Retry webhook\.test/ });
    const retriedId = /\(([^)]+)\)$/.exec((await retryButton.getAttribute('aria-label')) ?? '')?.[1];
    expect(retriedId).toBeDefined();
    await retryButton.click();
    const retried = await eventually(async () => {
      const rows = (await api('GET', `/v1/webhook_endpoints/${endpoint.id}/deliveries`)).body.data as any[];
      const row = rows.find((d) => d.delivery_id === retriedId);
      return row?.status === 'succeeded' && row;
    }, 10_000);
    expect(retried.attempts.at(-1).http_status).toBe(200);
    // The page shows the new attempt without a reload.
    await page
      .getByRole('row')
      .filter({ has: page.getByRole('button', { name: `Retry webhook.test (${retriedId})` }) })
      .getByText('HTTP 200')
      .waitFor();
    expectClean(seen);
  });

  it('a running campaign is paused with "Pause" (campaign.paused, reason manual, delivered) and resumed', async () => {
    const receiver = await startReceiver();
    const endpoint = await createEndpoint(h.call, tenant.api_key, { url: receiver.url, events: ['campaign.*'] });
    const numbers = Array.from({ length: 40 }, (_, i) => `+1415555${String(2000 + i)}`);
    const created = await api('POST', '/v1/campaigns', {
      name: 'Spring recall',
      from_number: FROM,
      test_mode: true,
      contacts: contactsFor(numbers),
      settings: { max_concurrency: 1, quiet_hours: ALWAYS },
    });
    expect(created.status).toBe(201);
    const id = created.body.campaign_id as string;

    const { page, seen } = await open();
    await page.goto(`${h.svc.baseUrl}/dashboard/campaigns`);
    await page.getByRole('link', { name: 'Spring recall' }).click();
    await page.getByRole('heading', { level: 1, name: 'Campaign Spring recall' }).waitFor();
    await page.getByRole('button', { name: 'Start' }).click();
    await page.locator('.status-running').first().waitFor();
    // Live progress: the completed count rises on the open page, without a reload.
    const completed = page.getByTestId('count-completed');
    await eventually(async () => Number(await completed.innerText()) >= 2, 30_000, 100);
    await screenshot(page, 'campaign-running');

    await page.getByRole('button', { name: 'Pause' }).click();
    await page.locator('.status-paused').first().waitFor();
    const paused = await eventually(() =>
      signedDeliveries(receiver, endpoint.secret).find(
        (e) => e.type === 'campaign.paused' && e.data.campaign_id === id,
      ),
    );
    expect(paused && paused.data.reason).toBe('manual');
    const at = Number(await completed.innerText());
    expect(at).toBeLessThan(numbers.length);

    await page.getByRole('button', { name: 'Resume' }).click();
    await page.locator('.status-running').first().waitFor();
    await eventually(() =>
      signedDeliveries(receiver, endpoint.secret).some(
        (e) => e.type === 'campaign.resumed' && e.data.campaign_id === id,
      ),
    );
    await eventually(async () => Number(await completed.innerText()) > at, 30_000, 100);
    expect((await api('GET', `/v1/campaigns/${id}`)).body.status).toBe('running');
    await api('POST', `/v1/campaigns/${id}/pause`); // no need to dial the rest
    expectClean(seen);
  });

  it('a completed test call shows its timeline and transcript, and its recording plays', async () => {
    const session = await placeCall(h.call, tenant.api_key, '+14155550100', { testMode: true });
    const done = await eventually(
      async () => {
        const s = (await api('GET', `/v1/sessions/${session.session_id}`)).body;
        return s.status === 'completed' && s.recording?.status === 'available' && s;
      },
      30_000,
      100,
    );

    // A viewer in New York sees New York times.
    const { page, seen } = await open(tenant, { timezoneId: 'America/New_York' });
    await page.goto(`${h.svc.baseUrl}/dashboard/sessions?status=completed`);
    await page.getByRole('link', { name: session.session_id }).click();
    await page.getByRole('heading', { level: 1, name: `Session ${session.session_id}` }).waitFor();
    const inNewYork = new Intl.DateTimeFormat('en-US', {
      dateStyle: 'medium',
      timeStyle: 'medium',
      timeZone: 'America/New_York',
    }).format(new Date(done.created_at));
    expect(await page.locator('.fields div').filter({ hasText: 'Created at' }).locator('dd').innerText()).toBe(
      inNewYork,
    );
    await page.getByTitle('Times are shown in this zone').getByText('America/New_York').waitFor();
    const transcript = page.getByRole('list', { name: 'Transcript' });
    for (const turn of done.transcript as { content?: string }[]) {
      if (turn.content) await transcript.getByText(turn.content, { exact: false }).first().waitFor();
    }
    const timeline = page.getByRole('list', { name: 'Events timeline' });
    await timeline.getByText('session.ended').waitFor();
    expect(await timeline.getByRole('listitem').count()).toBe(
      (await api('GET', `/v1/sessions/${session.session_id}/events`)).body.data.length,
    );

    // Runs in the page: `el` is the <audio> element (no DOM types in this tsconfig).
    const played = await page.getByLabel('Call recording').evaluate(async (el: any) => {
      const audio = el as {
        muted: boolean;
        play(): Promise<void>;
        duration: number;
        currentTime: number;
        error: { code: number } | null;
      };
      audio.muted = true;
      await audio.play();
      await new Promise((resolve) => setTimeout(resolve, 600));
      return { duration: audio.duration, time: audio.currentTime, error: audio.error?.code ?? null };
    });
    expect(played.error).toBeNull();
    expect(played.duration).toBeGreaterThan(0);
    expect(played.time).toBeGreaterThan(0);
    await screenshot(page, 'session');
    expect(TERMINAL_TYPES.has('session.ended')).toBe(true);
    expectClean(seen);
  });

  it('"Rotate secret" shows the new secret once, and the next delivery is signed with it', async () => {
    const receiver = await startReceiver();
    const endpoint = await createEndpoint(h.call, tenant.api_key, { url: receiver.url, events: ['webhook.test'] });
    const { page, seen } = await open();
    await page.goto(`${h.svc.baseUrl}/dashboard/webhook_endpoints/${endpoint.id}`);
    page.once('dialog', (d) => void d.accept());
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    const shown = await page.getByTestId('new-secret').innerText();
    expect(shown).toMatch(/^whsec_/);
    expect(shown).not.toBe(endpoint.secret);
    await screenshot(page, 'webhook-endpoint-rotated');

    await page.getByRole('button', { name: 'Send test event' }).click();
    const [delivery] = await eventually(() => receiver.requests.length > 0 && receiver.requests);
    expect(verifiesStandard(shown, delivery!)).toBe(true);
    expect(verifiesStandard(endpoint.secret, delivery!)).toBe(false);

    await page.getByRole('button', { name: 'I have copied it' }).click();
    expect(await page.content()).not.toContain(shown);
    await page.reload();
    await page.getByRole('heading', { level: 1, name: `Webhook endpoint ${receiver.url}` }).waitFor();
    expect(await page.content()).not.toContain(shown);
    expect((await api('GET', `/v1/webhook_endpoints/${endpoint.id}`)).text).not.toContain(shown);
    expectClean(seen);
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
      await api('POST', '/v1/campaigns', { name: 'Their secret plan', from_number: FROM, contacts: [] }, other)
    ).body;
    const { page } = await open();
    for (const path of [
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
      for (const secret of [theirReceiver.url, 'their CRM', 'Their secret plan', other.tenant_id]) {
        expect(html).not.toContain(secret);
      }
    }
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
    const answers = await Promise.all(Array.from({ length: 10 }, () => raw(new URL(link).pathname)));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([303, ...Array(9).fill(410)]);
    const signedIn = answers.find((a) => a.status === 303);
    expect(signedIn?.headers.get('set-cookie')).toMatch(
      /^vap_dashboard=ds_[A-Za-z0-9_-]{43}; .*HttpOnly; SameSite=Lax/,
    );
    const { rows } = await h.db.pool.query(`SELECT count(*)::int AS n FROM dashboard_links WHERE used_at IS NOT NULL`);
    expect(rows[0].n).toBeGreaterThan(0);
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
    // A `next` outside the dashboard is dropped, not followed.
    expect((await login(JSON.stringify({ email: tenant.email, next: 'https://evil.example/' }))).status).toBe(202);
  });
});

describe('every page', () => {
  it('renders with data, labelled, on a laptop and a phone, with nothing from outside and no console error', async () => {
    // Something on every page: a room, a phone number, a listed number, a top-up.
    const room = (await api('POST', '/v1/rooms', { client_reference_id: 'crm-42', agent_config: { prompt: 'Hi' } }))
      .body;
    const number = (
      await api('POST', '/v1/phone_numbers', { phone_number: '+14155557777', agent_config: { prompt: 'Hi' } })
    ).body;
    expect(number.phone_number_id).toBeDefined();

    const { page, seen } = await open();
    await page.goto(`${h.svc.baseUrl}/dashboard/dnc`);
    await page.getByLabel('Phone number (E.164)').fill('+14155559999');
    await page.getByRole('button', { name: 'Add to the list' }).click();
    await page.getByRole('cell', { name: '+14155559999', exact: true }).waitFor();
    await page.goto(`${h.svc.baseUrl}/dashboard/credits`);
    await page.getByLabel('Amount (USD)').fill('25');
    await page.getByRole('button', { name: 'Top up' }).click();
    await eventually(async () => (await page.getByTestId('balance').innerText()).includes('25.00'), 15_000, 100);

    const pages: [string, string, string][] = [
      ['overview', '/dashboard', 'Overview'],
      ['sessions', '/dashboard/sessions', 'Sessions'],
      ['campaigns', '/dashboard/campaigns', 'Campaigns'],
      ['webhook-endpoints', '/dashboard/webhook_endpoints', 'Webhook endpoints'],
      ['events', '/dashboard/events', 'Events'],
      ['dnc', '/dashboard/dnc', 'Do-not-call list'],
      ['credits', '/dashboard/credits', 'Credits'],
      ['voice-clones', '/dashboard/voice_clones', 'Voice clones'],
      ['rooms', '/dashboard/rooms', 'Rooms'],
      ['room', `/dashboard/rooms/${room.room_id}`, `Room ${room.room_id}`],
      ['phone-numbers', '/dashboard/phone_numbers', 'Phone numbers'],
      ['phone-number', `/dashboard/phone_numbers/${number.phone_number_id}`, 'Phone number +14155557777'],
    ];
    for (const [name, path, title] of pages) {
      const res = await page.goto(`${h.svc.baseUrl}${path}`);
      expect([path, res?.status()]).toEqual([path, 200]);
      await page.getByRole('heading', { level: 1, name: title, exact: true }).waitFor();
      await page.getByText('Loading…').first().waitFor({ state: 'detached' });
      expect([path, await unlabelled(page)]).toEqual([path, []]);
      await screenshot(page, name);
    }
    // The overview's figures are the API's (this browser's zone is UTC).
    await page.goto(`${h.svc.baseUrl}/dashboard`);
    const midnight = new Date().setUTCHours(0, 0, 0, 0);
    const today = ((await api('GET', '/v1/sessions?limit=100')).body.data as { created_at: string }[]).filter(
      (x) => Date.parse(x.created_at) >= midnight,
    ).length;
    expect(Number(await page.getByTestId('calls-today').innerText())).toBe(today);
    expect(await page.getByTestId('balance').innerText()).toBe('$25.00');
    // Navigating by the menu, with the keyboard: the current section is marked.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Events' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Events' }).waitFor();
    expect(await page.getByRole('link', { name: 'Events' }).getAttribute('aria-current')).toBe('page');
    expectClean(seen);

    // A phone-sized screen: nothing wider than the screen.
    const phone = await open(tenant, { viewport: { width: 390, height: 844 } });
    for (const path of ['/dashboard', '/dashboard/sessions', '/dashboard/webhook_endpoints']) {
      await phone.page.goto(`${h.svc.baseUrl}${path}`);
      await phone.page.getByText('Loading…').first().waitFor({ state: 'detached' });
      const overflow = await phone.page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
      expect([path, overflow]).toEqual([path, 0]);
    }
    await screenshot(phone.page, 'phone-webhook-endpoints');
    expectClean(phone.seen);
  });
});

describe('a crash', () => {
  it('a dashboard session survives kill -9 and a restart, CSRF token and all; a used link stays used', async () => {
    const link = await dashboardLink(h.call, h.svc.adminToken, tenant.tenant_id);
    const context = await browser.newContext({ locale: 'en-US', timezoneId: 'UTC' });
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(link);
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

    const stranger = await browser.newContext();
    contexts.push(stranger);
    expect((await (await stranger.newPage()).goto(link.replace(/^http:\/\/[^/]+/, h.svc.baseUrl)))?.status()).toBe(410);
  });
});
