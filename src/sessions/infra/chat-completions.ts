import { request } from 'undici';

/**
 * One OpenAI-compatible chat completion (OpenAI, vLLM, Ollama, llama.cpp server), as the sessions'
 * model adapters ask it after a call: the disposition evaluator (llm-disposition-evaluator.ts) and
 * the post-call analysis (llm-analysis-evaluator.ts). `POST {url}/chat/completions` with the bearer
 * key; the answer's message content is read from a JSON body (`choices[0].message.content`) or, when
 * the request streamed (`stream: true`), from the Server-Sent Events' `choices[0].delta.content`.
 * Anything else throws, and the timer that asked retries. The API key goes in the Authorization
 * header only: it is never logged nor put in an error message.
 */

/** Bound on one request: within the 30 s lease of the timer that makes it, so no other instance claims it meanwhile. */
export const LLM_TIMEOUT_MS = 20_000;
/** Larger answers are refused: an answer after a call fits in a few kilobytes. */
export const MAX_RESPONSE_BYTES = 1 << 20;

export interface LlmSettings {
  /** Chat-completions base URL, e.g. https://api.openai.com/v1 (`/chat/completions` is appended). */
  url: string;
  apiKey: string | null;
  model: string;
  timeoutMs?: number;
}

/** `{base}/chat/completions`, keeping the base's path (`/v1`) and query (e.g. `?api-version=`). */
export function chatCompletionsUrl(base: string): string {
  const url = new URL(base);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/chat/completions`;
  return url.toString();
}

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The raw answer: its body and whether it is an event stream. */
export interface ChatAnswer {
  text: string;
  streamed: boolean;
}

/** Posts the request body; the answer's text, or a throw for a network error, a timeout or a non-2xx status. */
export async function postChatCompletion(settings: LlmSettings, body: Record<string, unknown>): Promise<ChatAnswer> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: body.stream === true ? 'text/event-stream' : 'application/json',
  };
  if (settings.apiKey !== null) headers.authorization = `Bearer ${settings.apiKey}`;
  const response = await request(chatCompletionsUrl(settings.url), {
    method: 'POST',
    headers,
    body: JSON.stringify({ model: settings.model, ...body }),
    signal: AbortSignal.timeout(settings.timeoutMs ?? LLM_TIMEOUT_MS),
  });
  if (response.statusCode < 200 || response.statusCode >= 300) {
    await response.body.dump();
    throw new Error(`the model server answered HTTP ${response.statusCode}`);
  }
  const type = response.headers['content-type'];
  const streamed = (Array.isArray(type) ? type.join(',') : (type ?? '')).includes('text/event-stream');
  return { text: await readBounded(response.body), streamed };
}

async function readBounded(body: AsyncIterable<Buffer>): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > MAX_RESPONSE_BYTES) throw new Error(`the model server's answer exceeds ${MAX_RESPONSE_BYTES} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The message content of an answer: `choices[0].message.content` of a JSON body, or the stream's deltas put together. */
export function answerContent({ text, streamed }: ChatAnswer): string {
  return streamed ? streamedContent(text) : messageContent(text);
}

/** `choices[0].message.content` of a chat-completions response body; throws unless it is a string. */
export function messageContent(responseText: string): string {
  let response: unknown;
  try {
    response = JSON.parse(responseText);
  } catch {
    throw new Error('the model server answered a body that is not JSON');
  }
  const choices = isObject(response) ? response.choices : undefined;
  const message = Array.isArray(choices) && isObject(choices[0]) ? choices[0].message : undefined;
  const content = isObject(message) ? message.content : undefined;
  if (typeof content !== 'string') throw new Error('the model answer has no choices[0].message.content');
  return content;
}

/** The `choices[0].delta.content` pieces of a chat-completions event stream, put together. */
export function streamedContent(streamText: string): string {
  let content = '';
  for (const line of streamText.split(/\r?\n/)) {
    if (!line.startsWith('data:')) continue;
    const data = line.slice(5).trim();
    if (data === '' || data === '[DONE]') continue;
    let chunk: unknown;
    try {
      chunk = JSON.parse(data);
    } catch {
      throw new Error('the model server streamed an event that is not JSON');
    }
    if (isObject(chunk) && isObject(chunk.error)) throw new Error('the model server streamed an error');
    const choices = isObject(chunk) ? chunk.choices : undefined;
    const delta = Array.isArray(choices) && isObject(choices[0]) ? choices[0].delta : undefined;
    const piece = isObject(delta) ? delta.content : undefined;
    if (typeof piece === 'string') content += piece;
  }
  if (content === '') throw new Error('the model answer has no choices[0].delta.content');
  return content;
}

/**
 * The JSON object a model answered as its content (a fenced ```json block is taken as its content, as
 * some models write one whatever they are asked); throws when it is not one.
 */
export function jsonObjectContent(content: string): Record<string, unknown> {
  const fenced = /^\s*```(?:json)?\s*\n([\s\S]*?)\n?```\s*$/i.exec(content);
  let answer: unknown;
  try {
    answer = JSON.parse(fenced?.[1] ?? content);
  } catch {
    throw new Error('the model answer is not JSON');
  }
  if (!isObject(answer)) throw new Error('the model answer is not a JSON object');
  return answer;
}
