/**
 * The web SDK (clients/web) in a real browser, from a page on another origin: the demo page of
 * docs/examples/web-call.html, written from the SDK's README, served by a "customer's site" on its own
 * loopback port, loading the SDK from the platform ({rooms_url}/assets/voice-agent.js). Debian's
 * chromium with a fake microphone speaking (flite), the service with its embedded engines: the page
 * joins, hears the greeting, its sentence is heard and answered, the transcript turns show in the
 * page, and "Hang up" ends the session `completed`. Then the refusals, as the page shows them (an
 * ended room, an expired link, a forged token, a microphone the page may not use), and mute.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { CallsService, startCallsService } from '../../support/calls-harness';
import { eventually } from '../../support/eventually';
import { killAllServices } from '../../support/process';
import { captureAgentAudio, heardInPage, recognise, speechWav } from '../../support/room-audio-harness';
import { Browser, launchBrowser } from '../../support/rooms-harness';
import { createTenant, TenantInfo } from '../../support/webhooks-harness';

jest.setTimeout(180_000);

const ROOT = join(__dirname, '..', '..', '..');
const DEMO = readFileSync(join(ROOT, 'docs', 'examples', 'web-call.html'), 'utf8');
/** The web SDK README's quick-start page (its one html block), as a customer would copy it. */
const README_PAGE = /```html\n([\s\S]*?)```/.exec(readFileSync(join(ROOT, 'clients', 'web', 'README.md'), 'utf8'))![1]!;

let h: CallsService;
let tenant: TenantInfo;
let site: { origin: string; platform: string; readme: string; close(): Promise<void> };
const browsers: Browser[] = [];

/**
 * The customer's site: the demo page at `/`, at `/no-microphone` with the microphone forbidden to it,
 * and the README's page at `/readme` (with the platform's address and a room's link filled in).
 */
async function serveSite(): Promise<typeof site> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const headers: Record<string, string> = { 'content-type': 'text/html; charset=utf-8' };
    if (path === '/readme') return res.writeHead(200, headers).end(site.readme);
    if (path === '/no-microphone') headers['permissions-policy'] = 'microphone=()';
    else if (path !== '/') return res.writeHead(404).end();
    // The demo page as a customer sets it up: their platform's address in PLATFORM.
    res.writeHead(200, headers).end(DEMO.replace("'http://127.0.0.1:3000'", JSON.stringify(site.platform)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    platform: '',
    readme: '',
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function createRoom(body: Record<string, unknown> = {}): Promise<{ room_id: string; room_url: string }> {
  const created = await h.call('POST', '/v1/rooms', {
    token: tenant.api_key,
    body: { agent_config: { prompt: 'You are the front desk.', first_message: 'Hello, front desk.' }, ...body },
  });
  expect(created.status).toBe(201);
  return created.body;
}

async function openDemo(browser: Browser, roomUrl: string, path = '/'): Promise<Page> {
  const page = await browser.context.newPage();
  await captureAgentAudio(page);
  await page.goto(`${site.origin}${path}?room=${encodeURIComponent(roomUrl)}`);
  return page;
}

const state = (page: Page) => page.getByRole('status');
const turns = (page: Page) => page.locator('#transcript li').allTextContents();

beforeAll(async () => {
  h = await startCallsService();
  tenant = await createTenant(h.call, h.svc.adminToken, 'Web SDK Co');
  site = await serveSite();
  site.platform = h.svc.baseUrl;
});

afterAll(async () => {
  for (const browser of browsers) await browser.close();
  await site?.close();
  await h?.destroy();
  await killAllServices();
});

it('a page on another origin joins a room, hears the greeting, is heard, shows the transcript and hangs up', async () => {
  const browser = await launchBrowser({
    microphoneWav: speechWav('I would like to book an appointment for tomorrow morning please.', 16000, 5, 8),
  });
  browsers.push(browser);
  const room = await createRoom();
  const page = await openDemo(browser, room.room_url);
  const pageErrors: string[] = [];
  page.on('pageerror', (err) => pageErrors.push(err.message));

  await page.getByRole('button', { name: 'Talk to our agent' }).click();
  // agent_speaking, then agent_silent, as the page shows them.
  await state(page).filter({ hasText: 'The agent is speaking' }).waitFor({ timeout: 20_000 });
  await state(page).filter({ hasText: 'Listening' }).waitFor({ timeout: 20_000 });
  // The transcript: the greeting, the caller's sentence as recognised, and the agent's answer.
  const shown = await eventually(
    async () => {
      const items = await turns(page);
      expect(items.some((t) => t.startsWith('user: '))).toBe(true);
      expect(items.some((t) => t.startsWith('agent: I heard'))).toBe(true);
      return items;
    },
    45_000,
    250,
  );
  expect(shown[0]).toBe('agent: Hello, front desk.');
  const userTurn = shown.find((t) => t.startsWith('user: '))!;
  // Any of the sentence's words: pocketsphinx hears flite through Chromium and Opus, under load.
  expect(userTurn).toMatch(/would|like|book|appointment|tomorrow|morning|please/);

  // The greeting was heard in the page (its audio, recognised).
  const heard = await recognise(await heardInPage(page));
  expect(heard).toMatch(/hello|front|desk|heard/);

  await page.getByRole('button', { name: 'Hang up' }).click();
  await state(page).filter({ hasText: 'Ended (hang_up, completed)' }).waitFor({ timeout: 10_000 });
  const view = (await h.call('GET', `/v1/rooms/${room.room_id}`, { token: tenant.api_key })).body;
  expect(view).toMatchObject({ status: 'completed', end_reason: 'hangup' });
  const session = await eventually(
    async () => {
      const s = (await h.call('GET', `/v1/sessions/${String(view.session_id)}`, { token: tenant.api_key })).body;
      expect(s.status).toBe('completed');
      return s;
    },
    10_000,
    200,
  );
  // What the page showed is what was stored.
  const stored = (session.transcript as { role: string; content: string }[]).map((t) => `${t.role}: ${t.content}`);
  expect(stored.slice(0, shown.length)).toEqual(shown);
  expect(pageErrors).toEqual([]);

  // The room's live channel, read again now that the session has ended: the participant's events
  // only (the tenant's live view also has each turn's metrics), to any origin.
  const sse = async (url: string, headers: Record<string, string> = {}) => {
    const response = await fetch(url, { headers });
    return { response, names: [...(await response.text()).matchAll(/^event: (\S+)$/gm)].map((m) => m[1]) };
  };
  const participant = await sse(room.room_url.replace('?', '/live?'), { origin: site.origin });
  expect(participant.response.headers.get('access-control-allow-origin')).toBe('*');
  expect(new Set(participant.names)).toEqual(new Set(['status', 'turn', 'ended']));
  const tenantView = await sse(`${h.svc.baseUrl}/v1/sessions/${String(view.session_id)}/live`, {
    authorization: `Bearer ${tenant.api_key}`,
  });
  expect(tenantView.names).toContain('metrics');
  expect(tenantView.names.filter((n) => n === 'turn')).toEqual(participant.names.filter((n) => n === 'turn'));

  // The same link again: the call took place, and the page says so.
  const again = await openDemo(browser, room.room_url);
  await again.getByRole('button', { name: 'Talk to our agent' }).click();
  await state(again).filter({ hasText: 'room_ended: This call has ended.' }).waitFor({ timeout: 10_000 });
  await again.close();
  await page.close();
});

it('refusals are errors with a code: an expired link, a forged token, a microphone the page may not use', async () => {
  const browser = await launchBrowser();
  browsers.push(browser);
  const expired = await createRoom({ expires_in_seconds: 1 });
  await new Promise((r) => setTimeout(r, 1500));
  const page = await openDemo(browser, expired.room_url);
  await page.getByRole('button', { name: 'Talk to our agent' }).click();
  await state(page).filter({ hasText: 'room_expired: This room link has expired.' }).waitFor({ timeout: 10_000 });

  const room = await createRoom();
  const forged = room.room_url.replace(
    /token=(\d+)\.(.)/,
    (_m, ms: string, c: string) => `token=${ms}.${c === 'A' ? 'B' : 'A'}`,
  );
  expect(forged).not.toBe(room.room_url);
  await page.goto(`${site.origin}/?room=${encodeURIComponent(forged)}`);
  await page.getByRole('button', { name: 'Talk to our agent' }).click();
  await state(page)
    .filter({ hasText: /^invalid_link: This room link is not valid/ })
    .waitFor({ timeout: 10_000 });

  // The forged link's refusal reached the page because it allows any origin; so does the preflight.
  const whip = room.room_url.replace('?', '/whip?');
  const preflight = await fetch(whip, {
    method: 'OPTIONS',
    headers: {
      origin: site.origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type',
    },
  });
  expect(preflight.status).toBe(204);
  expect(Object.fromEntries(preflight.headers)).toMatchObject({
    'access-control-allow-origin': '*',
    'access-control-allow-methods': expect.stringContaining('POST'),
    'access-control-allow-headers': expect.stringMatching(/content-type/i),
  });
  // A refusal before the route's handler (an offer over its 64 KB limit) is readable by the page too.
  const oversize = await fetch(whip, {
    method: 'POST',
    headers: { 'content-type': 'application/sdp', origin: site.origin },
    body: 'v=0\r\n' + 'a=x\r\n'.repeat(20_000),
  });
  expect(oversize.status).toBe(413);
  expect(oversize.headers.get('access-control-allow-origin')).toBe('*');
  const forgedLive = await fetch(forged.replace('?', '/live?'));
  expect(forgedLive.status).toBe(403);
  expect(forgedLive.headers.get('access-control-allow-origin')).toBe('*');
  expect(((await forgedLive.json()) as { error: unknown }).error).toMatchObject({ type: 'forbidden' });

  // A link to another host is not followed: the page would hand it the user's microphone.
  await page.goto(`${site.origin}/?room=${encodeURIComponent(`http://127.0.0.2:9/rooms/${room.room_id}?token=x`)}`);
  await page.getByRole('button', { name: 'Talk to our agent' }).click();
  await state(page).filter({ hasText: 'This page needs a room link of the platform.' }).waitFor({ timeout: 5_000 });

  await page.goto(`${site.origin}/no-microphone?room=${encodeURIComponent(room.room_url)}`);
  await page.getByRole('button', { name: 'Talk to our agent' }).click();
  await state(page)
    .filter({ hasText: /^microphone_refused: / })
    .waitFor({ timeout: 10_000 });
  // Nothing was joined: the room is still waiting for its participant.
  const view = (await h.call('GET', `/v1/rooms/${room.room_id}`, { token: tenant.api_key })).body;
  expect(view.status).toBe('created');
  await page.close();
});

it('muted, the agent hears nothing of the caller; unmuted, it hears them again', async () => {
  // Two sentences: 4–8 s into the microphone (muted), then from about 16 s (unmuted by then).
  const dir = mkdtempSync(join(tmpdir(), 'web-sdk-mute-'));
  const first = speechWav('I would like to book an appointment for tomorrow morning please.', 16000, 4, 0);
  const second = speechWav('What time do you open on Sunday?', 16000, 0, 8);
  const gap = join(dir, 'gap.wav');
  execFileSync('sox', [first, gap, 'pad', '0', String(Math.max(0, 16 - wavSeconds(first)))]);
  const microphoneWav = join(dir, 'mic.wav');
  execFileSync('sox', [gap, second, microphoneWav]);
  const browser = await launchBrowser({ microphoneWav });
  browsers.push(browser);
  const room = await createRoom();
  const page = await browser.context.newPage();
  await page.goto(`${site.origin}/`); // an origin of its own, the SDK from the platform
  const sdk = new URL('/rooms/assets/voice-agent.js', room.room_url).href;
  await page.evaluate(
    `(async () => {
      const { joinRoom } = await import(${JSON.stringify(sdk)});
      window.call = await joinRoom(${JSON.stringify(room.room_url)});
      window.call.mute();
      window.seen = [];
      for (const e of ['user_speaking', 'user_silent', 'agent_speaking', 'ended'])
        window.call.on(e, () => window.seen.push(e));
    })()`,
  );
  expect(await page.evaluate('window.call.muted')).toBe(true);
  // The first sentence plays while muted: nothing of it reaches the agent, nor the page's events.
  await page.waitForTimeout(10_000);
  const seen = await page.evaluate<string[]>('window.seen');
  expect(seen).toContain('agent_speaking');
  expect(seen).not.toContain('user_speaking');
  const view = (await h.call('GET', `/v1/rooms/${room.room_id}`, { token: tenant.api_key })).body;
  const sessionPath = `/v1/sessions/${String(view.session_id)}`;
  const during = (await h.call('GET', sessionPath, { token: tenant.api_key })).body;
  expect((during.transcript as { role: string }[]).filter((t) => t.role === 'user')).toEqual([]);

  // Unmuted before the second sentence: the page hears the user speak, and so does the agent.
  const unmutedAt = Date.now();
  await page.evaluate('window.call.unmute()');
  await eventually(async () => expect(await page.evaluate('window.seen')).toContain('user_speaking'), 20_000, 100);
  const userTurns = await eventually(
    async () => {
      const s = (await h.call('GET', sessionPath, { token: tenant.api_key })).body;
      const user = (s.transcript as { role: string; content: string; t: number }[]).filter((t) => t.role === 'user');
      expect(user.length).toBeGreaterThan(0);
      return { user, startedAt: Date.parse(String(s.started_at)) };
    },
    30_000,
    250,
  );
  // Every user turn began after the unmute (t: seconds from the start of the call).
  for (const turn of userTurns.user)
    expect(turn.t * 1000).toBeGreaterThanOrEqual(unmutedAt - userTurns.startedAt - 500);

  await page.evaluate('window.call.hangUp()');
  await eventually(async () => expect(await page.evaluate('window.seen')).toContain('ended'), 10_000, 100);
  expect(await page.evaluate('window.call.ended')).toBe(true);
  await page.close();
});

/** The length of a 16-bit mono WAV, in seconds (sox's own reading). */
function wavSeconds(path: string): number {
  return Number(execFileSync('soxi', ['-D', path], { encoding: 'utf8' }).trim());
}

it("the README's quick-start page, as written, joins, shows the greeting in its transcript, and hangs up", async () => {
  const browser = await launchBrowser();
  browsers.push(browser);
  const room = await createRoom();
  expect(README_PAGE).toContain("'…the room_url your server made…'");
  site.readme = README_PAGE.replaceAll('http://127.0.0.1:3000', h.svc.baseUrl).replace(
    "'…the room_url your server made…'",
    JSON.stringify(room.room_url),
  );
  const page = await browser.context.newPage();
  const logged: string[] = [];
  page.on('console', (m) => logged.push(m.text()));
  await page.goto(`${site.origin}/readme`);
  // Before the join there is nothing to follow.
  const liveUrl = room.room_url.replace('?', '/live?');
  const early = await fetch(liveUrl);
  expect(early.status).toBe(409);
  expect(early.headers.get('access-control-allow-origin')).toBe('*');
  await page.getByRole('button', { name: 'Talk to our agent' }).click();
  await page.locator('#transcript li', { hasText: 'agent: Hello, front desk.' }).waitFor({ timeout: 20_000 });
  // The page follows the room's live channel; one more may (a reconnect); a third is refused.
  const second = new AbortController();
  const again = await fetch(liveUrl, { signal: second.signal });
  expect(again.status).toBe(200);
  const third = await fetch(liveUrl);
  expect(third.status).toBe(429);
  expect(third.headers.get('retry-after')).toBe('5');
  second.abort();
  await page.getByRole('button', { name: 'Hang up' }).click();
  await eventually(async () => expect(logged).toContain('ended hang_up completed'), 10_000, 100);
  const view = (await h.call('GET', `/v1/rooms/${room.room_id}`, { token: tenant.api_key })).body;
  expect(view.status).toBe('completed');
  await page.close();
});

it('at capacity: the second page is told at_capacity with when to try again, as the demo page shows it', async () => {
  // A service of its own that carries one conversation at a time (admission by count only).
  const small = await startCallsService({ MAX_CONVERSATIONS: '1', CAPACITY_HEADROOM: 'off' });
  site.platform = small.svc.baseUrl;
  try {
    const owner = await createTenant(small.call, small.svc.adminToken, 'Small Co');
    const room = async () => {
      const created = await small.call('POST', '/v1/rooms', {
        token: owner.api_key,
        body: { agent_config: { prompt: 'You are the front desk.', first_message: 'Hello, front desk.' } },
      });
      expect(created.status).toBe(201);
      return created.body as { room_id: string; room_url: string };
    };
    const browser = await launchBrowser();
    browsers.push(browser);
    const [first, second] = [await room(), await room()];
    const talking = await openDemo(browser, first.room_url);
    await talking.getByRole('button', { name: 'Talk to our agent' }).click();
    await state(talking)
      .filter({ hasText: /Connected|speaking|Listening/ })
      .waitFor({ timeout: 20_000 });
    const refused = await openDemo(browser, second.room_url);
    await refused.getByRole('button', { name: 'Talk to our agent' }).click();
    await state(refused)
      .filter({ hasText: /^at_capacity: The agent cannot take another call right now/ })
      .waitFor({ timeout: 10_000 });
    // The error itself: its code, status and Retry-After.
    const sdk = new URL('/rooms/assets/voice-agent.js', second.room_url).href;
    const error = await refused.evaluate(
      `import(${JSON.stringify(sdk)}).then(({ joinRoom }) => joinRoom(${JSON.stringify(second.room_url)}).then(
        () => null,
        (e) => ({ name: e.name, code: e.code, status: e.status, retryAfterSeconds: e.retryAfterSeconds }),
      ))`,
    );
    expect(error).toEqual({
      name: 'RoomCallError',
      code: 'at_capacity',
      status: 503,
      retryAfterSeconds: expect.any(Number),
    });
    expect((error as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThan(0);
    // The refusal joined nothing: that room still waits for its participant.
    expect((await small.call('GET', `/v1/rooms/${second.room_id}`, { token: owner.api_key })).body.status).toBe(
      'created',
    );
    await talking.getByRole('button', { name: 'Hang up' }).click();
    await state(talking).filter({ hasText: 'Ended (hang_up, completed)' }).waitFor({ timeout: 10_000 });
  } finally {
    site.platform = h.svc.baseUrl;
    await small.destroy();
  }
});
