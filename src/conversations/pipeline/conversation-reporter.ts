/**
 * What a conversation reports about itself, as it happens. The host that runs it (a room, a test
 * persona call, a phone call) turns each report into the session's signal; every method resolves
 * once what it reports is stored (in the session's stream), so a turn is never lost to a crash once
 * the pipeline has gone on.
 */
export interface TurnMetrics {
  /** Seconds from the start of the conversation at which the agent's answer began (the turn's t). */
  t: number;
  /** When the user stopped speaking, in ms from the start of the conversation. */
  user_speech_end_ms: number;
  /** When the agent's first frame of the answer went out, in ms from the start. */
  agent_audio_start_ms: number;
  voice_to_voice_ms: number;
  stt_ms: number;
  /** From the transcript to the dialogue's first words (model or built-in). */
  llm_first_token_ms: number;
  tts_first_audio_ms: number;
  /** The user spoke over this answer and it was cut. */
  interrupted: boolean;
}

export type ConversationEnd = 'goodbye' | 'end_call' | 'max_duration' | 'transferred' | 'hangup';

export interface ConversationReporter {
  /** One turn of the transcript (the agent's cut where it was interrupted). */
  turn(entry: { role: 'agent' | 'user'; content: string; t: number }): Promise<void>;
  metrics(turn: TurnMetrics): Promise<void>;
  functionInvoked(invocation: {
    name: string;
    status: 'succeeded' | 'failed' | 'timeout';
    duration_ms: number;
  }): Promise<void>;
  functionTimeout(timeout: { function_id: string; name: string; timeout_ms: number }): Promise<void>;
  transfer(transferNumber: string): Promise<void>;
  optOut(): Promise<void>;
  /** The agent ended the conversation (goodbye, end_call, its maximum length) or the call went away. */
  ended(reason: ConversationEnd): Promise<void>;
}
