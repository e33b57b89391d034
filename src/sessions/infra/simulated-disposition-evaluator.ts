import type {
  DispositionEvaluator,
  DispositionOption,
  DispositionRequest,
  DispositionVerdict,
} from '../domain/disposition-evaluator';

/** Words too common to say anything about a call. */
const STOP_WORDS = new Set([
  'about',
  'after',
  'again',
  'call',
  'called',
  'caller',
  'calls',
  'contact',
  'from',
  'have',
  'that',
  'their',
  'there',
  'they',
  'this',
  'were',
  'what',
  'when',
  'with',
  'would',
  'your',
]);

/** Lower-case words of at least four letters, without the stop words. */
function words(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w.length >= 4 && !STOP_WORDS.has(w));
}

/**
 * The built-in evaluator (`evaluator: "simulator"`, no model): deterministic, for test-mode calls and
 * for every call when LLM_URL is unset. Each code scores the distinct words of its code and
 * description (`appointment_booked`, "An appointment was booked") found in what was said; the best
 * score wins, the earlier code on a tie, and the first code when none matches.
 */
export class SimulatedDispositionEvaluator implements DispositionEvaluator {
  evaluate(request: DispositionRequest): Promise<DispositionVerdict> {
    return Promise.resolve(pickDisposition(request));
  }
}

export function pickDisposition({ transcript, dispositions }: DispositionRequest): DispositionVerdict {
  const first = dispositions[0];
  if (!first) throw new Error('no disposition codes to choose from');
  const said = new Set(words(transcript.map((entry) => entry.content ?? '').join('\n')));
  let best: { option: DispositionOption; found: string[] } = { option: first, found: [] };
  for (const option of dispositions) {
    const found = [...new Set(words(`${option.code.replace(/[_-]+/g, ' ')} ${option.description}`))].filter((w) =>
      said.has(w),
    );
    if (found.length > best.found.length) best = { option, found };
  }
  const note =
    best.found.length > 0
      ? `The transcript mentions ${best.found.map((w) => `"${w}"`).join(', ')}.`
      : 'No code matched the transcript; the first code was taken.';
  return { code: best.option.code, note, evaluator: 'simulator', model: null };
}
