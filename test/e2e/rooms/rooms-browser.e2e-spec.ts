/**
 * A room end to end in a real browser: the service as `node dist/main.js`, Debian's chromium (its fake
 * microphone's tone) driven by playwright-core, a loopback receiver subscribed to '*'.
 * The participant opens the signed link (landing viewed once, even after a reload), joins, talks,
 * hangs up; the room's and the session's events arrive signed, and the recording (an Opus call:
 * 16 kHz) holds the tone on the participant's channel and the agent's first message on the agent's. The page loads nothing from
 * outside the platform and logs no error.
 */
import { eventCatalog } from '../../../src/app.module';
import { allEvents, CallsService, startCallsService } from '../../support/calls-harness';
import { eventually } from '../../support/eventually';
import { killAllServices } from '../../support/process';
import { recognise } from '../../support/room-audio-harness';
import { Browser, decodeWav, launchBrowser, rms } from '../../support/rooms-harness';
import {
  closeAllReceivers,
  createEndpoint,
  createTenant,
  Envelope,
  envelopeOf,
  Receiver,
  startReceiver,
  TenantInfo,
  verifiesStandard,
} from '../../support/webhooks-harness';

jest.setTimeout(180_000);

let h: CallsService;
let tenant: TenantInfo;
let receiver: Receiver;
let secret: string;
let browser: Browser;

beforeAll(async () => {
  h = await startCallsService({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
  receiver = await startReceiver();
  tenant = await createTenant(h.call, h.svc.adminToken, 'Rooms Browser Co');
  secret = (await createEndpoint(h.call, tenant.api_key, { url: receiver.url })).secret;
  browser = await launchBrowser();
});

afterAll(async () => {
  if (process.env.ROOMS_DEBUG) console.log(h?.diagnostics(20_000));
  await browser?.close();
  await closeAllReceivers();
  await h?.destroy();
  await killAllServices();
});

const ofRoom = (events: Envelope[], roomId: string) => events.filter((e) => e.data.room_id === roomId);

it('a participant opens the link, joins, talks and hangs up: every step an event, the call recorded', async () => {
  const created = await h.call('POST', '/v1/rooms', {
    token: tenant.api_key,
    // Not interruptible: the fake microphone's beeps would otherwise cut the agent's first words.
    body: { client_reference_id: 'crm-lead-4711', agent_config: { prompt: 'You are Ava.', interruptible: false } },
  });
  expect(created.status).toBe(201);
  const room = created.body;
  expect(Object.keys(room)).toEqual(
    expect.arrayContaining(['room_id', 'room_url', 'expires_at', 'participant_id', 'client_reference_id']),
  );
  expect(room).toMatchObject({ status: 'created', client_reference_id: 'crm-lead-4711' });
  expect(room.room_url).toMatch(new RegExp(`^${h.svc.baseUrl}/rooms/${room.room_id}\\?token=`));

  const page = await browser.context.newPage();
  const requests: string[] = [];
  const consoleErrors: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') consoleErrors.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (err) => consoleErrors.push(`pageerror: ${err.message}`));

  await page.goto(room.room_url);
  await page.getByRole('button', { name: 'Join' }).waitFor();
  expect(await page.textContent('body')).toContain('crm-lead-4711');
  const viewed = async () =>
    ofRoom(await allEvents(h.call, tenant.api_key, 'room.landing_viewed'), room.room_id).length;
  await eventually(async () => (await viewed()) === 1);
  await page.reload();
  await page.getByRole('button', { name: 'Join' }).waitFor();

  await page.getByRole('button', { name: 'Join' }).click();
  await page.getByRole('status').filter({ hasText: 'Connected' }).waitFor({ timeout: 15_000 });
  const talkStarted = Date.now();
  // The level meter moves with the fake microphone's tone.
  await eventually(
    async () => (await page.$eval('#level', (m) => Number((m as unknown as { value: number }).value))) > 0.01,
    5_000,
    50,
  );
  await page.waitForTimeout(5_000);
  await page.getByRole('button', { name: 'Hang up' }).click();
  const talked = (Date.now() - talkStarted) / 1000;
  await page.getByRole('heading', { name: 'The call has ended' }).waitFor();

  // Every event, in commit order, once the recording is reported.
  const feed = await eventually(
    async () => {
      const events = await allEvents(h.call, tenant.api_key);
      expect(events.map((e) => e.type)).toContain('session.recording_completed');
      return events;
    },
    30_000,
    200,
  );
  for (const e of feed) expect([e.type, eventCatalog.validatePayload(e.type, e.data)]).toEqual([e.type, []]);
  const roomEvents = ofRoom(feed, room.room_id);
  expect(roomEvents.map((e) => e.type)).toEqual([
    'room.created',
    'room.landing_viewed',
    'room.joined',
    'room.completed',
  ]);
  const [, , joined, completed] = roomEvents as [Envelope, Envelope, Envelope, Envelope];
  expect(joined.data).toEqual({
    room_id: room.room_id,
    participant_id: room.participant_id,
    joined_at: expect.any(String),
    client_reference_id: 'crm-lead-4711',
  });
  const duration = Math.round(
    (Date.parse(String(completed.data.completed_at)) - Date.parse(String(joined.data.joined_at))) / 1000,
  );
  expect(completed.data).toMatchObject({ room_id: room.room_id, duration_seconds: duration });
  expect(duration).toBeGreaterThanOrEqual(Math.floor(talked));
  expect(duration).toBeLessThanOrEqual(Math.ceil(talked) + 10);

  const view = (await h.call('GET', `/v1/rooms/${room.room_id}`, { token: tenant.api_key })).body;
  expect(view).toMatchObject({ status: 'completed', duration_seconds: duration, end_reason: 'hangup' });
  const sessionId = view.session_id as string;
  const sessionEvents = feed.filter((e) => e.data.session_id === sessionId);
  expect(sessionEvents.map((e) => e.type)).toEqual([
    'session.created',
    'session.started',
    'session.ended',
    'session.recording_completed',
  ]);
  const [sessionCreated, started, ended, recorded] = sessionEvents as [Envelope, Envelope, Envelope, Envelope];
  expect(sessionCreated.data).toMatchObject({
    to_number: null,
    from_number: null,
    campaign_id: null,
    contact_id: null,
  });
  expect(started.data.started_at).toBe(joined.data.joined_at);
  expect(ended.data).toMatchObject({
    client_reference_id: 'crm-lead-4711',
    from_number: null,
    to_number: null,
    phone_number: null,
    campaign_id: null,
    contact_id: null,
    status: 'completed',
    started_at: joined.data.joined_at,
    ended_at: completed.data.completed_at,
    duration_seconds: duration,
    actual_cost_cents: 0,
  });
  expect(recorded.data).toMatchObject({
    session_id: sessionId,
    channels: 'dual',
    status: 'completed',
    from_number: null,
    to_number: null,
    phone_number: null,
  });

  // The receiver got the same events, signed.
  await eventually(() => {
    const got = receiver.requests.map((r) => {
      expect(verifiesStandard(secret, r)).toBe(true);
      return envelopeOf(r).id;
    });
    for (const e of [...roomEvents, ...sessionEvents]) expect(got).toContain(e.id);
  }, 15_000);

  // The recording: the participant's tone on one channel, the shipped greeting on the other.
  const wav = await fetch(recorded.data.recording_url as string);
  expect(wav.status).toBe(200);
  const pcm = decodeWav(Buffer.from(await wav.arrayBuffer()));
  expect({ rate: pcm.sampleRate, channels: pcm.channels, bits: pcm.bitsPerSample }).toEqual({
    rate: 16000,
    channels: 2,
    bits: 16,
  });
  const [agent, participant] = pcm.channelData as [number[], number[]];
  expect(agent.length / 16000).toBeGreaterThan(talked - 1);
  expect(rms(participant)).toBeGreaterThan(300);
  // The agent's channel holds what the agent said first (its default first message, "Hello! How can
  // I help you today?"), as the embedded recogniser hears it; it starts within the first 2 seconds.
  const onset = agent.findIndex((v) => Math.abs(v) > 1000);
  expect(onset / 16000).toBeLessThan(2);
  const heard = await recognise(Int16Array.from(agent.slice(onset, onset + 4 * 16000)));
  expect(heard).toMatch(/help|hello/);

  // Nothing but the platform, and no console error or warning.
  const outside = requests.filter((url) => !url.startsWith(`${h.svc.baseUrl}/`));
  expect(outside).toEqual([]);
  expect(consoleErrors).toEqual([]);
  await page.close();
});
