/**
 * The dialogue port of a conversation: what the agent answers to each user turn. Two implementations:
 * the deterministic built-in dialogue (no model: builtin-dialogue.ts) and the model dialogue (a
 * ChatModel with the agent's prompt and tools: model-dialogue.ts). A dialogue speaks through
 * `turn.say`, sentence by sentence as it has them, and returns what the conversation must do next.
 */

/** A tool of the agent (agent_config.tools): the platform POSTs its calls to `url`. */
export interface AgentTool {
  name: string;
  description?: string;
  /** JSON Schema of the arguments. */
  parameters?: Record<string, unknown>;
  url: string;
  /** How long a call may take before `function.timeout` and "still working" (default 5000). */
  timeout_ms?: number;
}

/** The fields of a session's agent_config a conversation uses (the sessions context's AgentConfig has them). */
export interface ConversationAgent {
  prompt: string;
  first_message?: string;
  voice_id?: string;
  /** BCP 47; default en-US. */
  language?: string;
  /** E.164: the agent may transfer to it. */
  transfer_number?: string;
  tools?: AgentTool[];
  /** Default 3600. */
  max_duration_seconds?: number;
  /** Default true: the user may talk over the agent. */
  interruptible?: boolean;
}

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
