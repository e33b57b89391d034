/** One turn's latency breakdown, as the session keeps it (`metrics.turns[]`). */
import type { TurnMetrics } from '../../sessions';
export type { TurnMetrics };

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
