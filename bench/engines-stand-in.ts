/**
 * A STAND-IN FOR HOSTED OPENAI-COMPATIBLE ENGINES, for the benchmarks' off-box mode
 * (BENCH_ENGINES=stand-in, docs/benchmarks/methods.md): its own process on loopback, answering with
 * canned results after a hosted engine's latency, at almost no CPU, so that what the benchmark
 * measures is the service's own cost per call with its engines elsewhere. It is not a model.
 *
 * - `POST /v1/audio/transcriptions`: the body read, `{text}` after STT_LATENCY_MS (150).
 * - `POST /v1/chat/completions` (streamed): the first word after LLM_LATENCY_MS (200), then the
 *   rest of a short answer (numbered: no two alike, so none is served by the synthesis cache) as Server-Sent Events in OpenAI's chunk format, `data: [DONE]`.
 * - `POST /v1/audio/speech` (`response_format: pcm`): after TTS_LATENCY_MS (100), 24 kHz 16-bit PCM
 *   of 65 ms per character of the input, a voiced sound (a 180 Hz buzz with a slow swell), so that
 *   an echo of it is heard as speech by the caller's side; streamed in 100 ms chunks, as OpenAI does.
 * - Deepgram's live API (`/v1/listen`, test/support/deepgram-stand-in.ts with canned words): the
 *   final result once STT_ENDPOINT_MS (200) of silence followed speech (the provider's endpointing,
 *   unless the connection asks for another) and STT_FINAL_MS (0) more; interim words every 300 ms.
 * - ElevenLabs' stream-input API (test/support/elevenlabs-stand-in.ts, the same buzz): each
 *   connection's first audio TTS_LATENCY_MS after its first text, then 100 ms chunks.
 *
 * Run: `node dist/bench/bench/engines-stand-in.js` prints `listening on http://127.0.0.1:<port>`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DeepgramStandIn } from '../test/support/deepgram-stand-in';
import { ElevenLabsStandIn } from '../test/support/elevenlabs-stand-in';

const STT_LATENCY_MS = Number(process.env.STT_LATENCY_MS ?? 150);
const LLM_LATENCY_MS = Number(process.env.LLM_LATENCY_MS ?? 200);
const TTS_LATENCY_MS = Number(process.env.TTS_LATENCY_MS ?? 100);
const STT_ENDPOINT_MS = Number(process.env.STT_ENDPOINT_MS ?? 200);
const STT_FINAL_MS = Number(process.env.STT_FINAL_MS ?? 0);
const HEARD = 'I would like to book an appointment';
/** Numbered, so that no answer is a line the synthesis cache already holds: each pays its synthesis. */
const answer = (n: number) => `Sure thing ${n}, I can book that for you. Which day suits you best?`;
let answers = 0;
const RATE = 24_000;

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

function body(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** 65 ms of voiced sound per character: a 180 Hz buzz with its harmonics, swelling at 4 Hz. */
function speech(characters: number, rate = RATE): Buffer {
  const samples = Math.round((characters * 65 * rate) / 1000);
  const out = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) {
    const t = i / rate;
    const swell = 0.55 + 0.45 * Math.sin(2 * Math.PI * 4 * t);
    let v = 0;
    for (let h = 1; h <= 5; h++) v += Math.sin(2 * Math.PI * 180 * h * t) / h;
    out.writeInt16LE(Math.round(v * swell * 6000), i * 2);
  }
  return out;
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const raw = await body(req);
  if (req.method === 'POST' && req.url === '/v1/audio/transcriptions') {
    await wait(STT_LATENCY_MS);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ text: HEARD }));
    return;
  }
  if (req.method === 'POST' && req.url === '/v1/audio/speech') {
    const { input } = JSON.parse(raw.toString('utf8')) as { input?: unknown };
    const characters = typeof input === 'string' ? input.length : 0;
    await wait(TTS_LATENCY_MS);
    res.writeHead(200, { 'content-type': 'audio/pcm' });
    const audio = speech(characters);
    const chunk = (RATE / 10) * 2; // 100 ms
    for (let at = 0; at < audio.length && !res.destroyed; at += chunk) {
      res.write(audio.subarray(at, at + chunk));
      await wait(10);
    }
    res.end();
    return;
  }
  if (req.method === 'POST' && req.url === '/v1/chat/completions') {
    await wait(LLM_LATENCY_MS);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const chunk = (delta: object, finish: string | null) =>
      `data: ${JSON.stringify({
        id: 'chatcmpl-stand-in',
        object: 'chat.completion.chunk',
        created: Math.floor(Date.now() / 1000),
        model: 'stand-in',
        choices: [{ index: 0, delta, finish_reason: finish }],
      })}\n\n`;
    res.write(chunk({ role: 'assistant', content: '' }, null));
    for (const word of answer(++answers).split(' ')) {
      res.write(chunk({ content: `${word} ` }, null));
      await wait(15);
    }
    res.write(chunk({}, 'stop'));
    res.end('data: [DONE]\n\n');
    return;
  }
  res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'not here' } }));
}

/** Starts the stand-in on loopback; resolves with its base URL. */
export function startEnginesStandIn(port = 0): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.writeHead(500).end());
  });
  const words = HEARD.split(' ');
  DeepgramStandIn.attach(server, {
    apiKey: 'k',
    defaultEndpointingMs: STT_ENDPOINT_MS,
    finalLatencyMs: STT_FINAL_MS,
    // A word per 300 ms of speech heard so far, as interim results grow.
    interimText: (audio) => words.slice(0, Math.ceil(audio.length / 4800)).join(' '),
    transcribe: () => Promise.resolve(HEARD),
  });
  ElevenLabsStandIn.attach(server, {
    apiKey: 'k',
    firstAudioDelayMs: TTS_LATENCY_MS,
    speak: (text, rate) => {
      const pcm = speech(text.length, rate);
      return Promise.resolve(new Int16Array(pcm.buffer, pcm.byteOffset, pcm.length / 2));
    },
  });
  return new Promise((resolve) =>
    server.listen(port, '127.0.0.1', () => {
      const { port: bound } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${bound}`,
        close: () => new Promise<void>((done) => server.close(() => done())),
      });
    }),
  );
}

if (require.main === module) {
  void startEnginesStandIn(Number(process.env.PORT ?? 0)).then(({ url }) => {
    process.stdout.write(`listening on ${url}\n`);
  });
}
