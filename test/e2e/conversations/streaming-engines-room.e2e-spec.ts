/**
 * Room conversations on the hosted streaming engines (docs/speech-engines.md), end to end: the
 * service (node dist/main.js) configured with STT_PROVIDER=deepgram and TTS_PROVIDER=elevenlabs (then
 * TTS_PROVIDER=openai, its speech body streamed) against the loopback stand-ins of those APIs, which
 * recognise (pocketsphinx) and speak (flite) for real; Debian's chromium joins the room with a fake
 * microphone playing flite's voice and keeps what it hears of the agent (room-audio-harness.ts).
 *
 * What is checked: the transcript (the user's words as the Deepgram stand-in recognised them, the
 * built-in dialogue's "I heard: …"), the answer heard in the page, the turn's metrics, a barge-in
 * cutting a long answer, what each stand-in was asked (query, model, format); and the provider
 * failures a turn survives: a refused key (the apology, counted on /metrics, the call goes on), a
 * socket dropped mid-utterance (retried transparently: the right words), a first audio later than
 * the adapter's bound (the apology in the embedded voice, not the unsaid answer).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { ELEVENLABS_LIMITS } from '../../../src/conversations/engines/elevenlabs/elevenlabs-session';
import { ENGINE_APOLOGY } from '../../../src/conversations/engines/engines';
import { allEvents, type CallsService, startCallsService } from '../../support/calls-harness';
import { DeepgramStandIn } from '../../support/deepgram-stand-in';
import { ElevenLabsStandIn } from '../../support/elevenlabs-stand-in';
import { eventually } from '../../support/eventually';
import { OpenAiStandIn } from '../../support/openai-stand-in';
import { killAllServices } from '../../support/process';
import { captureAgentAudio, heardInPage, recognise } from '../../support/room-audio-harness';
import { type Browser, decodeWav, launchBrowser } from '../../support/rooms-harness';
import { createTenant, type TenantInfo } from '../../support/webhooks-harness';
import { recordedBargeIn, voicedFrames } from '../../support/recorded-barge-in';

/**
 * Words pocketsphinx (the Deepgram stand-in's) hears of "I would like to book an appointment for tomorrow
 * morning please" through Chromium's fake microphone and Opus: under load it may hear only some ("i
 * would like to put in a blind man charge a mile mining please").
 */
const HEARD_WORDS = /would like|appointment|tomorrow|morning|please/;

jest.setTimeout(120_000);

const TTS_MODEL = 'eleven_turbo_v2_5';
/** agent_config.endpointing_ms: sent to Deepgram as `endpointing`. */
const ENDPOINTING_MS = 500;

const dir = mkdtempSync(join(tmpdir(), 'streaming-room-'));
let deepgram: DeepgramStandIn;
let elevenLabs: ElevenLabsStandIn;
let h: CallsService;
let tenant: TenantInfo;
const browsers: Browser[] = [];

interface Turn {
  role: string;
  content: string;
  t: number;
}
interface Metrics {
  t: number;
  user_speech_end_ms: number;
  agent_audio_start_ms: number;
  voice_to_voice_ms: number;
  stt_ms: number;
  llm_first_token_ms: number;
  tts_first_audio_ms: number;
  interrupted: boolean;
}
interface Session {
  session_id: string;
  status: string;
  ended_at: string | null;
  end_reason: string | null;
  transcript: Turn[];
  metrics: { turns: Metrics[] };
}

/** The service on the stand-ins: Deepgram for recognition, ElevenLabs (or `tts`) for synthesis. */
function streamingEnv(tts: Record<string, string>): Record<string, string> {
  return {
    STT_PROVIDER: 'deepgram',
    STT_URL: deepgram.url,
    STT_API_KEY: deepgram.apiKey,
    ...tts,
  };
}

beforeAll(async () => {
  deepgram = await DeepgramStandIn.start();
  elevenLabs = await ElevenLabsStandIn.start();
  await deepgram.warmUp();
  h = await startCallsService(
    streamingEnv({
      TTS_PROVIDER: 'elevenlabs',
      TTS_URL: elevenLabs.url,
      TTS_API_KEY: elevenLabs.apiKey,
      TTS_MODEL,
    }),
  );
  tenant = await createTenant(h.call, h.svc.adminToken, 'Streaming Rooms Co');
});

afterAll(async () => {
  if (process.env.ROOMS_DEBUG) console.log(h?.diagnostics(20_000));
  for (const browser of browsers) await browser.close();
  await h?.destroy();
  await killAllServices();
  await deepgram?.close();
  await elevenLabs?.close();
  rmSync(dir, { recursive: true, force: true });
});

let made = 0;
/**
 * The microphone: `leadSeconds` of silence (the call connects, the agent greets), then each
 * utterance followed by its pause, at 16 kHz.
 */
function microphone(leadSeconds: number, utterances: [text: string, pauseAfterSeconds: number][]): string {
  const n = ++made;
  const parts = utterances.map(([text, pause], i) => {
    const raw = join(dir, `mic${n}-${i}-raw.wav`);
    const out = join(dir, `mic${n}-${i}.wav`);
    execFileSync('flite', ['-voice', 'slt', '-t', text, '-o', raw]);
    execFileSync('sox', [raw, '-r', '16000', '-c', '1', '-b', '16', '-e', 'signed-integer', out]);
    execFileSync('sox', [
      out,
      join(dir, `mic${n}-${i}-padded.wav`),
      'pad',
      i === 0 ? String(leadSeconds) : '0',
      String(pause),
    ]);
    return join(dir, `mic${n}-${i}-padded.wav`);
  });
  const out = join(dir, `mic${n}.wav`);
  if (parts.length === 1) execFileSync('sox', [parts[0]!, out]);
  else execFileSync('sox', [...parts, out]);
  return out;
}

/** A room of the tenant on `svc`, joined by chromium playing `wav`; the agent's audio kept in the page. */
async function joinRoom(
  svc: CallsService,
  apiKey: string,
  wav: string,
  agent: Record<string, unknown>,
): Promise<{ page: Page; sessionId: string }> {
  const created = await svc.call('POST', '/v1/rooms', {
    token: apiKey,
    body: { agent_config: { prompt: 'You are the front desk.', endpointing_ms: ENDPOINTING_MS, ...agent } },
  });
  expect(created.status).toBe(201);
  const room = created.body as { room_id: string; room_url: string };
  const browser = await launchBrowser({ microphoneWav: wav });
  browsers.push(browser);
  const page = await browser.context.newPage();
  await captureAgentAudio(page);
  await page.goto(room.room_url);
  await page.getByRole('button', { name: 'Join' }).click();
  await page.getByRole('status').filter({ hasText: 'Connected' }).waitFor({ timeout: 15_000 });
  const sessionId = await eventually(async () => {
    const view = (await svc.call('GET', `/v1/rooms/${room.room_id}`, { token: apiKey })).body as {
      session_id: string | null;
    };
    expect(view.session_id).toEqual(expect.any(String));
    return view.session_id!;
  }, 10_000);
  return { page, sessionId };
}

async function session(svc: CallsService, apiKey: string, id: string): Promise<Session> {
  return (await svc.call('GET', `/v1/sessions/${id}`, { token: apiKey })).body as Session;
}

/** Waits until the session's transcript satisfies `check` (which throws until it does). */
async function transcriptUntil(
  svc: CallsService,
  apiKey: string,
  id: string,
  check: (turns: Turn[]) => void,
  timeoutMs = 45_000,
): Promise<Session> {
  let last: Session | undefined;
  return eventually(
    async () => {
      last = await session(svc, apiKey, id);
      check(last.transcript ?? []);
      return last;
    },
    timeoutMs,
    250,
  ).catch((err: unknown) => {
    throw new Error(`${String(err)}\ntranscript: ${JSON.stringify(last?.transcript)}\n${svc.diagnostics()}`);
  });
}

/** Hangs up in the page, then the ended session with its metrics. */
async function hangUp(svc: CallsService, apiKey: string, page: Page, id: string): Promise<Session> {
  await page.getByRole('button', { name: 'Hang up' }).click();
  await page.getByRole('heading', { name: 'The call has ended' }).waitFor();
  const ended = await eventually(
    async () => {
      const s = await session(svc, apiKey, id);
      expect(s.ended_at).not.toBeNull();
      return s;
    },
    20_000,
    250,
  );
  await page.close();
  return ended;
}

/** The stretches of sound in `samples` (gaps under 400 ms joined), as [start, end) sample indexes. */
function soundStretches(samples: Int16Array): [number, number][] {
  const voiced = voicedFrames(samples);
  const out: [number, number][] = [];
  for (let f = 0; f < voiced.length; f++) {
    if (!voiced[f]) continue;
    const last = out[out.length - 1];
    if (last && f * 320 - last[1] < 20 * 320) last[1] = (f + 1) * 320;
    else out.push([f * 320, (f + 1) * 320]);
  }
  return out;
}

/** What the page heard after its first stretch of sound (the greeting): the agent's answers. */
function afterGreeting(heard: Int16Array): Int16Array {
  const stretches = soundStretches(heard);
  expect(stretches.length).toBeGreaterThanOrEqual(2);
  return heard.subarray(stretches[0]![1]);
}

/** What the page heard, once it has heard `seconds` of sound after the greeting. */
async function heardAfterGreeting(page: Page, seconds: number): Promise<Int16Array> {
  return eventually(
    async () => {
      const heard = await heardInPage(page);
      const stretches = soundStretches(heard);
      const after = stretches.slice(1).reduce((n, [from, to]) => n + to - from, 0);
      expect(after).toBeGreaterThanOrEqual(seconds * 16_000);
      return heard;
    },
    15_000,
    250,
  );
}

/** The service's output so far (LOG_LEVEL warn: its warnings and errors). */
const logs = (svc: CallsService): string => `${svc.svc.stdout()}${svc.svc.stderr()}`;

async function engineFailures(engine: string): Promise<number> {
  const res = await h.svc.fetch('/metrics', { admin: true });
  expect(res.status).toBe(200);
  const match = new RegExp(`^conversation_engine_failures_total\\{engine="${engine}"\\} (\\d+)`, 'm').exec(
    await res.text(),
  );
  return Number(match?.[1] ?? 0);
}

describe('Deepgram + ElevenLabs', () => {
  it('a turn end to end: recognised, answered, heard, measured; a barge-in cuts the long answer; the stand-ins were asked as documented', async () => {
    const dgBefore = deepgram.connections.length;
    const elBefore = elevenLabs.connections.length;
    const wav = microphone(5, [
      ['I would like to book an appointment for tomorrow morning please.', 1.8],
      ['Transfer me to a human please.', 10],
    ]);
    const { page, sessionId } = await joinRoom(h, tenant.api_key, wav, {
      first_message: 'Hello, front desk.',
      transfer_number: '+14155550123',
    });
    // The second utterance asks for a human: the agent transfers, which ends the room.
    const done = await transcriptUntil(h, tenant.api_key, sessionId, (turns) => {
      expect(turns.filter((t) => t.role === 'agent').map((t) => t.content)).toContainEqual(
        expect.stringMatching(/transferring/i),
      );
    });
    const s = await eventually(
      async () => {
        const now = await session(h, tenant.api_key, sessionId);
        expect(now.ended_at).not.toBeNull();
        expect(now.metrics.turns.length).toBeGreaterThanOrEqual(1);
        return now;
      },
      20_000,
      250,
    );
    const heard = await heardInPage(page);
    await page.close();
    const turns = s.transcript;
    expect(turns[0]).toMatchObject({ role: 'agent', content: 'Hello, front desk.' });
    const user = turns.filter((t) => t.role === 'user').map((t) => t.content);
    // The user's words are the Deepgram stand-in's (pocketsphinx's) final results.
    expect(user[0]).toMatch(HEARD_WORDS);
    expect(user.join(' | ')).toMatch(/human/);
    const agent = turns.filter((t) => t.role === 'agent').map((t) => t.content);
    const answer = agent.find((c) => c.startsWith('I heard'));
    expect(answer).toBeDefined();
    expect(done.transcript.length).toBeGreaterThanOrEqual(4);

    // The first answer's metrics: the breakdown adds up to no more than the voice-to-voice time.
    const first = s.metrics.turns[0]!;
    expect(first.stt_ms).toBeGreaterThanOrEqual(0);
    expect(first.tts_first_audio_ms).toBeGreaterThan(0);
    expect(first.voice_to_voice_ms).toBeGreaterThan(0);
    expect(first.voice_to_voice_ms).toBe(first.agent_audio_start_ms - first.user_speech_end_ms);
    expect(first.stt_ms + first.llm_first_token_ms + first.tts_first_audio_ms).toBeLessThanOrEqual(
      first.voice_to_voice_ms + 5,
    );
    // A streaming recogniser and synthesiser on loopback: well under the bounds of a live call.
    expect(first.voice_to_voice_ms).toBeLessThan(5_000);
    // The long answer was cut by the second utterance.
    expect(first.interrupted).toBe(true);
    expect(s.metrics.turns.some((m) => m.interrupted)).toBe(true);
    // Cut: what is in the transcript is less than what the agent meant to say ("I heard: <all of it>.").
    expect(answer!.split(' ').length).toBeLessThan(2 + user[0]!.split(' ').length);

    // The page heard the greeting, then the answer (sound after the greeting).
    const answers = afterGreeting(heard);
    expect(voicedFrames(answers).filter(Boolean).length).toBeGreaterThan(25);

    // The recording: the agent was speaking when the user started again, and fell silent soon after.
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
    const pcm = decodeWav(Buffer.from(await (await fetch(String(recorded.data.recording_url))).arrayBuffer()));
    expect(pcm.sampleRate).toBe(16000);
    const [agentChannel, userChannel] = pcm.channelData.map((c) => Int16Array.from(c)) as [Int16Array, Int16Array];
    // The second utterance (after 1 s of silence following the first) cut the agent off.
    const barge = recordedBargeIn(agentChannel, userChannel);
    expect(barge.secondStart).toBeGreaterThan(0);
    expect(barge.agentWasSpeaking).toBe(true);
    // As rooms-conversation.e2e-spec.ts: the bound is 300 ms (the benchmark's), slack for a loaded machine.
    expect(barge.agentStopMs).toBeLessThan(800);

    // What the stand-ins were asked.
    const listened = deepgram.connections.slice(dgBefore);
    expect(listened.length).toBeGreaterThanOrEqual(2);
    for (const c of listened) {
      expect(c.query).toMatchObject({
        model: 'nova-3',
        encoding: 'linear16',
        sample_rate: '16000',
        endpointing: String(ENDPOINTING_MS),
        language: 'en-US',
      });
      expect(c.authorization).toBe(`Token ${deepgram.apiKey}`);
    }
    const spoken = elevenLabs.connections.slice(elBefore);
    expect(spoken.length).toBeGreaterThanOrEqual(2);
    for (const c of spoken) {
      expect(c.apiKeyOk).toBe(true);
      expect(c.query).toMatchObject({ model_id: TTS_MODEL, output_format: 'pcm_24000' });
    }
  });

  it('a refused Deepgram key: the turn is answered with the apology (heard, counted), and the call goes on', async () => {
    const failuresBefore = await engineFailures('recognition');
    const wav = microphone(3, [
      ['I would like to book an appointment for tomorrow morning please.', 7],
      ['What is the weather like tomorrow?', 4],
    ]);
    // The provider stops accepting the service's key (revoked) for the first utterance.
    const key = deepgram.options.apiKey;
    deepgram.options.apiKey = 'dg-revoked-key';
    let restored = false;
    try {
      const { page, sessionId } = await joinRoom(h, tenant.api_key, wav, { first_message: 'Hello.' });
      await transcriptUntil(h, tenant.api_key, sessionId, (turns) => {
        expect(turns.map((t) => t.content)).toContain(ENGINE_APOLOGY);
      });
      deepgram.options.apiKey = key;
      restored = true;
      expect(await engineFailures('recognition')).toBe(failuresBefore + 1);
      // Not ended after one failed turn: the next utterance is recognised and answered.
      const s = await transcriptUntil(h, tenant.api_key, sessionId, (turns) => {
        expect(turns.filter((t) => t.role === 'agent').map((t) => t.content)).toContainEqual(
          expect.stringMatching(/^I heard/),
        );
      });
      expect(s.ended_at).toBeNull();
      const heard = await heardAfterGreeting(page, 3);
      const ended = await hangUp(h, tenant.api_key, page, sessionId);
      expect(ended.status).toBe('completed');
      // The reason, in the service's log: the engine, its host and its answer (never the key).
      expect(logs(h)).toMatch(
        /could not be recognised: The speech recognition engine at 127\.0\.0\.1:\d+ answered 401: Invalid credentials/,
      );
      expect(logs(h)).not.toContain(key);
      const turns = ended.transcript;
      // No user turn for the utterance whose words are unknown: the apology answers it.
      expect(turns.map((t) => [t.role, t.content])).toEqual([
        ['agent', 'Hello.'],
        ['agent', ENGINE_APOLOGY],
        ['user', expect.stringMatching(/weather|tomorrow/)],
        ['agent', expect.stringMatching(/^I heard/)],
      ]);
      // The apology was heard in the page.
      const words = await recognise(afterGreeting(heard));
      expect(words).toMatch(/sorry|technical|problem|again/);
    } finally {
      if (!restored) deepgram.options.apiKey = key;
    }
  });

  it('a Deepgram socket dropped mid-utterance: the adapter replaces it, the turn is answered with the right words', async () => {
    const before = deepgram.connections.length;
    // About a second of the utterance's audio (16 kHz, 16-bit) reaches the stand-in, then it drops.
    deepgram.dropAfterBytes(32_000, 1);
    const wav = microphone(3, [['I would like to book an appointment for tomorrow morning please.', 6]]);
    const { page, sessionId } = await joinRoom(h, tenant.api_key, wav, { first_message: 'Hello.' });
    await transcriptUntil(h, tenant.api_key, sessionId, (turns) => {
      expect(turns.filter((t) => t.role === 'agent').map((t) => t.content)).toContainEqual(
        expect.stringMatching(/^I heard/),
      );
    });
    const ended = await hangUp(h, tenant.api_key, page, sessionId);
    const turns = ended.transcript;
    // Transparent: no apology, no failure logged.
    expect(turns.map((t) => t.content)).not.toContain(ENGINE_APOLOGY);
    expect(logs(h)).not.toMatch(/dropped the connection/);
    const user = turns.filter((t) => t.role === 'user');
    expect(user).toHaveLength(1);
    expect(user[0]!.content).toMatch(HEARD_WORDS);
    expect(turns.find((t) => t.role === 'agent' && t.content.startsWith('I heard'))!.content).toContain(
      user[0]!.content.split(' ').slice(-1)[0]!,
    );
    // The first connection was dropped, the replacement heard the whole utterance again.
    const used = deepgram.connections.slice(before);
    expect(used.length).toBeGreaterThanOrEqual(2);
    expect(used[0]!.closed?.by).toBe('dropped');
    expect(used[1]!.bytes).toBeGreaterThan(used[0]!.bytes);
  });

  it(`ElevenLabs' first audio later than the adapter's bound (${ELEVENLABS_LIMITS.firstAudioMs} ms): the apology in the embedded voice, not the unsaid answer`, async () => {
    const wav = microphone(3, [['I would like to book an appointment for tomorrow morning please.', 10]]);
    const { page, sessionId } = await joinRoom(h, tenant.api_key, wav, { first_message: 'Hello.' });
    // The greeting comes first, at once; then the provider becomes slow.
    await transcriptUntil(h, tenant.api_key, sessionId, (turns) => expect(turns[0]?.content).toBe('Hello.'));
    const spokenBefore = elevenLabs.spoken.length;
    const failuresBefore = await engineFailures('synthesis');
    elevenLabs.firstAudioDelayMs = ELEVENLABS_LIMITS.firstAudioMs + 2_000;
    try {
      await transcriptUntil(h, tenant.api_key, sessionId, (turns) => {
        expect(turns.map((t) => t.content)).toContain(ENGINE_APOLOGY);
      });
    } finally {
      elevenLabs.firstAudioDelayMs = 0;
    }
    expect(await engineFailures('synthesis')).toBe(failuresBefore + 1);
    expect(logs(h)).toMatch(
      new RegExp(
        `could not be synthesised: The speech synthesis engine at 127\\.0\\.0\\.1:\\d+ did not answer in time \\(${ELEVENLABS_LIMITS.firstAudioMs} ms\\)`,
      ),
    );
    const heard = await heardAfterGreeting(page, 2);
    const ended = await hangUp(h, tenant.api_key, page, sessionId);
    const turns = ended.transcript;
    expect(turns.map((t) => t.role)).toEqual(['agent', 'user', 'agent']);
    expect(turns[1]!.content).toMatch(HEARD_WORDS);
    // The answer that was never heard is not in the transcript; the apology is.
    expect(turns[2]!.content).toBe(ENGINE_APOLOGY);
    // ElevenLabs never spoke the apology: the embedded voice (flite in the service) did.
    expect(elevenLabs.spoken.slice(spokenBefore).map((s) => s.text)).not.toContainEqual(
      expect.stringContaining('technical problem'),
    );
    expect(await recognise(afterGreeting(heard))).toMatch(/sorry|technical|problem|again/);
  });
});

describe('Deepgram + OpenAI speech (streamed body)', () => {
  let openai: OpenAiStandIn;
  let svc: CallsService;
  let other: TenantInfo;

  beforeAll(async () => {
    openai = await OpenAiStandIn.start();
    svc = await startCallsService(
      streamingEnv({ TTS_PROVIDER: 'openai', TTS_URL: openai.url, TTS_API_KEY: openai.apiKey }),
    );
    other = await createTenant(svc.call, svc.svc.adminToken, 'Streaming Speech Co');
  });

  afterAll(async () => {
    await svc?.destroy();
    await openai?.close();
  });

  it('one turn: recognised by Deepgram, answered in speech streamed from /v1/audio/speech and heard', async () => {
    const before = deepgram.connections.length;
    const wav = microphone(3, [['I would like to book an appointment for tomorrow morning please.', 7]]);
    const { page, sessionId } = await joinRoom(svc, other.api_key, wav, { first_message: 'Hello.' });
    await transcriptUntil(svc, other.api_key, sessionId, (turns) => {
      expect(turns.filter((t) => t.role === 'agent').map((t) => t.content)).toContainEqual(
        expect.stringMatching(/^I heard/),
      );
    });
    const heard = await heardAfterGreeting(page, 1.5);
    const ended = await hangUp(svc, other.api_key, page, sessionId);
    const turns = ended.transcript;
    expect(turns.map((t) => t.role)).toEqual(['agent', 'user', 'agent']);
    expect(turns[1]!.content).toMatch(HEARD_WORDS);
    expect(turns[2]!.content).toMatch(/^I heard/);
    const [first] = ended.metrics.turns;
    expect(first).toMatchObject({ interrupted: false });
    expect(first!.voice_to_voice_ms).toBe(first!.agent_audio_start_ms - first!.user_speech_end_ms);
    expect(first!.stt_ms + first!.llm_first_token_ms + first!.tts_first_audio_ms).toBeLessThanOrEqual(
      first!.voice_to_voice_ms + 5,
    );
    expect(first!.tts_first_audio_ms).toBeGreaterThan(0);
    expect(voicedFrames(afterGreeting(heard)).filter(Boolean).length).toBeGreaterThan(25);
    // The speech came from the stand-in: the greeting and the answer, as pcm.
    const speech = openai.requests.filter((r) => r.path === '/v1/audio/speech').map((r) => r.body);
    expect(speech).toContainEqual(expect.objectContaining({ model: 'tts-1', response_format: 'pcm' }));
    expect(speech.map((b) => String(b.input)).join(' ')).toMatch(/I heard/);
    expect(deepgram.connections.length).toBeGreaterThan(before);
  });
});
