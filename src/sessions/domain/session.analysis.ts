import type { CallAnalysis, SessionAnalysisCompletedData, SessionStatus } from '../sessions.events';
import { DomainError } from '../../kernel/result';

/**
 * The rules of the post-call analysis (docs/conversations-api.md, "Post-call analysis";
 * docs/decisions/0193-post-call-analysis-after-the-end-by-the-model-or-built-in.md), beside the
 * session decider, which applies them: a call whose agent has an `analysis` plan, that was answered,
 * has a transcript and is not private, is analysed once after it ended, whatever its final status.
 */

/**
 * What the agent asks of a call once it has ended (`agent_config.analysis`, docs/conversations-api.md,
 * "Post-call analysis"): a summary, data shaped by a JSON Schema (kept as given, checked when it was
 * given: analysis-schema.ts), and a verdict against success criteria. Each part is optional.
 */
export interface AnalysisPlan {
  summary?: boolean;
  structured_data?: Record<string, unknown>;
  success_criteria?: string;
}

/** Stores an analysis (the evaluator's, checked by the timer's handler: session-analysis.ts). */
export interface SetAnalysis {
  type: 'set_analysis';
  analysis: CallAnalysis;
}

/** What the rules read of a session's state (the decider's live state has these fields). */
export interface AnalysisFacts {
  sessionId: string;
  status: SessionStatus;
  analysisPlan: AnalysisPlan | null;
  startedAt: string | null;
  transcript: readonly unknown[];
  private?: boolean;
  analysed: boolean;
}

export type AnalysisSkip = 'not_asked' | 'private' | 'not_ended' | 'not_answered' | 'no_transcript' | 'already_done';

/** Whether the plan asks for anything (the API refuses a plan that asks nothing: agent-config.dto.ts). */
export function asksForAnything(plan: AnalysisPlan | null | undefined): plan is AnalysisPlan {
  return (
    plan !== null &&
    plan !== undefined &&
    (plan.summary === true || plan.structured_data !== undefined || plan.success_criteria !== undefined)
  );
}

/**
 * Why this session gets no (further) analysis, or null when one is due. Before the end, whether one
 * will be is said by the same rules (`not_ended` comes after the ones that do not change by the end).
 */
export function analysisSkip(s: AnalysisFacts): AnalysisSkip | null {
  if (!asksForAnything(s.analysisPlan)) return 'not_asked';
  // A private call (a number verification) keeps no words: there is nothing to analyse.
  if (s.private === true) return 'private';
  if (s.status === 'queued' || s.status === 'in_progress') return 'not_ended';
  if (s.startedAt === null) return 'not_answered';
  if (s.transcript.length === 0) return 'no_transcript';
  if (s.analysed) return 'already_done';
  return null;
}

/**
 * What the decider appends after a call's terminal event: `session.analysis_requested` when the call
 * that is ending will be analysed (its state as the terminal event leaves it), so that the reactor
 * schedules the analysis timer for those calls only.
 */
export function analysisRequested(
  ending: AnalysisFacts,
): { type: 'session.analysis_requested'; data: { session_id: string } }[] {
  return analysisSkip(ending) === null
    ? [{ type: 'session.analysis_requested', data: { session_id: ending.sessionId } }]
    : [];
}

/** The analysis as stored: what the plan did not ask for is null, whatever the evaluator said. */
export function asked(plan: AnalysisPlan, analysis: CallAnalysis): CallAnalysis {
  return {
    summary: plan.summary === true ? analysis.summary : null,
    structured_data: plan.structured_data !== undefined ? (analysis.structured_data ?? null) : null,
    success: plan.success_criteria !== undefined ? analysis.success : null,
  };
}

/**
 * The analysis event, once: nothing when the session gets none (or has one already), a refusal for
 * a session that has not ended.
 */
export function decideAnalysis(
  s: AnalysisFacts,
  command: SetAnalysis,
): { type: 'session.analysis_completed'; data: SessionAnalysisCompletedData }[] {
  const skip = analysisSkip(s);
  if (skip === 'not_ended') throw new DomainError('conflict', 'The session has not ended yet.');
  if (skip !== null || s.analysisPlan === null) return [];
  return [
    {
      type: 'session.analysis_completed',
      data: { session_id: s.sessionId, analysis: asked(s.analysisPlan, command.analysis) },
    },
  ];
}
