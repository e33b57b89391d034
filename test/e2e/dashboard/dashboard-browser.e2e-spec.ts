/**
 * The dashboard at work in a real browser: the service as `node dist/main.js`, Debian's chromium
 * driven by playwright-core, loopback webhook receivers and a real SMTP server. A signed-in tenant
 * re-enables a suspended endpoint (found on the overview and through the suspension e-mail's link),
 * pauses and resumes a running campaign, opens a completed test call and plays its recording, and
 * rotates a secret that it sees once. Every page is screenshotted, labelled and readable on a phone;
 * none requests anything outside the platform or logs a console error.
 */
import { allEvents, CallsService, FROM_NUMBER, placeCall } from '../../support/calls-harness';
import { ALWAYS, contactsFor, FROM } from '../../support/campaigns-harness';
import {
  DashboardRig,
  expectClean,
  screenshot,
  signedDeliveries,
  startDashboardRig,
  unlabelled,
} from '../../support/dashboard-harness';
import { eventually } from '../../support/eventually';
import {
  assignNumber,
  createEndpoint,
  createTenant,
  decodeMailText,
  SmtpSink,
  startReceiver,
  TenantInfo,
  verifiesStandard,
} from '../../support/webhooks-harness';

jest.setTimeout(180_000);

let rig: DashboardRig;
let h: CallsService;
let smtp: SmtpSink;
let tenant: TenantInfo;

beforeAll(async () => {
  rig = await startDashboardRig();
  ({ h, smtp, tenant } = rig);
});

afterAll(async () => {
  await rig?.close();
});

const api = <T = any>(method: string, path: string, body?: unknown, who?: TenantInfo) =>
  rig.api<T>(method, path, body, who);
const open: DashboardRig['open'] = (who, options) => rig.open(who, options);

describe('acting through the dashboard', () => {
  it('a suspended endpoint is found on the overview and re-enabled; held deliveries go out, signed', async () => {
    let healthy = false;
    const receiver = await startReceiver(() =>
      healthy ? { status: 200, body: '{"ok":true}' } : { status: 500, body: 'receiver down for maintenance' },
    );
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
    // "Retry" only on the deliveries that failed for good; "Re-enable" is there, for it is suspended.
    const rows = page.getByRole('region', { name: 'Deliveries' }).locator('tbody tr');
    expect(await rows.filter({ has: page.getByRole('button', { name: /^Retry / }) }).count()).toBe(
      await rows.filter({ has: page.locator('.status-failed') }).count(),
    );
    await page.getByRole('button', { name: 'Re-enable' }).waitFor();
    await screenshot(page, 'webhook-endpoint-suspended');
    // A delivery's payload and the receiver's answer, opened with the keyboard.
    const firstRow = rows.filter({ has: page.locator('.status-failed') }).first();
    await firstRow.getByRole('button', { name: /^Show payload and answer of webhook\.test/ }).focus();
    await page.keyboard.press('Enter');
    const body = page.locator('tr.expanded .delivery-body');
    await body.getByText('receiver down for maintenance').first().waitFor();
    expect(await firstRow.getByRole('button', { name: /^Hide payload and answer/ }).getAttribute('aria-expanded')).toBe(
      'true',
    );
    const shownPayload = JSON.parse(await body.locator('pre').first().innerText()) as { id: string; type: string };
    expect(shownPayload.type).toBe((await firstRow.locator('td[data-label="Event"] code').first().innerText()).trim());
    expect(receiver.requests.map((r) => JSON.parse(r.body).id)).toContain(shownPayload.id);
    await body.scrollIntoViewIfNeeded();
    await screenshot(page, 'webhook-delivery-answer');
    expect(receiver.requests.length).toBe(triedBefore); // nothing goes out while suspended

    healthy = true;
    await page.getByRole('button', { name: 'Re-enable' }).click();
    await page.getByRole('status').filter({ hasText: 'Re-enabled' }).waitFor();
    await page.locator('.fields .status-active').waitFor();
    expect((await api('GET', `/v1/webhook_endpoints/${endpoint.id}`)).body.status).toBe('active');
    // Active again: "Re-enable" no longer applies, and the focus is on the page's heading, not lost.
    await page.getByRole('button', { name: 'Re-enable' }).waitFor({ state: 'detached' });
    expect(await page.evaluate<string | undefined>('document.activeElement?.id')).toBe('page-title');
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
    // The page shows the new attempt without a reload, and a delivery that arrived offers no "Retry".
    const retriedRow = page.getByRole('row').filter({ hasText: retriedId! });
    await retriedRow.locator('.attempts').getByText('HTTP 200').waitFor();
    await retriedRow.getByRole('button', { name: /^Retry / }).waitFor({ state: 'detached' });
    const succeededRows = page.getByRole('row').filter({ has: page.locator('.status-succeeded') });
    expect(await succeededRows.count()).toBeGreaterThan(0);
    expect(await succeededRows.getByRole('button', { name: /^Retry / }).count()).toBe(0);
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
    // A draft offers "Start" only.
    expect(await page.getByRole('group', { name: 'Campaign actions' }).getByRole('button').allInnerTexts()).toEqual([
      'Start',
    ]);
    // Settings and agent as readable fields, not JSON.
    const settings = page.locator('.fields [data-field="settings"]');
    expect(await settings.locator('dt').first().innerText()).toBe('Settings');
    await settings.getByText('Calls at once').waitFor();
    expect(await page.locator('main').innerText()).not.toContain('{"');
    await page.getByRole('button', { name: 'Start' }).click();
    await page.locator('.status-running').first().waitFor();
    // Running: "Pause" only, and it has the focus (the clicked "Start" is gone).
    await page.getByRole('button', { name: 'Pause' }).waitFor();
    expect(await page.getByRole('button', { name: 'Start' }).count()).toBe(0);
    expect(await page.evaluate<string | undefined>('document.activeElement?.textContent')).toBe('Pause');
    // Live progress: the completed count rises on the open page, without a reload.
    const completed = page.getByTestId('count-completed');
    await eventually(async () => Number(await completed.innerText()) >= 2, 30_000, 100);
    // Its progress over time: a chart named by its figures, which are also in a table.
    const chart = page.getByTestId('chart-progress');
    await chart.waitFor({ timeout: 15_000 });
    expect(await chart.getByRole('img').getAttribute('aria-label')).toMatch(/\d+ of 40 contacts finished/);
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
    // While paused, only "Resume" is offered, and it has the focus.
    expect(await page.getByRole('group', { name: 'Campaign actions' }).getByRole('button').allInnerTexts()).toEqual([
      'Resume',
    ]);
    expect(await page.evaluate<string | undefined>('document.activeElement?.textContent')).toBe('Resume');

    // The contacts, 20 a page, filtered by state from the address.
    const contactRows = page.getByRole('region', { name: 'Contacts' }).locator('tbody tr');
    await eventually(async () => (await contactRows.count()) === 20);
    const firstPage = await contactRows.allInnerTexts();
    await page.getByRole('button', { name: 'Next page' }).click();
    await page.waitForURL(/starting_after=/);
    await eventually(async () => {
      const second = await contactRows.allInnerTexts();
      return second.length === 20 && !second.some((row) => firstPage.includes(row));
    });
    await page.getByRole('button', { name: 'First page' }).click();
    await page.getByLabel('State', { exact: true }).selectOption('pending');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/status=pending/);
    await eventually(async () => {
      const states = await contactRows.locator('td[data-label="State"]').allInnerTexts();
      return states.length > 0 && states.every((state) => state === 'pending');
    });

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
    await page.goto(`${h.svc.baseUrl}/dashboard/sessions`);
    await page.getByLabel('Status').selectOption('completed');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/\/dashboard\/sessions\?status=completed$/);
    await page.getByRole('link', { name: session.session_id }).click();
    await page.getByRole('heading', { level: 1, name: `Session ${session.session_id}` }).waitFor();
    const inNewYork = new Intl.DateTimeFormat('en-US', {
      dateStyle: 'medium',
      timeStyle: 'medium',
      timeZone: 'America/New_York',
    }).format(new Date(done.created_at));
    expect(await page.locator('.fields [data-field="created_at"] dd').innerText()).toBe(inNewYork);
    // Human labels, money and durations.
    expect(await page.locator('.fields [data-field="created_at"] dt').innerText()).toBe('Created');
    expect(await page.locator('.fields [data-field="actual_cost_cents"] dt').innerText()).toBe('Cost');
    expect(await page.locator('.fields [data-field="actual_cost_cents"] dd').innerText()).toMatch(/^\$\d+\.\d\d$/);
    expect(await page.locator('.fields [data-field="duration_seconds"] dd').innerText()).toMatch(/^(\d+ min )?\d+ s$/);
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
      // Longer than the page's 5 s refresh: the player must not start over.
      await new Promise((resolve) => setTimeout(resolve, 6500));
      return { duration: audio.duration, time: audio.currentTime, error: audio.error?.code ?? null };
    });
    expect(played.error).toBeNull();
    expect(played.duration).toBeCloseTo(45, 0);
    expect(played.time).toBeGreaterThan(5);
    await screenshot(page, 'session');
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
    // A few billed calls, so that the spend and cost figures have something to show: production calls
    // come from a number the tenant owns (decision 178).
    await assignNumber(h.call, h.svc.adminToken, tenant.tenant_id, FROM_NUMBER);
    const billed = await Promise.all(
      ['+14155550161', '+14155550162', '+14155550163'].map((n) => placeCall(h.call, tenant.api_key, n)),
    );
    await eventually(
      async () => {
        for (const call of billed) {
          const s = (await api('GET', `/v1/sessions/${call.session_id}`)).body;
          if (s.status === 'queued' || s.status === 'in_progress') return false;
        }
        return true;
      },
      30_000,
      200,
    );
    // Every billed call debited (by the credits reactor, just after the call's end).
    await eventually(async () => {
      let cost = 0;
      for (const call of billed) cost += (await api('GET', `/v1/sessions/${call.session_id}`)).body.actual_cost_cents;
      return cost > 0 && (await api('GET', '/v1/credits')).body.balance_cents === 2500 - cost;
    });

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
      // No field name or raw JSON where a person reads.
      const text = await page.locator('main').innerText();
      expect([path, text.match(/\{"|\b[a-z]+_(cents|seconds|at|id)\b|Actual cost|Agent config/g)]).toEqual([
        path,
        null,
      ]);
      await screenshot(page, name, { fullPage: name === 'overview' });
    }
    // The overview's figures are the API's (this browser's zone is UTC).
    await page.goto(`${h.svc.baseUrl}/dashboard`);
    const midnight = new Date().setUTCHours(0, 0, 0, 0);
    const today = ((await api('GET', '/v1/sessions?limit=100')).body.data as { created_at: string }[]).filter(
      (x) => Date.parse(x.created_at) >= midnight,
    ).length;
    expect(Number(await page.getByTestId('calls-today').innerText())).toBe(today);
    const balance = (await api('GET', '/v1/credits')).body.balance_cents as number;
    expect(balance).toBeLessThan(2500); // the calls were billed
    expect(await page.getByTestId('balance').innerText()).toBe(`$${(balance / 100).toFixed(2)}`);
    // The charts, each an image named by its figures, backed by the API's analytics.
    const calls = (await api('GET', '/v1/analytics/calls?days=30')).body;
    for (const id of ['calls', 'answer-rate', 'duration', 'spend', 'deliveries']) {
      const figure = page.getByTestId(`chart-${id}`);
      await figure.waitFor();
      expect([id, await figure.locator('canvas').getAttribute('role')]).toEqual([id, 'img']);
      expect([id, (await figure.locator('canvas').getAttribute('aria-label'))?.length]).toEqual([
        id,
        expect.any(Number),
      ]);
      // Chart.js drew on it.
      expect([id, await figure.locator('canvas').evaluate((c: any) => c.width > 0 && c.height > 0)]).toEqual([
        id,
        true,
      ]);
    }
    expect(await page.getByTestId('chart-calls-summary').innerText()).toContain(
      `${calls.totals.calls} calls in the last 30 days`,
    );
    // Its figures, opened with the keyboard: one row per day, today's count as the API's.
    const callsFigure = page.getByTestId('chart-calls');
    await callsFigure.getByText('Figures').focus();
    await page.keyboard.press('Enter');
    const dayRows = callsFigure.getByRole('region', { name: 'Calls per day by outcome: figures' }).locator('tbody tr');
    await dayRows.first().waitFor();
    expect(await dayRows.count()).toBe(30);
    const todayRow = (await dayRows.last().locator('td').allInnerTexts()).map(Number);
    expect(todayRow.reduce((a, b) => a + b, 0)).toBe(calls.data.at(-1).calls);
    // Navigating by the menu, with the keyboard: the current section is marked.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Events' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Events' }).waitFor();
    expect(await page.getByRole('link', { name: 'Events' }).getAttribute('aria-current')).toBe('page');
    expectClean(seen);

    // A phone-sized screen: nothing wider than the screen.
    const phone = await open(tenant, { viewport: { width: 390, height: 844 } });
    for (const path of ['/dashboard', '/dashboard/sessions', '/dashboard/campaigns', '/dashboard/webhook_endpoints']) {
      await phone.page.goto(`${h.svc.baseUrl}${path}`);
      await phone.page.getByText('Loading…').first().waitFor({ state: 'detached' });
      const overflow = await phone.page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
      expect([path, overflow]).toEqual([path, 0]);
      if (path === '/dashboard') {
        await phone.page.getByTestId('chart-calls').waitFor();
        await screenshot(phone.page, 'phone-overview', { fullPage: true });
      }
    }
    await screenshot(phone.page, 'phone-webhook-endpoints');
    expectClean(phone.seen);
  });
});

describe('alerts', () => {
  it('a negative balance with held calls raises an alert on the overview', async () => {
    const broke = await createTenant(h.call, h.svc.adminToken, 'Broke Co');
    const grant = await h.call('POST', `/admin/v1/tenants/${broke.tenant_id}/credits`, {
      token: h.svc.adminToken,
      body: { amount_cents: -500 },
    });
    expect(grant.status).toBe(200);
    await assignNumber(h.call, h.svc.adminToken, broke.tenant_id, '+14155550176');
    const held = await placeCall(h.call, broke.api_key, '+14155550177', { from: '+14155550176' });
    expect(held.status).toBe('queued');

    const { page, seen } = await open(broke);
    const alert = page.getByTestId('alert-held');
    await alert.waitFor();
    expect(await alert.getAttribute('role')).toBe('alert');
    const text = await alert.innerText();
    expect(text).toContain('Calls are on hold');
    expect(text).toContain('-$5.00');
    expect(text).toContain('1 call waits');
    await alert.getByRole('link', { name: 'Top up' }).waitFor();
    expect((await api('GET', `/v1/sessions/${held.session_id}`, undefined, broke)).body.status).toBe('queued');
    await screenshot(page, 'overview-held');
    expectClean(seen);

    // A tenant with credit and nothing held sees no such alert.
    const fine = await open();
    await fine.page.getByTestId('chart-calls').waitFor();
    expect(await fine.page.getByTestId('alert-held').count()).toBe(0);
    expectClean(fine.seen);
  });
});
