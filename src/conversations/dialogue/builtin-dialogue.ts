import {
  DEFAULT_FIRST_MESSAGE,
  type ConversationAgent,
  type Dialogue,
  type DialogueAction,
  type DialogueTurn,
  type FailedTransfer,
} from './dialogue';
import { intentOf, LINES, spokenKeys } from './phrases';

/**
 * The deterministic dialogue, used when no model is configured (LLM_URL unset): it says back what it
 * heard ("I heard: …") and the keys pressed ("You pressed 1."), transfers on a request for a human, an agent or a representative (when the
 * agent has a transfer_number), takes opt-outs, and ends on goodbye (docs/conversations.md).
 */
export class BuiltinDialogue implements Dialogue {
  constructor(private readonly agent: ConversationAgent) {}

  opening(): string {
    return this.agent.first_message?.trim() || DEFAULT_FIRST_MESSAGE;
  }

  answer(words: string, turn: DialogueTurn): Promise<DialogueAction> {
    switch (intentOf(words)) {
      case 'opt_out':
        turn.say(LINES.optedOut);
        return Promise.resolve({ type: 'opt_out' });
      case 'transfer':
        if (this.agent.transfer_number) {
          turn.say(LINES.transferring);
          return Promise.resolve({ type: 'transfer', number: this.agent.transfer_number });
        }
        turn.say(LINES.cannotTransfer);
        return Promise.resolve({ type: 'continue' });
      case 'goodbye':
        turn.say(LINES.goodbye);
        return Promise.resolve({ type: 'end', reason: 'goodbye' });
      default:
        turn.say(`I heard: ${echoOf(words)}.`);
        return Promise.resolve({ type: 'continue' });
    }
  }

  pressed(digits: string, turn: DialogueTurn): Promise<DialogueAction> {
    turn.say(`You pressed ${spokenKeys(digits)}.`);
    return Promise.resolve({ type: 'continue' });
  }

  transferFailed(failure: FailedTransfer): string {
    void failure;
    return LINES.transferFailed;
  }
}

/** The most of an utterance the built-in dialogue says back. */
export const MAX_ECHO = 200;

/**
 * What is said back of `words`: all of it up to MAX_ECHO characters, else its first MAX_ECHO
 * characters cut back to the last whole word (not inside a surrogate pair), then "…". A long
 * utterance (up to 2 minutes of speech) is not spoken back whole.
 */
export function echoOf(words: string): string {
  const text = words.replace(/\s+/g, ' ').trim();
  if (text.length <= MAX_ECHO) return text;
  let cut = text.lastIndexOf(' ', MAX_ECHO);
  if (cut <= 0) {
    cut = MAX_ECHO;
    const code = text.charCodeAt(cut - 1);
    if (code >= 0xd800 && code <= 0xdbff) cut--;
  }
  return `${text.slice(0, cut).trimEnd()}…`;
}
