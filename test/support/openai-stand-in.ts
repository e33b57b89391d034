import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EmbeddedRecognizer } from '../../src/conversations/engines/embedded/embedded-recognizer';
import { EmbeddedSynthesizer } from '../../src/conversations/engines/embedded/embedded-synthesizer';
import { decodeWav, encodeWav } from '../../src/conversations/engines/openai/wav';

/**
 * A STAND-IN FOR A HOSTED OPENAI-COMPATIBLE API (OpenAI, Groq, a vLLM server, …), on loopback, for
 * tests: it is not the real service and knows only what the tests need of it.
 *
 * - `POST /v1/audio/transcriptions` (multipart: `file` a WAV, `model`, `language?`): transcribes for
 *   real, with the embedded recogniser (pocketsphinx), and answers `{text}`.
 * - `POST /v1/audio/speech` (`{model, input, voice, response_format: "pcm" | "wav"}`): speaks with the
 *   embedded synthesiser (flite, 16 kHz), resampled to OpenAI's 24 kHz by linear interpolation.
 * - `POST /v1/chat/completions` with `stream: true`: answers the next scripted reply (`script`) as
 *   Server-Sent Events in OpenAI's chunk format, text in word pieces and tool-call arguments in
 *   fragments, ending with `data: [DONE]`.
 *
 * Every request is recorded (`requests`, with its JSON body or multipart fields), so a test can check
 * what the model was sent (a tool's result coming back). A wrong or missing bearer key is a 401 in
 * OpenAI's error shape; `failNext` makes the next requests to a path answer an error status.
 */

export type ScriptedReply =
  | { text: string; chunkDelayMs?: number }
  | {
      toolCalls: { id?: string; name: string; arguments: Record<string, unknown> | string }[];
      /** Characters per streamed argument fragment (default 6): the adapter must put them together. */
      fragment?: number;
      chunkDelayMs?: number;
    }
  /** Streams `text`, then holds the stream open without finishing (an abort test's model). */
  | { stallAfter: string };

export interface RecordedRequest {
  path: string;
  authorization: string | undefined;
  /** The JSON body, or the multipart form's text fields (the file as `{filename, type, bytes}`). */
  body: Record<string, unknown>;
}

const STAND_IN_RATE = 24_000;

export class OpenAiStandIn {
  readonly requests: RecordedRequest[] = [];
  /** Replies of /v1/chat/completions, answered in order. */
  readonly script: ScriptedReply[] = [];
  private readonly failures = new Map<string, { status: number; times: number }>();
  private readonly canned = new Map<string, { contentType: string; body: Buffer }>();
  private readonly recognizer = new EmbeddedRecognizer('/usr/share/pocketsphinx/model/en-us');
  private readonly synthesizer = new EmbeddedSynthesizer();
  private readonly open = new Set<ServerResponse>();
  private counter = 0;
  /** Answer `/v1/audio/speech` with a WAV file whatever format was asked (as some compatible servers do). */
  speechAnswersWav = false;

  private constructor(
    private readonly server: Server,
    readonly apiKey: string,
  ) {}

  /** Listens on 127.0.0.1 on a free port; every request must carry `Authorization: Bearer <apiKey>`. */
  static async start(apiKey = 'sk-stand-in-key'): Promise<OpenAiStandIn> {
    const server = createServer();
    const standIn = new OpenAiStandIn(server, apiKey);
    server.on('request', (req, res) => {
      standIn.open.add(res);
      res.on('close', () => standIn.open.delete(res));
      standIn.handle(req, res).catch((err: Error) => {
        if (!res.headersSent) standIn.error(res, 500, `stand-in failure: ${err.message}`, 'server_error');
        else res.destroy();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return standIn;
  }

  /** The base URL, without `/v1` (as STT_URL, TTS_URL and LLM_URL take it). */
  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The next request to `path` answers these bytes with status 200 (a malformed answer, for a test). */
  answerNext(path: string, contentType: string, body: Buffer | string): void {
    this.canned.set(path, { contentType, body: Buffer.from(body) });
  }

  /** The next `times` requests to `path` (e.g. `/v1/audio/speech`) answer `status` in OpenAI's error shape. */
  failNext(path: string, status: number, times = 1): void {
    this.failures.set(path, { status, times });
  }

  /** Responses not yet finished (a chat stream held open): 0 once a client that aborted has gone. */
  get openResponses(): number {
    return this.open.size;
  }

  /** The JSON bodies the chat endpoint received, in order. */
  chatRequests(): Record<string, unknown>[] {
    return this.requests.filter((r) => r.path === '/v1/chat/completions').map((r) => r.body);
  }

  async close(): Promise<void> {
    for (const res of this.open) res.destroy();
    this.recognizer.close();
    this.synthesizer.close();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '').split('?')[0] ?? '';
    const raw = await readBody(req);
    const type = req.headers['content-type'] ?? '';
    const body = type.startsWith('multipart/form-data') ? await formFields(raw, type) : parseJson(raw);
    this.requests.push({ path, authorization: req.headers.authorization, body: body ?? {} });
    if (req.headers.authorization !== `Bearer ${this.apiKey}`) {
      return this.error(res, 401, 'Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key');
    }
    const failure = this.failures.get(path);
    if (failure && failure.times > 0) {
      failure.times -= 1;
      return this.error(res, failure.status, `The stand-in was told to fail (${failure.status}).`, 'server_error');
    }
    const canned = this.canned.get(path);
    if (canned) {
      this.canned.delete(path);
      res.writeHead(200, { 'content-type': canned.contentType, 'content-length': canned.body.length });
      res.end(canned.body);
      return;
    }
    if (req.method !== 'POST') return this.error(res, 405, 'Only POST is served.', 'invalid_request_error');
    if (!body) return this.error(res, 400, 'The body is not JSON or multipart.', 'invalid_request_error');
    if (typeof body.model !== 'string' || body.model === '') {
      return this.error(res, 400, 'you must provide a model parameter', 'invalid_request_error');
    }
    if (path === '/v1/audio/transcriptions') return this.transcribe(res, body);
    if (path === '/v1/audio/speech') return this.speak(res, body);
    if (path === '/v1/chat/completions') return this.chat(res, body);
    return this.error(res, 404, `Unknown path ${path}.`, 'invalid_request_error');
  }

  private async transcribe(res: ServerResponse, body: Record<string, unknown>): Promise<void> {
    const file = body.file as { bytes: Buffer } | undefined;
    const wav = file ? decodeWav(file.bytes) : null;
    if (!wav) return this.error(res, 400, 'file must be a 16-bit PCM WAV.', 'invalid_request_error');
    const samples = resampleLinear(wav.samples, wav.sampleRate, 16_000);
    const stream = this.recognizer.start(typeof body.language === 'string' ? body.language : 'en');
    for (let i = 0; i < samples.length; i += 320) stream.write(samples.subarray(i, i + 320));
    // Trailing silence lets pocketsphinx close the last word.
    stream.write(new Int16Array(4800));
    this.json(res, 200, { text: await stream.finish() });
  }

  private async speak(res: ServerResponse, body: Record<string, unknown>): Promise<void> {
    const format = body.response_format ?? 'mp3';
    if (typeof body.input !== 'string' || body.input.trim() === '') {
      return this.error(res, 400, 'input must be a non-empty string.', 'invalid_request_error');
    }
    if (format !== 'pcm' && format !== 'wav') {
      return this.error(
        res,
        400,
        `The stand-in speaks pcm and wav only (got ${JSON.stringify(format)}).`,
        'invalid_request_error',
      );
    }
    const speech = await this.synthesizer.synthesize(body.input, {});
    const samples = resampleLinear(speech.samples, speech.sampleRate, STAND_IN_RATE);
    const wav = format === 'wav' || this.speechAnswersWav;
    const bytes = wav
      ? encodeWav(samples, STAND_IN_RATE)
      : Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength);
    res.writeHead(200, { 'content-type': wav ? 'audio/wav' : 'audio/pcm', 'content-length': bytes.length });
    res.end(bytes);
  }

  private async chat(res: ServerResponse, body: Record<string, unknown>): Promise<void> {
    if (body.stream !== true)
      return this.error(res, 400, 'The stand-in streams only (stream: true).', 'invalid_request_error');
    if (!Array.isArray(body.messages) || body.messages.length === 0) {
      return this.error(res, 400, 'messages must be a non-empty array.', 'invalid_request_error');
    }
    const reply = this.script.shift();
    if (!reply) return this.error(res, 500, 'The test scripted no more replies.', 'server_error');
    const id = `chatcmpl-standin${++this.counter}`;
    const model = body.model as string;
    const created = Math.floor(Date.now() / 1000);
    const chunk = (delta: Record<string, unknown>, finish: string | null): string =>
      `data: ${JSON.stringify({
        id,
        object: 'chat.completion.chunk',
        created,
        model,
        system_fingerprint: null,
        choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
      })}\n\n`;
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    const delay = 'chunkDelayMs' in reply ? (reply.chunkDelayMs ?? 0) : 0;
    const send = async (text: string): Promise<void> => {
      if (res.destroyed) return;
      res.write(text);
      if (delay > 0) await new Promise((r) => setTimeout(r, delay));
    };

    if ('stallAfter' in reply) {
      await send(chunk({ role: 'assistant', content: '' }, null));
      for (const piece of words(reply.stallAfter)) await send(chunk({ content: piece }, null));
      return; // held open until the client goes away
    }
    if ('text' in reply) {
      await send(chunk({ role: 'assistant', content: '' }, null));
      for (const piece of words(reply.text)) await send(chunk({ content: piece }, null));
      await send(chunk({}, 'stop'));
    } else {
      await send(chunk({ role: 'assistant', content: null }, null));
      const size = reply.fragment ?? 6;
      for (const [index, call] of reply.toolCalls.entries()) {
        const args = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
        const callId = call.id ?? `call_standin${this.counter}_${index}`;
        await send(
          chunk(
            { tool_calls: [{ index, id: callId, type: 'function', function: { name: call.name, arguments: '' } }] },
            null,
          ),
        );
        for (let at = 0; at < args.length; at += size) {
          await send(chunk({ tool_calls: [{ index, function: { arguments: args.slice(at, at + size) } }] }, null));
        }
      }
      await send(chunk({}, 'tool_calls'));
    }
    if (!res.destroyed) res.end('data: [DONE]\n\n');
  }

  private json(res: ServerResponse, status: number, body: unknown): void {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  }

  private error(res: ServerResponse, status: number, message: string, type: string, code: string | null = null): void {
    this.json(res, status, { error: { message, type, param: null, code } });
  }
}

/** Linear interpolation from one rate to another: enough for speech between 8, 16 and 24 kHz in tests. */
export function resampleLinear(samples: Int16Array, from: number, to: number): Int16Array {
  if (from === to) return samples;
  const out = new Int16Array(Math.floor((samples.length * to) / from));
  const step = from / to;
  for (let i = 0; i < out.length; i++) {
    const pos = i * step;
    const at = Math.floor(pos);
    const next = Math.min(at + 1, samples.length - 1);
    const frac = pos - at;
    out[i] = Math.round((samples[at] ?? 0) * (1 - frac) + (samples[next] ?? 0) * frac);
  }
  return out;
}

/** Text in word pieces, spaces kept, as a model streams it. */
function words(text: string): string[] {
  return text.match(/\S+\s*/g) ?? [];
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function parseJson(raw: Buffer): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(raw.toString('utf8'));
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** A multipart form's fields, parsed by the platform's own WHATWG `Response.formData()`. */
async function formFields(raw: Buffer, contentType: string): Promise<Record<string, unknown> | null> {
  try {
    const form = await new Response(raw, { headers: { 'content-type': contentType } }).formData();
    const fields: Record<string, unknown> = {};
    for (const [name, value] of form.entries()) {
      fields[name] =
        typeof value === 'string'
          ? value
          : { filename: value.name, type: value.type, bytes: Buffer.from(await value.arrayBuffer()) };
    }
    return fields;
  } catch {
    return null;
  }
}
