import { Pool } from 'pg';
import { EmbeddedSynthesizer } from '../src/conversations/engines/embedded/embedded-synthesizer';
import { ENDPOINTING } from '../src/conversations/pipeline/endpointer';
import { percentiles } from './percentiles';
import { clusterCpuMs, postmasterPid, processCpuMs } from './probes';
import { ServiceProcess, startServiceProcess } from './service-process';
import type { BenchContext } from './support';
import { JoinRefused, sleep, VoiceClient } from './voice-client';

/**
 * The agent that talks, measured as a participant hears it: conversations in rooms, each driven by a
 * WebRTC client peer (werift, Opus, 127.0.0.1) that speaks recorded utterances (flite's slt voice)
 * to the service's agent with the embedded engines (pocketsphinx, flite) and the built-in dialogue.
 * The service runs as an operator runs it (`node dist/main.js`, a child process).
 *
 * Each conversation: the agent's first message; BENCH_AGENT_TURNS (3) turns, each from the end of
 * the user's speech (its last voiced frame sent) to the agent's first voiced frame heard
 * (voice-to-voice); one barge-in (the user talks 600 ms into a long answer: from the user's first
 * frame to the agent's last voiced frame heard); "goodbye". Then the session's `metrics` give each
 * turn's engine times, and the platform's share is voice-to-voice minus the endpointing silence (500 ms,
 * a setting of the VAD; none with a streaming recogniser, whose wait is in stt_ms), recognition,
 * dialogue and synthesis. Run at each concurrency of BENCH_AGENT_LEVELS (1,5,10,20) in turn.
 *
 * Jitter: per conversation, how far the agent's packet arrivals stray from the 20 ms clock
 * (|gap − 20 ms|, p99 over all gaps), as the client sees them: an upper bound of the service's own,
 * since the client's event loop adds its delays. Underruns: the service's own count of frames the
 * agent had to say but had not synthesised in time (`conversation_audio_underruns_total` on /metrics).
 *
 * Targets (at 1 conversation): voice-to-voice p50 ≤ 1,000 ms and p95 ≤ 1,500 ms; the platform's share
 * p95 ≤ 50 ms; barge-in p95 ≤ 300 ms. At 10 at once: no underrun, jitter p99 ≤ 20 ms.
 */

const LINES = [
  'What time do you open tomorrow',
  'I would like to book an appointment',
  'How much does a cleaning cost',
];
export const LONG = 'Please tell me everything about your opening hours your prices your services and your address';
export const BARGE = 'Wait wait';
const GOODBYE = 'Goodbye';
/** The silence that ends an utterance (docs/conversations.md): part of voice-to-voice, not of the platform's work. */
const ENDPOINTING_MS = ENDPOINTING.endSilenceFrames * ENDPOINTING.frameMs;
/**
 * BENCH_STT=deepgram (with BENCH_ENGINES=stand-in): a streaming recogniser ends the turn, and the wait
 * for it (its endpointing and its final words) is in stt_ms; there is no silence of the platform's own.
 */
const STREAMING = process.env.BENCH_ENGINES === 'stand-in' && process.env.BENCH_STT === 'deepgram';
const PLATFORM_SILENCE_MS = STREAMING ? 0 : ENDPOINTING_MS;
/** The streaming recogniser's endpointing (BENCH_STT_ENDPOINT_MS, 200 ms by default). */
const STREAMING_ENDPOINT_MS = Number(process.env.BENCH_STT_ENDPOINT_MS ?? 200);
const FIRST_MESSAGE = 'Hello, this is the benchmark agent. How can I help you?';
/**
 * BENCH_LIVE=1: each participant also follows its room's live channel for the whole call, as the
 * room's landing page and the web SDK do (`GET {room_url}/live`: the transcript as it is stored).
 */
const LIVE = process.env.BENCH_LIVE === '1';

interface Utterances {
  lines: Int16Array[];
  long: Int16Array;
  barge: Int16Array;
  goodbye: Int16Array;
}

interface ConversationFigures {
  voiceToVoice: number[];
  bargeIn: number[];
  platformShare: number[];
  jitter: number[];
  failures: string[];
  /** Conversations the service refused (503 at_capacity) at the join. */
  refused: number;
  /** Per conversation: from its WHIP offer to the agent's greeting heard (ms). */
  greeting: number[];
  /** BENCH_LIVE: the turns each live channel told during its call. */
  liveTurns: number[];
}

export async function agentBench(ctx: BenchContext): Promise<object> {
  const levels = (process.env.BENCH_AGENT_LEVELS ?? '1,5,10,20').split(',').map(Number);
  const turns = Number(process.env.BENCH_AGENT_TURNS ?? 3);
  const speech = await utterances();
  let service: ServiceProcess | null = null;
  const results: Record<string, object> = {};
  try {
    service = await startServiceProcess(ctx.databaseUrl, { LOG_LEVEL: 'warn', MAX_LIVE_ROOMS_PER_TENANT: '100' });
    ctx.log(`service pid ${service.pid} at ${service.baseUrl}`);
    // The PostgreSQL cluster's CPU is counted from its postmaster down (probes.ts).
    const pool = new Pool({ connectionString: ctx.databaseUrl, max: 1 });
    const postmaster = await postmasterPid(pool).finally(() => pool.end());
    // One conversation to warm the engines' helpers and the JIT; not counted.
    await runLevel(service, 1, 1, speech);
    for (const level of levels) {
      const before = await serviceMetrics(service.baseUrl);
      const cpuBefore = { at: Date.now(), service: processCpuMs(service.pid), postgres: clusterCpuMs(postmaster) };
      const figures = await runLevel(service, level, turns, speech);
      const percentOfCore = (ms: number | null, before: number | null) =>
        ms === null || before === null ? null : Math.round(((ms - before) * 100) / (Date.now() - cpuBefore.at));
      const cpuPercent = {
        service: percentOfCore(processCpuMs(service.pid), cpuBefore.service),
        postgres: percentOfCore(clusterCpuMs(postmaster), cpuBefore.postgres),
      };
      const after = await serviceMetrics(service.baseUrl);
      const underrun = after.underruns - before.underruns;
      const jitter = jitterP99(before.jitterBuckets, after.jitterBuckets);
      const summary = {
        conversations: level,
        // The service admits what its capacity allows (docs/capacity.md); the figures are the admitted ones'.
        admitted: level - figures.refused,
        refused_503: figures.refused,
        greeting_after_join_ms: percentiles(figures.greeting),
        voice_to_voice_ms: percentiles(figures.voiceToVoice),
        platform_share_ms: percentiles(figures.platformShare),
        barge_in_ms: percentiles(figures.bargeIn),
        // The service's own pacing: p99 of how far each frame's send strays from 20 ms after the
        // previous (room_agent_frame_jitter_ms, a bucket's upper bound); the client's view beside it.
        jitter_p99_ms: jitter,
        client_jitter_p99_ms: percentiles(figures.jitter).p99,
        underruns: underrun,
        failures: figures.failures,
        // CPU over the level, in % of one core: the service's process, and the PostgreSQL cluster.
        cpu_percent: cpuPercent,
        live_channel: LIVE ? { followed: figures.liveTurns.length, turns_told: percentiles(figures.liveTurns) } : null,
      };
      results[`level_${level}`] = summary;
      ctx.log(`${level} at once: ${JSON.stringify(summary)}`);
      if (STREAMING && (level === 1 || level === 10)) {
        // Hosted engines at anchor speed (streaming stand-ins: docs/benchmarks/methods.md).
        ctx.check(`agent_streaming_${level}_v2v_p50_ms`, summary.voice_to_voice_ms.p50, 700, 'max');
        ctx.check(`agent_streaming_${level}_v2v_p95_ms`, summary.voice_to_voice_ms.p95, 900, 'max');
        ctx.check(`agent_streaming_${level}_platform_share_p95_ms`, summary.platform_share_ms.p95, 30, 'max');
        ctx.check(`agent_streaming_${level}_barge_in_p95_ms`, summary.barge_in_ms.p95, 300, 'max');
      }
      if (level === 1) {
        ctx.check('agent_v2v_p50_ms', summary.voice_to_voice_ms.p50, 1000, 'max');
        ctx.check('agent_v2v_p95_ms', summary.voice_to_voice_ms.p95, 1500, 'max');
        ctx.check('agent_platform_share_p95_ms', summary.platform_share_ms.p95, 50, 'max');
        ctx.check('agent_barge_in_p95_ms', summary.barge_in_ms.p95, 300, 'max');
      }
      if (level === 10) {
        ctx.check('agent_10_underruns', underrun, 0, 'max');
        ctx.check('agent_10_jitter_p99_ms', summary.jitter_p99_ms, 20, 'max');
      }
    }
  } catch (err) {
    if (service) ctx.log(`the service's last lines:\n${service.output.last.join('\n')}`);
    throw err;
  } finally {
    await service?.stop();
  }
  return results;
}

async function runLevel(service: ServiceProcess, level: number, turns: number, speech: Utterances) {
  const figures: ConversationFigures = {
    voiceToVoice: [],
    bargeIn: [],
    platformShare: [],
    jitter: [],
    failures: [],
    refused: 0,
    greeting: [],
    liveTurns: [],
  };
  await Promise.all(
    Array.from({ length: level }, async (_, i) => {
      // Spread the joins over one turn's length (6 s), as people arrive: conversations at once, whose
      // speech overlaps as it would, not in lockstep.
      await sleep((i * 6000) / level);
      try {
        await conversation(service, turns, speech, figures);
      } catch (err) {
        if (err instanceof JoinRefused) {
          figures.refused++;
          return;
        }
        figures.failures.push(err instanceof Error ? err.message : String(err));
        if (process.env.BENCH_AGENT_DEBUG && err instanceof ConversationFailed) {
          const sessionId = await sessionOf(service.baseUrl, service.apiKey, err.roomId);
          const session = await api<{ transcript: unknown }>(
            service.baseUrl,
            service.apiKey,
            'GET',
            `/v1/sessions/${sessionId}`,
          );
          console.log(`${err.message}: ${JSON.stringify(session.transcript)}`);
        }
      }
    }),
  );
  return figures;
}

async function conversation(
  service: ServiceProcess,
  turns: number,
  speech: Utterances,
  figures: ConversationFigures,
): Promise<void> {
  const { baseUrl, apiKey } = service;
  const room = await api<{ room_id: string; room_url: string }>(baseUrl, apiKey, 'POST', '/v1/rooms', {
    // A streaming recogniser is told the issue's 200 ms endpoint (the agent's endpointing_ms).
    agent_config: {
      prompt: 'Benchmark agent.',
      first_message: FIRST_MESSAGE,
      ...(STREAMING ? { endpointing_ms: STREAMING_ENDPOINT_MS } : {}),
    },
  });
  const link = new URL(room.room_url);
  const joining = Date.now();
  const client = await VoiceClient.join(`${baseUrl}${link.pathname}/whip${link.search}`);
  const live = LIVE ? followLive(`${baseUrl}${link.pathname}/live${link.search}`) : null;
  const fail = (message: string) => new ConversationFailed(message, room.room_id);
  try {
    const joinedAt = Date.now();
    const greeting = await client.agentStartsAfter(joinedAt, 15_000);
    if (greeting === null) throw fail('no first message');
    // From the offer sent to the greeting's first voiced frame heard (target ≤ 1 s, docs/capacity.md).
    figures.greeting.push(greeting - joining);
    await client.agentQuiet(700, 20_000);
    for (let t = 0; t < turns; t++) {
      const line = speech.lines[t % speech.lines.length];
      if (!line) throw new Error('no utterances');
      const said = await client.speak(line);
      const answer = await client.agentStartsAfter(said.endedAt, 10_000);
      if (answer === null) throw fail(`turn ${t}: no answer`);
      figures.voiceToVoice.push(answer - said.endedAt);
      await client.agentQuiet(700, 20_000);
    }
    // Barge-in: a long answer ("I heard: …" the long question), talked over 1.2 s after it starts,
    // inside its words (after "I heard:" and the pause that follows it).
    const asked = await client.speak(speech.long);
    const long = await client.agentStartsAfter(asked.endedAt, 10_000);
    if (long === null) throw fail('barge-in: no answer');
    await sleep(Math.max(0, long + 1_200 - Date.now()));
    const barge = await client.speak(speech.barge);
    await sleep(1_500);
    // The agent was speaking when the user started (a voiced frame within 200 ms before): the time from
    // the user's first frame to the agent's last voiced frame after it. Otherwise the answer had ended.
    const speaking = client.voiced.some((t) => t <= barge.startedAt && t > barge.startedAt - 200);
    // The answer's last voiced frame: the one before the first silence of 300 ms after the user started
    // (what follows is the agent's next answer, to the words that cut it).
    let lastAgent = barge.startedAt;
    for (const t of client.voiced.filter((v) => v > barge.startedAt)) {
      if (t - lastAgent > 300) break;
      lastAgent = t;
    }
    if (process.env.BENCH_AGENT_DEBUG)
      console.log(
        `long answer heard from ${long - asked.endedAt} ms after the question; barge at +${barge.startedAt - long} ms; agent voiced (relative to barge): ${client.voiced
          .filter((t) => t > barge.startedAt - 400 && t < barge.startedAt + 1500)
          .map((t) => t - barge.startedAt)
          .join(',')}`,
      );
    if (speaking) figures.bargeIn.push(Math.max(0, lastAgent - barge.startedAt));
    else figures.failures.push('barge-in: the answer had ended before the user talked over it');
    await client.agentQuiet(700, 20_000);
    const bye = await client.speak(speech.goodbye);
    await client.agentStartsAfter(bye.endedAt, 10_000);
    await client.agentQuiet(1_000, 20_000);
    figures.jitter.push(...gaps(client.arrivals));
  } finally {
    await client.close();
    if (live) figures.liveTurns.push(await live.stop());
  }
  const sessionId = await sessionOf(baseUrl, apiKey, room.room_id);
  const metrics = await turnMetrics(baseUrl, apiKey, sessionId);
  if (process.env.BENCH_AGENT_DEBUG)
    console.log(
      `session ${sessionId}: ${JSON.stringify(await api(baseUrl, apiKey, 'GET', `/v1/sessions/${sessionId}`))}`,
    );
  for (const turn of metrics) {
    // The endpointing wait (the silence that ends an utterance) is the VAD's, a setting, not work.
    const engines = turn.stt_ms + turn.llm_first_token_ms + turn.tts_first_audio_ms;
    figures.platformShare.push(turn.voice_to_voice_ms - PLATFORM_SILENCE_MS - engines);
  }
}

/** Reads a room's live channel (Server-Sent Events) until stopped; the number of `turn` events it told. */
function followLive(url: string): { stop(): Promise<number> } {
  const abort = new AbortController();
  let turns = 0;
  const reading = (async () => {
    const response = await fetch(url, { signal: abort.signal });
    if (!response.ok || !response.body) throw new Error(`live channel: ${response.status}`);
    const decoder = new TextDecoder();
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>)
      turns += (decoder.decode(chunk, { stream: true }).match(/^event: turn$/gm) ?? []).length;
  })().catch((err: unknown) => {
    if (!abort.signal.aborted) throw err;
  });
  return {
    async stop() {
      abort.abort();
      await reading;
      return turns;
    },
  };
}

class ConversationFailed extends Error {
  constructor(
    message: string,
    readonly roomId: string,
  ) {
    super(message);
  }
}

interface TurnMetric {
  voice_to_voice_ms: number;
  stt_ms: number;
  llm_first_token_ms: number;
  tts_first_audio_ms: number;
  interrupted: boolean;
}

async function sessionOf(baseUrl: string, apiKey: string, roomId: string): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const room = await api<{ session_id: string | null }>(baseUrl, apiKey, 'GET', `/v1/rooms/${roomId}`);
    if (room.session_id) return room.session_id;
    await sleep(100);
  }
  throw new Error(`room ${roomId} has no session`);
}

async function turnMetrics(baseUrl: string, apiKey: string, sessionId: string): Promise<TurnMetric[]> {
  // The read model follows the stream by a moment: wait for the session to end.
  for (let i = 0; i < 100; i++) {
    const session = await api<{ status: string; metrics?: { turns: TurnMetric[] } }>(
      baseUrl,
      apiKey,
      'GET',
      `/v1/sessions/${sessionId}`,
    );
    // The room ends with the agent's goodbye; its session a moment later.
    if (session.status !== 'in_progress' || i === 99)
      return (session.metrics?.turns ?? []).filter((t) => !t.interrupted);
    await sleep(200);
  }
  return [];
}

/** |gap − 20 ms| between consecutive packet arrivals. */
function gaps(arrivals: readonly number[]): number[] {
  const out: number[] = [];
  for (let i = 1; i < arrivals.length; i++) out.push(Math.abs((arrivals[i] ?? 0) - (arrivals[i - 1] ?? 0) - 20));
  return out;
}

interface ServiceMetrics {
  underruns: number;
  /** Cumulative counts of room_agent_frame_jitter_ms by bucket bound (ms). */
  jitterBuckets: Map<number, number>;
}

async function serviceMetrics(baseUrl: string): Promise<ServiceMetrics> {
  const res = await fetch(`${baseUrl}/metrics`, { headers: { authorization: 'Bearer bench-admin' } });
  const lines = (await res.text()).split('\n');
  const line = lines.find((l) => l.startsWith('conversation_audio_underruns_total'));
  const jitterBuckets = new Map<number, number>();
  for (const l of lines) {
    const m = /^room_agent_frame_jitter_ms_bucket\{le="([^"]+)"\} (\d+)/.exec(l);
    if (m) jitterBuckets.set(m[1] === '+Inf' ? Infinity : Number(m[1]), Number(m[2]));
  }
  return { underruns: line ? Number(line.split(' ').pop()) : 0, jitterBuckets };
}

/** The smallest bucket bound holding 99 % of the frames sent between two readings. */
function jitterP99(before: Map<number, number>, after: Map<number, number>): number {
  const bounds = [...after.keys()].sort((a, b) => a - b);
  const count = (b: number) => (after.get(b) ?? 0) - (before.get(b) ?? 0);
  const total = count(Infinity);
  for (const b of bounds) if (total > 0 && count(b) >= 0.99 * total) return b;
  return total > 0 ? Infinity : 0;
}

export async function api<T>(baseUrl: string, apiKey: string, method: string, path: string, body?: object): Promise<T> {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${apiKey}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

/** The user's utterances, spoken once by flite (16 kHz), trimmed of silence, at 48 kHz. */
async function utterances(): Promise<Utterances> {
  const synthesizer = new EmbeddedSynthesizer();
  try {
    const say = async (text: string) => upsample3(trim((await synthesizer.synthesize(text, {})).samples));
    return {
      lines: await Promise.all(LINES.map(say)),
      long: await say(LONG),
      barge: await say(BARGE),
      goodbye: await say(GOODBYE),
    };
  } finally {
    synthesizer.close();
  }
}

/** Without leading and trailing silence: the utterance ends on its last voiced sample. */
export function trim(pcm: Int16Array): Int16Array {
  const loud = (i: number) => Math.abs(pcm[i] ?? 0) > 500;
  let start = 0;
  let end = pcm.length - 1;
  while (start < end && !loud(start)) start++;
  while (end > start && !loud(end)) end--;
  return pcm.subarray(Math.max(0, start - 160), Math.min(pcm.length, end + 160));
}

function upsample3(pcm: Int16Array): Int16Array {
  const out = new Int16Array(pcm.length * 3);
  for (let i = 0; i < pcm.length; i++) {
    const a = pcm[i] ?? 0;
    const b = pcm[i + 1] ?? a;
    out[i * 3] = a;
    out[i * 3 + 1] = Math.round(a + (b - a) / 3);
    out[i * 3 + 2] = Math.round(a + ((b - a) * 2) / 3);
  }
  return out;
}
