/**
 * A call in progress on the dashboard (a real browser on `node dist/main.js`): a test persona call
 * (docs/conversations-api.md, "Test persona calls": the agent converses, in real time, with a callee
 * that speaks its lines) is opened while it runs. The session page follows its live view
 * (`GET /v1/sessions/{id}/live`, with the dashboard's cookie): a turn the live view tells shows on
 * the page without a reload or a new read of the session, the status becomes the final one when the
 * call ends and the stream is left, and each measured agent turn shows a waterfall whose stages are
 * the figures of the session's `metrics.turns[]`.
 */
import { DashboardRig, expectClean, screenshot, startDashboardRig, unlabelled } from '../../support/dashboard-harness';
import { eventually } from '../../support/eventually';

jest.setTimeout(180_000);

let rig: DashboardRig;

beforeAll(async () => {
  rig = await startDashboardRig();
});

afterAll(async () => {
  await rig?.close();
});

interface Message {
  id: number;
  event: string;
  data: any;
}

interface TurnMetrics {
  t: number;
  voice_to_voice_ms: number;
  stt_ms: number;
  llm_first_token_ms: number;
  tts_first_audio_ms: number;
  interrupted: boolean;
}

/** The live view as an API client reads it (its API key), each message as it comes, until it closes. */
function followAsClient(
  baseUrl: string,
  sessionId: string,
  apiKey: string,
): { messages: Message[]; closed: Promise<void>; stop(): void } {
  const messages: Message[] = [];
  const abort = new AbortController();
  const closed = (async () => {
    const res = await fetch(`${baseUrl}/v1/sessions/${sessionId}/live`, {
      headers: { authorization: `Bearer ${apiKey}` },
      signal: abort.signal,
    });
    if (res.status !== 200 || !res.body) throw new Error(`live view: ${res.status}`);
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const lines = buffer.slice(0, end).split('\n');
        buffer = buffer.slice(end + 2);
        const field = (name: string) => lines.find((l) => l.startsWith(`${name}: `))?.slice(name.length + 2);
        const event = field('event');
        if (event) messages.push({ id: Number(field('id')), event, data: JSON.parse(field('data') ?? '{}') });
      }
    }
  })().catch((err: Error) => {
    if (!abort.signal.aborted) throw err;
  });
  return { messages, closed, stop: () => abort.abort() };
}

const GREETING = 'Hello, this is the front desk.';

it('follows a call in progress: turns as they come, its end, and each agent turn’s latency waterfall', async () => {
  const { h, tenant } = rig;
  const base = h.svc.baseUrl;
  const { page, seen } = await rig.open();
  const requests: { url: string; method: string }[] = [];
  page.on('request', (r) => requests.push({ url: r.url(), method: r.method() }));
  let navigations = 0;
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) navigations++;
  });

  const placed = await h.call<{ session_id: string }>('POST', '/v1/calls', {
    token: tenant.api_key,
    body: {
      to: '+14155550100',
      from: '+14155550000',
      test_mode: true,
      agent_config: { prompt: 'You are the front desk.', first_message: GREETING },
      test_persona: {
        script: ['What time do you open tomorrow?', 'Can I book a cleaning?', 'Goodbye.'],
        pause_ms: 1500,
      },
    },
  });
  expect(placed.status).toBe(201);
  const id = placed.body.session_id;
  const sessionPath = `${base}/v1/sessions/${id}`;
  const client = followAsClient(base, id, tenant.api_key);
  const told = (event: string) => client.messages.filter((m) => m.event === event);

  await page.goto(`${base}/dashboard/sessions/${id}`);
  await page.getByRole('heading', { level: 1, name: `Session ${id}` }).waitFor();
  // The page follows the live view, with the dashboard's session cookie: no API key in the browser.
  const liveStatus = page.getByTestId('live-status');
  await page.locator('[data-testid="live-status"][data-phase="open"]').waitFor({ timeout: 20_000 });
  expect(await liveStatus.innerText()).toContain('Live');
  const liveRequests = () => requests.filter((r) => r.url === `${sessionPath}/live`);
  expect(liveRequests()).toHaveLength(1);

  // The call in progress, as the stream tells it: the agent's greeting, then each turn as it comes.
  const status = page.locator('.fields [data-field="status"] dd');
  const transcript = page.getByRole('list', { name: 'Transcript' }).getByRole('listitem');
  await transcript.filter({ hasText: GREETING }).waitFor({ timeout: 30_000 });
  expect(await status.innerText()).toBe('in progress');
  expect(told('ended')).toHaveLength(0);
  await screenshot(page, 'session-live');
  const reads = () => requests.filter((r) => r.method === 'GET' && r.url === sessionPath).length;
  const readsBefore = reads();
  const navigationsBefore = navigations;
  const shown = await transcript.count();
  // The next turn the live view tells an API client (the caller's first line, or the agent's answer).
  const next = await eventually(() => told('turn')[shown] ?? false, 30_000, 50);
  await transcript.nth(shown).waitFor({ timeout: 10_000 });
  expect(await transcript.nth(shown).locator('p').innerText()).toBe(next.data.content);
  // It came through the open stream: no reload of the page, no new read of the session.
  expect(navigations).toBe(navigationsBefore);
  expect(reads()).toBe(readsBefore);
  expect(liveRequests()).toHaveLength(1);

  // An agent turn's metrics show as a waterfall while the call still runs.
  const firstMetrics = await eventually(() => told('metrics')[0] ?? false, 30_000, 50);
  await page.getByTestId('waterfall-0').waitFor({ timeout: 10_000 });
  expect(await liveStatus.getAttribute('data-phase')).toBe('open');
  expect(await status.innerText()).toBe('in progress');
  expect(await page.getByTestId('waterfall-0').getAttribute('data-t')).toBe(String(firstMetrics.data.t));
  expect(reads()).toBe(readsBefore);

  // The end: the status becomes the final one, the stream is left, the session is read once more.
  await client.closed;
  const ended = told('ended');
  expect(ended).toHaveLength(1);
  expect(ended[0]!.data.status).toBe('completed');
  await page.locator('.fields [data-field="status"] .status-completed').waitFor({ timeout: 10_000 });
  expect(await status.innerText()).toBe('completed');
  await page.locator('[data-testid="live-status"][data-phase="ended"]').waitFor();
  await eventually(() => reads() > readsBefore, 10_000, 50);
  expect(navigations).toBe(navigationsBefore);

  // The session's metrics, once the read has them all, are what the page draws.
  const session = await eventually(
    async () => {
      const s = (await rig.api('GET', `/v1/sessions/${id}`)).body;
      return s.metrics.turns.length === told('metrics').length && s;
    },
    20_000,
    100,
  );
  const turns = session.metrics.turns as TurnMetrics[];
  expect(turns.length).toBeGreaterThanOrEqual(2);
  expect(turns).toEqual(told('metrics').map((m) => m.data));
  const figures = page.locator('figure.waterfall');
  await eventually(async () => (await figures.count()) === turns.length, 10_000, 50);
  const scale = Math.max(
    ...turns.map((m) => Math.max(m.voice_to_voice_ms, m.stt_ms + m.llm_first_token_ms + m.tts_first_audio_ms)),
  );
  for (const [i, m] of turns.entries()) {
    const figure = page.getByTestId(`waterfall-${i}`);
    expect(await figure.getByRole('heading').innerText()).toBe(
      `Agent turn at ${m.t.toFixed(1)} s${m.interrupted ? ' (interrupted)' : ''}`,
    );
    const rest = Math.max(0, m.voice_to_voice_ms - m.stt_ms - m.llm_first_token_ms - m.tts_first_audio_ms);
    // Each stage in order, offset by those before it; the last row is the whole of voice to voice.
    const expected = [
      { stage: 'endpointing', ms: rest, from: 0 },
      { stage: 'stt_ms', ms: m.stt_ms, from: rest },
      { stage: 'llm_first_token_ms', ms: m.llm_first_token_ms, from: rest + m.stt_ms },
      { stage: 'tts_first_audio_ms', ms: m.tts_first_audio_ms, from: rest + m.stt_ms + m.llm_first_token_ms },
      { stage: 'voice_to_voice_ms', ms: m.voice_to_voice_ms, from: 0 },
    ];
    const rows = figure.locator('li.waterfall-row');
    expect(await rows.count()).toBe(expected.length);
    for (const [r, want] of expected.entries()) {
      const row = rows.nth(r);
      const drawn = {
        stage: await row.getAttribute('data-stage'),
        label: await row.locator('.waterfall-ms').innerText(),
        x: parseFloat((await row.locator('rect').getAttribute('x')) ?? 'NaN'),
        width: parseFloat((await row.locator('rect').getAttribute('width')) ?? 'NaN'),
      };
      expect([i, drawn.stage, drawn.label]).toEqual([i, want.stage, `${want.ms} ms`]);
      expect(drawn.x).toBeCloseTo((want.from / scale) * 100, 2);
      expect(drawn.width).toBeCloseTo((want.ms / scale) * 100, 2);
    }
  }
  expect(await page.getByTestId('latency-percentiles').innerText()).toContain(
    `median ${session.metrics.voice_to_voice_ms.p50} ms, 95th percentile ${session.metrics.voice_to_voice_ms.p95} ms`,
  );
  // The transcript is the session's, whole and once.
  const texts = await page.getByRole('list', { name: 'Transcript' }).locator('li p').allInnerTexts();
  expect(texts).toEqual((session.transcript as { content?: string }[]).map((x) => x.content ?? ''));
  // Labelled, no field name where a person reads, nothing from outside, no console error.
  expect(await unlabelled(page)).toEqual([]);
  expect((await page.locator('main').innerText()).match(/\{"|\b[a-z]+_(ms|cents|seconds|at|id)\b/g)).toBeNull();
  await page.getByTestId('waterfalls').scrollIntoViewIfNeeded();
  await screenshot(page, 'session-latency');
  expect(liveRequests()).toHaveLength(1);
  client.stop();
  expectClean(seen);

  // On a phone, the waterfalls fit the screen.
  const phone = await rig.open(tenant, { viewport: { width: 390, height: 844 } });
  await phone.page.goto(`${base}/dashboard/sessions/${id}`);
  await phone.page.getByTestId(`waterfall-${turns.length - 1}`).waitFor();
  expect(await phone.page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth')).toBe(0);
  expectClean(phone.seen);
});
