import type { AudioTransport } from './audio-transport';
import type { ToolReporter } from '../dialogue/dialogue';

/**
 * One agent turn's latency breakdown: when the user stopped speaking and when the agent's first
 * audio frame went out (ms from the conversation's start), the difference and the time inside each
 * engine; `t` in seconds, as the turn's transcript entry. (A session keeps it as `metrics.turns[]`.)
 */
export interface TurnMetrics {
  t: number;
  user_speech_end_ms: number;
  agent_audio_start_ms: number;
  voice_to_voice_ms: number;
  stt_ms: number;
  llm_first_token_ms: number;
  tts_first_audio_ms: number;
  interrupted: boolean;
}

/** `message_left`: the agent spoke its voicemail message to an answering machine, and ended. */
export type ConversationEnd = 'goodbye' | 'end_call' | 'max_duration' | 'transferred' | 'message_left' | 'hangup';

/** Why a transfer did not go through (the session's `session.transfer_failed`). */
export interface TransferFailure {
  /** refused: the REFER was answered 4xx/6xx; target_failed: the target did not take the call; no_answer: nothing in 30 s; not_supported: the medium cannot transfer. */
  reason: 'refused' | 'target_failed' | 'no_answer' | 'not_supported';
  /** The SIP status that said so; null when none came. */
  sip_code: number | null;
}

/** A transfer's outcome, as the call's line tells it. */
export type TransferOutcome = { ok: true } | ({ ok: false } & TransferFailure);

/**
 * A warm transfer (agent_config.transfer_mode `warm`): the line calls the target itself, has the
 * agent brief whoever answers, then connects the caller to them.
 */
export interface WarmTransfer {
  /**
   * The agent speaks its briefing on `transport` (the target's leg); resolves once it was played
   * (or `signal` aborted it: the target or the caller went away).
   */
  brief(transport: AudioTransport, signal: AbortSignal): Promise<void>;
}

export interface ConversationReporter extends ToolReporter {
  /** One turn of the transcript (the agent's cut where it was interrupted; keys pressed: `dtmf`, no words). */
  turn(entry: { role: 'agent' | 'user'; content: string; dtmf?: string; t: number }): Promise<void>;
  metrics(turn: TurnMetrics): Promise<void>;
  /**
   * The words heard so far of the user's utterance in progress (a streaming recogniser's interim
   * results; `t` in seconds from the start, as turns): for the live view only, never stored. Optional.
   */
  partial?(entry: { content: string; t: number }): void;
  transfer(transferNumber: string): Promise<void>;
  /** The transfer to `transferNumber` did not go through: the caller is still with the agent. */
  transferFailed(transferNumber: string, failure: TransferFailure): Promise<void>;
  optOut(): Promise<void>;
  /** The agent ended the conversation (goodbye, end_call, its maximum length) or the call went away. */
  ended(reason: ConversationEnd): Promise<void>;
}
