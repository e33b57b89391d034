import type { TranscriptEntry } from '../sessions.events';

/** One code of an agent's disposition list (`agent_config.dispositions`). */
export interface DispositionOption {
  code: string;
  description: string;
}

export interface DispositionRequest {
  transcript: readonly TranscriptEntry[];
  /** Never empty: a session without dispositions is not evaluated. */
  dispositions: readonly DispositionOption[];
}

/** The evaluator's pick: `code` is one of the request's codes (an adapter refuses any other answer). */
export interface DispositionVerdict {
  code: string;
  note: string | null;
  /** `llm` (a model) or `simulator` (the built-in evaluator). */
  evaluator: string;
  /** The model's name; null for the built-in evaluator. */
  model: string | null;
}

/**
 * The port behind `session.disposition_set`
 * (docs/decisions/0030-dispositions-evaluated-once-after-session-ended-by-a-model.md): picks one
 * code of the list from the transcript. It rejects (throws) when it cannot give a valid answer, and
 * the durable timer that called it retries.
 */
export interface DispositionEvaluator {
  evaluate(request: DispositionRequest): Promise<DispositionVerdict>;
}

/**
 * Content of the transcript as `role: content` lines; keys the caller pressed (a keypad turn, empty
 * content) as `user: [pressed the keys 42#]`. Turns with nothing said (a private call's) are left out.
 */
export function transcriptText(transcript: readonly TranscriptEntry[]): string {
  return transcript
    .map((entry) => {
      const said = entry.content?.trim() ?? '';
      if (said !== '') return `${entry.role}: ${entry.content}`;
      return entry.dtmf ? `${entry.role}: ${pressedKeys(entry.dtmf)}` : null;
    })
    .filter((line): line is string => line !== null)
    .join('\n');
}

/** How a keypad turn reads in a transcript's text (`[pressed the keys 42#]`). */
export const pressedKeys = (dtmf: string): string => `[pressed the keys ${dtmf}]`;
