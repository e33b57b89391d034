import {
  transcriptText,
  type DispositionEvaluator,
  type DispositionRequest,
  type DispositionVerdict,
} from '../domain/disposition-evaluator';
import {
  jsonObjectContent,
  type LlmSettings,
  messageContent,
  postChatCompletion,
  answerContent,
} from './chat-completions';

export { chatCompletionsUrl, LLM_TIMEOUT_MS, type LlmSettings } from './chat-completions';

/** A note longer than this is cut: it goes into an event and every webhook. */
const MAX_NOTE_CHARS = 1000;

const SYSTEM_PROMPT = [
  'You classify the outcome of a phone call placed by an AI voice agent in an outbound campaign.',
  'Pick exactly one disposition code from the list, the one that best describes how the call ended,',
  'and write a short note (one sentence) that justifies it from the transcript.',
  'Answer with JSON only: {"disposition_code": "<one of the codes>", "disposition_note": "<note>"}.',
].join(' ');

/**
 * The model evaluator (`evaluator: "llm"`, `model: LLM_MODEL`): one OpenAI-compatible
 * chat-completions request (OpenAI, vLLM, Ollama, llama.cpp server) whose answer is constrained by a
 * JSON schema to the session's codes. Anything but a valid answer (a network error, a timeout, a
 * non-2xx status, a body without `choices[0].message.content`, content that is not that JSON object,
 * a code outside the list) throws, and the timer that asked retries. The API key goes in the
 * Authorization header only: it is never logged nor put in an error message. The HTTP part is
 * chat-completions.ts, shared with the post-call analysis (llm-analysis-evaluator.ts).
 */
export class LlmDispositionEvaluator implements DispositionEvaluator {
  constructor(private readonly settings: LlmSettings) {}

  async evaluate({ transcript, dispositions }: DispositionRequest): Promise<DispositionVerdict> {
    const codes = dispositions.map((d) => d.code);
    const answer = await postChatCompletion(this.settings, {
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
    const { code, note } = verdictOf(answerContent(answer), codes);
    return { code, note, evaluator: 'llm', model: this.settings.model };
  }
}

/** The code and note of a chat-completions response body; throws unless it is a valid answer. */
export function parseAnswer(responseText: string, codes: readonly string[]): { code: string; note: string | null } {
  return verdictOf(messageContent(responseText), codes);
}

/** The code and note of the model's content; throws unless it is a valid answer. */
function verdictOf(content: string, codes: readonly string[]): { code: string; note: string | null } {
  const answer = jsonObjectContent(content);
  const code = answer.disposition_code;
  const note = answer.disposition_note;
  if (typeof code !== 'string') throw new Error('the model answer has no disposition_code');
  if (typeof note !== 'string') throw new Error('the model answer has no disposition_note');
  if (!codes.includes(code)) throw new Error(`the model answered a code outside the list (${code.slice(0, 100)})`);
  const trimmed = note.trim();
  return { code, note: trimmed === '' ? null : trimmed.slice(0, MAX_NOTE_CHARS) };
}
