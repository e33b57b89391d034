/**
 * A phone call on the hosted streaming engines (docs/speech-engines.md), end to end: the service
 * (node dist/main.js) with STT_PROVIDER=deepgram and TTS_PROVIDER=elevenlabs, then with OpenAI's
 * streamed speech, against their loopback stand-ins (pocketsphinx and flite for real), calling
 * baresip over SIP on loopback (G.711 at 8 kHz).
 * baresip answers, says nothing at first (the agent, having heard no one, greets as to a person),
 * asks its question after the greeting, and records what it hears. One turn is answered end to end:
 * the transcript holds the greeting, the caller's words as the Deepgram stand-in recognised them and
 * the built-in dialogue's "I heard: …", and the callee heard that answer.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodePcm16Wav } from '../../../src/kernel/audio/wav';
import { startBaresip } from '../../support/baresip';
import { type CallsService, stopCallsSuite } from '../../support/calls-harness';
import { DeepgramStandIn } from '../../support/deepgram-stand-in';
import { ElevenLabsStandIn } from '../../support/elevenlabs-stand-in';
import { OpenAiStandIn } from '../../support/openai-stand-in';
import { eventually } from '../../support/eventually';
import { startTelephonyService } from '../../support/telephony-service';
import type { TenantInfo } from '../../support/webhooks-harness';

jest.setTimeout(120_000);

const CALLEE = '+14155550177';
const OUR_NUMBER = '+14155550188';
const TTS_MODEL = 'eleven_turbo_v2_5';
/** When the callee asks its question, from the answer: after the agent's greeting (5 s of silence, then about 2 s). */
const QUESTION_AT_S = 8.5;

const dir = mkdtempSync(join(tmpdir(), 'streaming-sip-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** flite saying `text` at 8 kHz, `lead` seconds of silence before and `trail` after; its length in seconds. */
function phoneVoice(text: string, lead: number, trail: number): { wav: string; speechSeconds: number } {
  const raw = join(dir, 'voice16.wav');
  const speech = join(dir, 'voice8.wav');
  const out = join(dir, 'voice.wav');
  execFileSync('flite', ['-voice', 'slt', '-t', text, '-o', raw]);
  execFileSync('sox', [raw, '-r', '8000', '-c', '1', '-b', '16', speech]);
  execFileSync('sox', [speech, out, 'pad', String(lead), String(trail)]);
  return { wav: out, speechSeconds: decodePcm16Wav(readFileSync(speech)).samples.length / 8000 };
}

/** The synthesiser of each run: its stand-in, the service's settings, and what it was asked to say. */
interface Synthesis {
  env: Record<string, string>;
  /** Checks what the stand-in was asked; the seconds of speech it made for the answer to `words`. */
  said(words: string): number;
  close(): Promise<void>;
}

const SYNTHESISERS: [string, () => Promise<Synthesis>][] = [
  [
    'ElevenLabs streaming input',
    async () => {
      const elevenLabs = await ElevenLabsStandIn.start();
      return {
        env: { TTS_PROVIDER: 'elevenlabs', TTS_URL: elevenLabs.url, TTS_API_KEY: elevenLabs.apiKey, TTS_MODEL },
        said: (words) => {
          expect(elevenLabs.connections.length).toBeGreaterThanOrEqual(2);
          for (const c of elevenLabs.connections) {
            expect(c.query).toMatchObject({ model_id: TTS_MODEL, output_format: 'pcm_24000' });
          }
          expect(elevenLabs.spoken.map((s) => s.text).join(' ')).toContain('I heard');
          const said = elevenLabs.spoken.filter((s) => s.text.includes('I heard') || s.text.includes(words));
          return said.reduce((n, s) => n + s.samples, 0) / 24_000;
        },
        close: () => elevenLabs.close(),
      };
    },
  ],
  [
    "OpenAI speech's streamed body",
    async () => {
      const openAi = await OpenAiStandIn.start();
      return {
        env: { TTS_PROVIDER: 'openai', TTS_URL: openAi.url, TTS_API_KEY: openAi.apiKey, TTS_MODEL: 'tts-1' },
        said: (words) => {
          const asked = openAi.requests.filter((r) => r.path === '/v1/audio/speech').map((r) => String(r.body.input));
          expect(asked.join(' ')).toContain('I heard');
          expect(asked.join(' ')).toContain(words);
          // flite speaks about 13 characters a second: the length of the answer asked for.
          const answer = `I heard: ${words}.`;
          return answer.length / 13;
        },
        close: () => openAi.close(),
      };
    },
  ],
];

describe.each(SYNTHESISERS)('a SIP call on Deepgram and %s', (_name, start) => {
  let deepgram: DeepgramStandIn;
  let synthesis: Synthesis;
  let h: CallsService;
  let tenant: TenantInfo;
  let trunkPort: number;

  beforeAll(async () => {
    deepgram = await DeepgramStandIn.start();
    synthesis = await start();
    await deepgram.warmUp();
    ({ h, tenant, trunkPort } = await startTelephonyService('Streaming Phone Co', [OUR_NUMBER], {
      baresip: true,
      env: { STT_PROVIDER: 'deepgram', STT_URL: deepgram.url, STT_API_KEY: deepgram.apiKey, ...synthesis.env },
    }));
  });

  afterAll(async () => {
    await stopCallsSuite(h);
    await deepgram?.close();
    await synthesis?.close();
  });

  it('an outbound call to baresip: the caller is recognised by Deepgram, answered in streamed speech, and hears it', async () => {
    const { wav, speechSeconds } = phoneVoice(
      'I would like to book an appointment for tomorrow morning please.',
      QUESTION_AT_S,
      7,
    );
    const phone = await startBaresip(wav, { port: trunkPort, user: CALLEE });
    try {
      const placed = await h.call('POST', '/v1/calls', {
        token: tenant.api_key,
        body: {
          to: CALLEE,
          from: OUR_NUMBER,
          agent_config: { prompt: 'You are Ava of Northwind Dental.', first_message: 'Hello, this is Ava.' },
          test_mode: false,
        },
      });
      expect(placed.status).toBe(201);
      const id = placed.body.session_id as string;
      let session: any;
      await eventually(async () => {
        session = (await h.call('GET', `/v1/sessions/${id}`, { token: tenant.api_key })).body;
        return session.ended_at != null;
      }, 60_000).catch(() => {
        throw new Error(`session never ended: ${JSON.stringify(session)}\n${h.diagnostics()}`);
      });
      expect(session).toMatchObject({ status: 'completed', direction: 'outbound' });
      const turns = session.transcript as { role: string; content: string; t: number }[];
      expect(turns.map((t) => t.role)).toEqual(['agent', 'user', 'agent']);
      expect(turns[0]!.content).toBe('Hello, this is Ava.');
      // At 8 kHz pocketsphinx (the stand-in's) hears a few of the words; the dialogue says them back.
      const words = turns[1]!.content;
      expect(words).toMatch(/\w/);
      expect(turns[1]!.t).toBeGreaterThan(QUESTION_AT_S - 2);
      expect(turns[2]!.content).toBe(`I heard: ${words}.`);
      const metrics = session.metrics.turns as Record<string, number | boolean>[];
      expect(metrics).toHaveLength(1);
      expect(metrics[0]).toMatchObject({
        interrupted: false,
        stt_ms: expect.any(Number),
        tts_first_audio_ms: expect.any(Number),
        voice_to_voice_ms: expect.any(Number),
      });
      const m = metrics[0] as Record<string, number>;
      expect(m.voice_to_voice_ms).toBe(m.agent_audio_start_ms! - m.user_speech_end_ms!);
      expect(m.stt_ms! + m.llm_first_token_ms! + m.tts_first_audio_ms!).toBeLessThanOrEqual(m.voice_to_voice_ms! + 5);
      // The caller's speech ended when its file's question did.
      expect(m.user_speech_end_ms! / 1000).toBeCloseTo(QUESTION_AT_S + speechSeconds, 0);

      // The stand-ins heard the call's audio at 16 kHz, and spoke at 24 kHz.
      expect(deepgram.connections.length).toBeGreaterThanOrEqual(1);
      for (const c of deepgram.connections) {
        expect(c.query).toMatchObject({ model: 'nova-3', encoding: 'linear16', sample_rate: '16000' });
      }
      const saidSeconds = synthesis.said(words);

      // What baresip heard after its question: the answer, when the session says it started, about as
      // long as ElevenLabs' speech of it. (pocketsphinx at 8 kHz hears too little of flite's voice to
      // check its words: "i hurry he can" for "I heard: …".)
      await eventually(() => phone.heardFiles().length === 1, 15_000);
      const heard = decodePcm16Wav(readFileSync(phone.heardFiles()[0]!)).samples;
      const questionEnd = Math.round((QUESTION_AT_S + speechSeconds) * 8000);
      const sound = soundStretches(heard.subarray(questionEnd)).map(([from, to]) => [
        (questionEnd + from) / 8000,
        (questionEnd + to) / 8000,
      ]);
      expect(sound.length).toBeGreaterThanOrEqual(1);
      const [answerFrom, answerTo] = sound[0]!;
      const startedAt = (metrics[0]!.agent_audio_start_ms as number) / 1000;
      expect(Math.abs(answerFrom! - startedAt)).toBeLessThan(1.5);
      expect(answerTo! - answerFrom!).toBeGreaterThan(saidSeconds * 0.6);
      expect(answerTo! - answerFrom!).toBeLessThan(saidSeconds + 1);
      console.log(JSON.stringify({ words, sound, saidSeconds, metrics: metrics[0] }));
    } finally {
      await phone.stop();
    }
  });
});

/** The stretches of sound in 8 kHz `samples` (20 ms frames louder than speech's floor; gaps under 400 ms joined), as sample indexes. */
function soundStretches(samples: Int16Array): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i + 160 <= samples.length; i += 160) {
    let sum = 0;
    for (let j = i; j < i + 160; j++) sum += samples[j]! ** 2;
    if (Math.sqrt(sum / 160) <= 300) continue;
    const last = out[out.length - 1];
    if (last && i - last[1] < 20 * 160) last[1] = i + 160;
    else out.push([i, i + 160]);
  }
  return out;
}
