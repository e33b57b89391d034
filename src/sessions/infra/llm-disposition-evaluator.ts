import { request } from 'undici';
import {
  transcriptText,
  type DispositionEvaluator,
  type DispositionRequest,
  type DispositionVerdict,
} from '../domain/disposition-evaluator';

/** Bound on one request: within the 30 s lease of the timer that makes it, so no other instance claims it meanwhile. */
export const LLM_TIMEOUT_MS = 20_000;
/** Larger answers are refused: a disposition fits in a few hundred bytes. */
const MAX_RESPONSE_BYTES = 1 << 20;
/** A note longer than this is cut: it goes into an event and every webhook. */
const MAX_NOTE_CHARS = 1000;

const SYSTEM_PROMPT = [
  'You classify the outcome of a phone call placed by an AI voice agent in an outbound campaign.',
  'Pick exactly one disposition code from the list, the one that best describes how the call ended,',
  'and write a short note (one sentence) that justifies it from the transcript.',
  'Answer with JSON only: {"disposition_code": "<one of the codes>", "disposition_note": "<note>"}.',
].join(' ');

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

/**
 * The model evaluator (`evaluator: "llm"`, `model: LLM_MODEL`): one OpenAI-compatible
 * chat-completions request (OpenAI, vLLM, Ollama, llama.cpp server) whose answer is constrained by a
 * JSON schema to the session's codes. Anything but a valid answer (a network error, a timeout, a
 * non-2xx status, a body without `choices[0].message.content`, content that is not that JSON object,
 * a code outside the list) throws, and the timer that asked retries. The API key goes in the
 * Authorization header only: it is never logged nor put in an error message.
 */
export class LlmDispositionEvaluator implements DispositionEvaluator {
  private readonly endpoint: string;

  constructor(private readonly settings: LlmSettings) {
    this.endpoint = chatCompletionsUrl(settings.url);
  }

  async evaluate({ transcript, dispositions }: DispositionRequest): Promise<DispositionVerdict> {
    const codes = dispositions.map((d) => d.code);
    const body = JSON.stringify({
      model: this.settings.model,
      messages: [
        { role: 'system', content: SYSTEM_PROMPT },
        {
          role: 'user',
          content: [
            'Disposition codes:',
            ...dispositions.map((d) => `- ${d.code}: ${d.description}`),
            '',
            'Transcript:',
            transcriptText(transcript) || '(nothing was said)',
          ].join('\n'),
        },
      ],
      response_format: {
        type: 'json_schema',
        json_schema: {
          name: 'disposition',
          strict: true,
          schema: {
            type: 'object',
            properties: {
              disposition_code: { type: 'string', enum: codes },
              disposition_note: { type: 'string' },
            },
            required: ['disposition_code', 'disposition_note'],
            additionalProperties: false,
          },
        },
      },
    });
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (this.settings.apiKey !== null) headers.authorization = `Bearer ${this.settings.apiKey}`;
    const response = await request(this.endpoint, {
      method: 'POST',
      headers,
      body,
      signal: AbortSignal.timeout(this.settings.timeoutMs ?? LLM_TIMEOUT_MS),
    });
    if (response.statusCode < 200 || response.statusCode >= 300) {
      await response.body.dump();
      throw new Error(`the model server answered HTTP ${response.statusCode}`);
    }
    const text = await readBounded(response.body);
    const { code, note } = parseAnswer(text, codes);
    return { code, note, evaluator: 'llm', model: this.settings.model };
  }
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

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The code and note of a chat-completions response body; throws unless it is a valid answer. */
export function parseAnswer(responseText: string, codes: readonly string[]): { code: string; note: string | null } {
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
  let answer: unknown;
  try {
    answer = JSON.parse(content);
  } catch {
    throw new Error('the model answer is not JSON');
  }
  if (!isObject(answer)) throw new Error('the model answer is not a JSON object');
  const code = answer.disposition_code;
  const note = answer.disposition_note;
  if (typeof code !== 'string') throw new Error('the model answer has no disposition_code');
  if (typeof note !== 'string') throw new Error('the model answer has no disposition_note');
  if (!codes.includes(code)) throw new Error(`the model answered a code outside the list (${code.slice(0, 100)})`);
  const trimmed = note.trim();
  return { code, note: trimmed === '' ? null : trimmed.slice(0, MAX_NOTE_CHARS) };
}
