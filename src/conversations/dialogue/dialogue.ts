/**
 * The dialogue port of a conversation: what the agent answers to each user turn. Two implementations:
 * the deterministic built-in dialogue (no model: builtin-dialogue.ts) and the model dialogue (a
 * ChatModel with the agent's prompt and tools: model-dialogue.ts). A dialogue speaks through
 * `turn.say`, sentence by sentence as it has them, and returns what the conversation must do next.
 */
/**
 * A tool the agent's model may call: a signed POST to `url`, bounded by `timeout_ms` (absent: 5 s).
 * The sessions context's `agent_config.tools[]` has this shape.
 */
export interface AgentTool {
  name: string;
  description?: string;
  /** A JSON Schema object (the model's view of the arguments), kept as given. */
  parameters?: Record<string, unknown>;
  url: string;
  timeout_ms?: number;
}

/**
 * The agent a conversation runs: the fields of a session's `agent_config` it uses (all but the
 * dispositions), as this context's own port type. Absent fields take their documented defaults.
 */
export interface ConversationAgent {
  prompt: string;
  voice_id?: string;
  /** Spoken when the conversation starts (absent: a short greeting). */
  first_message?: string;
  /** BCP 47 (absent: en-US). */
  language?: string;
  /** E.164: where the agent may transfer the call. */
  transfer_number?: string;
  /** `warm`: the line calls transfer_number, the agent briefs whoever answers, then the caller is bridged (absent: cold). */
  transfer_mode?: 'cold' | 'warm';
  /** Warm transfers: the briefing (absent: what the caller said first and last). */
  transfer_summary?: string;
  tools?: AgentTool[];
  /** The conversation's bound in seconds (absent: 3600). */
  max_duration_seconds?: number;
  /** The silence (ms) that ends the user's turn (absent: 500, or a streaming recogniser's own endpointing). */
  endpointing_ms?: number;
  /** Whether user speech stops the agent's (absent: true). */
  interruptible?: boolean;
  /**
   * Outbound calls: whether an answering machine is detected (absent: true), and the message left on
   * one after its beep (absent: it is hung up on at once).
   */
  voicemail?: { detect?: boolean; message?: string };
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
  /** End the conversation after the answer is spoken (`message_left`: a voicemail message, not the dialogue's). */
  | { type: 'end'; reason: 'goodbye' | 'end_call' | 'message_left' };

export interface DialogueTurn {
  /** Speaks `text` (a sentence or clause), after what was said before in this turn. */
  say(text: string): void;
  /** Aborted when the user talks over the answer or the conversation ends. */
  signal: AbortSignal;
}

/** Why a transfer did not go through, as the dialogue hears of it. */
export interface FailedTransfer {
  reason: 'refused' | 'target_failed' | 'no_answer' | 'not_supported';
  sip_code: number | null;
}

export interface Dialogue {
  /** The first thing the agent says. */
  opening(): string;
  /** Answers one user turn (its recognised words). */
  answer(words: string, turn: DialogueTurn): Promise<DialogueAction>;
  /** Answers keys the user pressed (0-9, *, #, A-D), as one turn. */
  pressed(digits: string, turn: DialogueTurn): Promise<DialogueAction>;
  /** The transfer it asked for did not go through: what the agent says (the conversation goes on). */
  transferFailed(failure: FailedTransfer): string;
  /** The answer in progress was cut: only `spoken` was heard (a model remembers what was said). */
  interrupted?(spoken: string): void;
}

/** Where a dialogue's tool calls are reported (the conversation's reporter). */
export interface ToolReporter {
  functionInvoked(invocation: {
    name: string;
    status: 'succeeded' | 'failed' | 'timeout';
    duration_ms: number;
  }): Promise<void>;
  functionTimeout(timeout: { function_id: string; name: string; timeout_ms: number }): Promise<void>;
}
