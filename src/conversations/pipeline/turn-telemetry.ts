import type { EngineKind } from '../engines/engines';
import type { TurnMetrics } from './conversation-reporter';

/**
 * Where a conversation's timings go besides the session (spans per turn, latency histograms on
 * /metrics): a small port, so the pipeline does not depend on the telemetry's implementation
 * (src/conversations/infra/telemetry.ts provides it; NO_TELEMETRY until then, and in tests).
 */
export interface TurnTelemetry {
  /** A conversation of `tenantId` starts (its spans carry the tenant); returns what ends it. Optional. */
  opened?(sessionId: string, tenantId: string): () => void;
  /** One answered turn and its latency breakdown (TurnMetrics are ms from the conversation's start). */
  turn(sessionId: string, metrics: TurnMetrics): void;
  /** One tool call, as reported to the session. */
  toolCall(sessionId: string, call: { name: string; status: string; duration_ms: number }): void;
  /** The agent's audio stopped for a barge-in, `stopMs` after the user's speech was detected. */
  bargeIn(sessionId: string, stopMs: number): void;
  /** The opening line's first audio was ready `firstAudioMs` after the call's answer (its start). */
  greeting(sessionId: string, firstAudioMs: number): void;
  /** A hosted engine failed in a turn (decision 107). Optional. */
  engineFailed?(sessionId: string, engine: EngineKind): void;
  /** A 20 ms tick sent silence in the middle of an answer: its next piece was not synthesised in time. */
  underrun(sessionId: string): void;
}

export const NO_TELEMETRY: TurnTelemetry = {
  turn: () => undefined,
  toolCall: () => undefined,
  bargeIn: () => undefined,
  greeting: () => undefined,
  underrun: () => undefined,
};
