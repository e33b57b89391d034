import type { AnalysisEvaluator, AnalysisRequest } from '../domain/analysis-evaluator';
import { transcriptText } from '../domain/disposition-evaluator';
import type { CallAnalysis } from '../sessions.events';
import { answerContent, jsonObjectContent, type LlmSettings, postChatCompletion } from './chat-completions';

/** A summary longer than this is cut: it goes into an event and every webhook. */
export const MAX_SUMMARY_CHARS = 2000;

const SYSTEM_PROMPT = [
  'You analyse a finished phone call between an AI voice agent ("agent") and a person ("user"), from its transcript.',
  'Answer with one JSON object only, no other text, with exactly the keys "summary", "structured_data" and "success",',
  'each as the user message says. Base every answer on the transcript alone: do not invent what was not said.',
].join(' ');

/**
 * The model analysis: one OpenAI-compatible chat completion at LLM_URL asking for the JSON object
 * `{summary, structured_data, success}` (`response_format: json_object`: a tenant's schema is
 * rarely one a strict `json_schema` mode takes, so it is in the prompt and checked by the caller with
 * ajv). It streams (`stream: true`), as the agent's dialogue asks the same server, so any server the
 * agent talks with analyses too; a JSON answer is read as well. It throws for anything but an answer
 * of the right shape: `summary` a non-empty string when asked, `success` a boolean when criteria
 * were given, `structured_data` present when a schema was given (whether it conforms is the caller's
 * check). What was not asked is null, whatever the model said.
 */
export class LlmAnalysisEvaluator implements AnalysisEvaluator {
  constructor(private readonly settings: LlmSettings) {}

  async analyse({ transcript, plan, outcome }: AnalysisRequest): Promise<CallAnalysis> {
    const wantsSummary = plan.summary === true;
    const schema = plan.structured_data;
    const criteria = plan.success_criteria;
    const keys = [
      wantsSummary
        ? '- "summary": a short summary of the call (two to four sentences): who called about what, what was agreed or not, and how it ended.'
        : '- "summary": null.',
      schema !== undefined
        ? `- "structured_data": the data that conforms to this JSON Schema, taken from the call (null where the schema allows it for what was not said):\n${JSON.stringify(schema)}`
        : '- "structured_data": null.',
      criteria !== undefined
        ? `- "success": true if the call met these success criteria, false if it did not:\n${criteria}`
        : '- "success": null.',
    ];
    const answer = await postChatCompletion(this.settings, {
      messages: [
        { role: 'system', content: SYSTEM_PROMPT },
        {
          role: 'user',
          content: [
            'The JSON object to answer:',
            ...keys,
            '',
            `The call ended with status ${outcome.status} (end reason: ${outcome.end_reason}).`,
            '',
            'Transcript:',
            transcriptText(transcript) || '(nothing was said)',
          ].join('\n'),
        },
      ],
      response_format: { type: 'json_object' },
      stream: true,
    });
    const object = jsonObjectContent(answerContent(answer));
    let summary: string | null = null;
    if (wantsSummary) {
      if (typeof object.summary !== 'string' || object.summary.trim() === '')
        throw new Error('the model answer has no summary');
      summary = object.summary.trim().slice(0, MAX_SUMMARY_CHARS);
    }
    let success: boolean | null = null;
    if (criteria !== undefined) {
      if (typeof object.success !== 'boolean') throw new Error('the model answer has no success (true or false)');
      success = object.success;
    }
    return { summary, structured_data: schema !== undefined ? object.structured_data : null, success };
  }
}
