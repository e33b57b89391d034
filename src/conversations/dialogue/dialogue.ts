/**
 * The dialogue port of a conversation: what the agent answers to each user turn. Two implementations:
 * the deterministic built-in dialogue (no model: builtin-dialogue.ts) and the model dialogue (a
 * ChatModel with the agent's prompt and tools: model-dialogue.ts). A dialogue speaks through
 * `turn.say`, sentence by sentence as it has them, and returns what the conversation must do next.
 */
import type { AgentConfig, AgentTool } from '../../sessions';

/** The fields of a session's agent_config a conversation uses (all but its dispositions). */
export type ConversationAgent = Omit<AgentConfig, 'dispositions'>;
export type { AgentTool };

/** Spoken when the agent has no `first_message`. */
export const DEFAULT_FIRST_MESSAGE = 'Hello! How can I help you today?';

/** What follows an answer. */
export type DialogueAction =
  | { type: 'continue' }
  /** Transfer the call (after the answer is spoken), then end the conversation. */
  | { type: 'transfer'; number: string }
  /** The user asked not to be called again: report it; the conversation ends after the answer. */
  | { type: 'opt_out' }
  /** End the conversation after the answer is spoken. */
  | { type: 'end'; reason: 'goodbye' | 'end_call' };

export interface DialogueTurn {
  /** Speaks `text` (a sentence or clause), after what was said before in this turn. */
  say(text: string): void;
  /** Aborted when the user talks over the answer or the conversation ends. */
  signal: AbortSignal;
}

export interface Dialogue {
  /** The first thing the agent says. */
  opening(): string;
  /** Answers one user turn (its recognised words). */
  answer(words: string, turn: DialogueTurn): Promise<DialogueAction>;
  /** The answer in progress was cut: only `spoken` was heard (a model remembers what was said). */
  interrupted?(spoken: string): void;
}
