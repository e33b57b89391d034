import type { SpeechSynthesizer } from '../engines/engines';
import type { ConversationLine } from './conversation-deps';
import type { TransferOutcome, WarmTransfer } from './conversation-reporter';
import { OutputQueue } from './output-queue';
import { SpokenAnswer } from './spoken-answer';

/**
 * A warm transfer's briefing (docs/telephony.md "Transfers"): `text` spoken in the agent's voice on
 * the target's leg, through an output queue and an answer of its own (the caller's stay untouched).
 * `brief` resolves once it was played, or at once when `signal` aborts (either side went away).
 */
export function warmBriefing(
  text: string,
  deps: { synthesizer: SpeechSynthesizer; voiceId?: string; now: () => number },
): WarmTransfer {
  return {
    brief: async (transport, signal) => {
      const queue = new OutputQueue(transport.sampleRate, deps.now);
      transport.play(queue);
      const briefing = new SpokenAnswer(
        0,
        {
          synthesizer: deps.synthesizer,
          voiceId: deps.voiceId,
          queue,
          sampleRate: transport.sampleRate,
          now: deps.now,
        },
        Promise.resolve(),
        null,
      );
      const stop = (): void => {
        briefing.abort.abort();
        queue.flush();
      };
      signal.addEventListener('abort', stop, { once: true });
      try {
        briefing.say(text);
        await briefing.queued();
        if (!signal.aborted) await Promise.race([queue.whenIdle(), aborted(signal)]);
      } finally {
        signal.removeEventListener('abort', stop);
      }
    },
  };
}

/**
 * Has the line hand the caller to `number`: cold, or warm with `briefing` spoken to whoever answers
 * first. A line that throws is a transfer to a target that failed (`failed` is told why).
 */
export async function transferThrough(
  line: ConversationLine,
  number: string,
  how: {
    briefing: string | null;
    speaker: { synthesizer: SpeechSynthesizer; voiceId?: string; now: () => number };
    failed: (err: Error) => void;
  },
): Promise<TransferOutcome> {
  try {
    if (!line.transfer) return { ok: false, reason: 'not_supported', sip_code: null };
    return await (how.briefing === null
      ? line.transfer(number)
      : line.transfer(number, warmBriefing(how.briefing, how.speaker)));
  } catch (err) {
    how.failed(err instanceof Error ? err : new Error(String(err)));
    return { ok: false, reason: 'target_failed', sip_code: null };
  }
}

/** Resolves once `signal` aborts. */
function aborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}
