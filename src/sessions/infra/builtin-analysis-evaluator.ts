import type { AnalysisEvaluator, AnalysisRequest } from '../domain/analysis-evaluator';
import { pressedKeys } from '../domain/disposition-evaluator';
import type { CallAnalysis, TranscriptEntry } from '../sessions.events';

/** A quoted turn longer than this is cut (with …): the summary stays a couple of lines. */
export const MAX_QUOTE_CHARS = 200;

/** What a user turn said: its words, or the keys pressed; null for a turn with neither. */
function said(entry: TranscriptEntry): string | null {
  const words = entry.content?.replace(/\s+/g, ' ').trim() ?? '';
  if (words !== '') return words.length > MAX_QUOTE_CHARS ? `${words.slice(0, MAX_QUOTE_CHARS - 1)}…` : words;
  return entry.dtmf ? pressedKeys(entry.dtmf) : null;
}

/**
 * The built-in analysis (no model): deterministic, for test-pool calls (test mode without a persona)
 * and for every call when LLM_URL is unset, and what a call gets when the model never answered. The
 * summary quotes the first and the last things the caller said and says how the call ended:
 *
 *     The caller said: "Sure, what is it about?". Last: "Thursday at 3 works.". The call ended completed.
 *
 * (`Last` only when the caller said more than one thing; `The caller said nothing.` when it said
 * nothing; the end reason in brackets when it is not the status: `completed (transferred)`).
 * `structured_data` and `success` are null: filling a tenant's schema or judging its criteria from
 * words without understanding them would be a guess, and null says "not known" where a guess would
 * look like an answer.
 */
export class BuiltInAnalysisEvaluator implements AnalysisEvaluator {
  analyse(request: AnalysisRequest): Promise<CallAnalysis> {
    return Promise.resolve(builtInAnalysis(request));
  }
}

export function builtInAnalysis({ transcript, plan, outcome }: AnalysisRequest): CallAnalysis {
  return {
    summary: plan.summary === true ? builtInSummary(transcript, outcome) : null,
    structured_data: null,
    success: null,
  };
}

export function builtInSummary(
  transcript: readonly TranscriptEntry[],
  outcome: { status: string; end_reason: string },
): string {
  const lines = transcript
    .filter((e) => e.role === 'user')
    .map(said)
    .filter((s): s is string => s !== null);
  const first = lines[0];
  const last = lines.length > 1 ? lines[lines.length - 1] : undefined;
  const ending =
    outcome.end_reason === outcome.status || outcome.end_reason === ''
      ? `The call ended ${outcome.status}.`
      : `The call ended ${outcome.status} (${outcome.end_reason}).`;
  const caller =
    first === undefined
      ? 'The caller said nothing.'
      : last === undefined
        ? `The caller said: "${first}".`
        : `The caller said: "${first}". Last: "${last}".`;
  return `${caller} ${ending}`;
}
