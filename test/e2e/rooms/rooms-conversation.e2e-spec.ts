/**
 * The agent talks in a room, in a real browser: the service as `node dist/main.js` with its embedded
 * engines, Debian's chromium with a fake microphone playing flite's voice (two utterances). The first
 * asks something; the agent answers ("I heard: …"); the second ("transfer me to a human") starts while
 * that answer plays: the agent stops (barge-in), its turn is cut, and it transfers the call
 * (`session.transfer_initiated`), which ends the room. The transcript holds the user's words as
 * recognised and the agent's answers; the recording's agent channel holds the agent's speech.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { allEvents, CallsService, startCallsService } from '../../support/calls-harness';
import { eventually } from '../../support/eventually';
import { killAllServices } from '../../support/process';
import { recognise } from '../../support/room-audio-harness';
import { Browser, decodeWav, launchBrowser } from '../../support/rooms-harness';
import { createTenant, TenantInfo } from '../../support/webhooks-harness';
import { recordedBargeIn } from '../../support/recorded-barge-in';

jest.setTimeout(180_000);

let h: CallsService;
let tenant: TenantInfo;
let browser: Browser;

/** flite's voice saying `first`, a pause, then `second`, at 16 kHz, with silence before and after. */
function conversationWav(first: string, pauseSeconds: number, second: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'room-conversation-'));
  const say = (text: string, name: string) => {
    const raw = join(dir, `${name}-raw.wav`);
    const out = join(dir, `${name}.wav`);
    execFileSync('flite', ['-voice', 'slt', '-t', text, '-o', raw]);
    execFileSync('sox', [raw, '-r', '16000', '-c', '1', '-b', '16', '-e', 'signed-integer', out]);
    return out;
  };
  const a = say(first, 'a');
  const b = say(second, 'b');
  const out = join(dir, 'mic.wav');
  // 6 s for the connection and the agent's first message, the two utterances, 10 s for the transfer.
  execFileSync('sox', [a, join(dir, 'a-padded.wav'), 'pad', '6', String(pauseSeconds)]);
  execFileSync('sox', [b, join(dir, 'b-padded.wav'), 'pad', '0', '10']);
  execFileSync('sox', [join(dir, 'a-padded.wav'), join(dir, 'b-padded.wav'), out]);
  return out;
}

beforeAll(async () => {
  h = await startCallsService({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
  tenant = await createTenant(h.call, h.svc.adminToken, 'Talking Rooms Co');
  browser = await launchBrowser({
    microphoneWav: conversationWav(
      'I would like to book an appointment for tomorrow morning please.',
      1.8,
      'Transfer me to a human please.',
    ),
  });
});

afterAll(async () => {
  if (process.env.ROOMS_DEBUG) console.log(h?.diagnostics(20_000));
  await browser?.close();
  await h?.destroy();
  await killAllServices();
});

it('converses: the user is heard, the agent answers, is cut when talked over, and transfers on request', async () => {
  const created = await h.call('POST', '/v1/rooms', {
    token: tenant.api_key,
    body: {
      agent_config: {
        prompt: 'You are the front desk.',
        first_message: 'Hello, front desk.',
        transfer_number: '+14155550123',
      },
    },
  });
  expect(created.status).toBe(201);
  const room = created.body;
  const page = await browser.context.newPage();
  await page.goto(room.room_url);
  await page.getByRole('button', { name: 'Join' }).click();
  await page.getByRole('status').filter({ hasText: 'Connected' }).waitFor({ timeout: 15_000 });

  // The agent transfers the call, which ends the room.
  const transfer = await eventually(
    async () => {
      const events = await allEvents(h.call, tenant.api_key, 'session.transfer_initiated');
      expect(events).toHaveLength(1);
      return events[0]!;
    },
    60_000,
    250,
  );
  expect(transfer.data).toMatchObject({ transfer_number: '+14155550123' });
  const sessionId = String(transfer.data.session_id);
  const recorded = await eventually(
    async () => {
      const events = (await allEvents(h.call, tenant.api_key, 'session.recording_completed')).filter(
        (e) => e.data.session_id === sessionId,
      );
      expect(events).toHaveLength(1);
      return events[0]!;
    },
    30_000,
    250,
  );

  const session = (await h.call('GET', `/v1/sessions/${sessionId}`, { token: tenant.api_key })).body as {
    transcript: { role: string; content: string; t: number }[];
    metrics: { turns: { interrupted: boolean; voice_to_voice_ms: number }[] };
  };
  const turns = session.transcript;
  expect(turns[0]).toMatchObject({ role: 'agent', content: 'Hello, front desk.' });
  const user = turns.filter((x) => x.role === 'user').map((x) => x.content);
  expect(user.join(' | ')).toMatch(/appointment|tomorrow|morning/);
  expect(user.join(' | ')).toMatch(/human/);
  const agent = turns.filter((x) => x.role === 'agent').map((x) => x.content);
  // The answer to the first utterance was cut: it is shorter than what the agent meant to say.
  const answer = agent.find((c) => c.startsWith('I heard'));
  expect(answer).toBeDefined();
  expect(session.metrics.turns.some((m) => m.interrupted)).toBe(true);
  expect(agent.some((c) => /transferring/.test(c))).toBe(true);

  // The recording: the agent's voice on its channel, and it stopped soon after the user talked over it.
  const wav = await fetch(String(recorded.data.recording_url));
  const pcm = decodeWav(Buffer.from(await wav.arrayBuffer()));
  expect(pcm.sampleRate).toBe(16000);
  const [agentChannel, userChannel] = pcm.channelData as [number[], number[]];
  const heard = await recognise(Int16Array.from(agentChannel));
  expect(heard).toMatch(/front|desk|heard|transfer/);
  // The second utterance (after 1 s of the user's silence): the agent was speaking when the user
  // started again, and then fell silent (its answer cut).
  const barge = recordedBargeIn(agentChannel, userChannel);
  expect(barge.secondStart).toBeGreaterThan(0);
  expect(barge.agentWasSpeaking).toBe(true);
  const bargeInMs = barge.agentStopMs;
  // The bound is 300 ms (the benchmark measures it); a loaded test machine gets slack here.
  expect(bargeInMs).toBeLessThan(800);
  await page.close();
});
