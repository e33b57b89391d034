import type { CallAnalysis, SessionStatus, TranscriptEntry } from '../sessions.events';
import type { AnalysisPlan } from './session.analysis';

export interface AnalysisRequest {
  transcript: readonly TranscriptEntry[];
  /** Asks for something (a session without a plan is not analysed). */
  plan: AnalysisPlan;
  /** How the call ended: its final status and its end_reason. */
  outcome: { status: SessionStatus; end_reason: string };
}

/**
 * The port behind `session.analysis_completed` (docs/decisions/0193-post-call-analysis-after-the-end-by-the-model-or-built-in.md):
 * analyses an ended call from its transcript. It rejects (throws) when it cannot give an answer of
 * the right shape, and the durable timer that called it retries; whether `structured_data` conforms
 * to the agent's schema is checked by the caller (session-analysis.ts), which retries too.
 */
export interface AnalysisEvaluator {
  analyse(request: AnalysisRequest): Promise<CallAnalysis>;
}
