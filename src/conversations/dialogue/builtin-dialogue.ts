import {
  DEFAULT_FIRST_MESSAGE,
  type ConversationAgent,
  type Dialogue,
  type DialogueAction,
  type DialogueTurn,
} from './dialogue';
import { intentOf, LINES } from './phrases';

/**
 * The deterministic dialogue, used when no model is configured (LLM_URL unset): it says back what it
 * heard ("I heard: …"), transfers on a request for a human, an agent or a representative (when the
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
        turn.say(`I heard: ${words}.`);
        return Promise.resolve({ type: 'continue' });
    }
  }
}
