import { Inject, Injectable, Logger } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { DispositionModel } from './disposition-model';
import { EVENT_STORE, EventStore } from '../../event-store/event-store.port';
import { foldStored } from '../../kernel/decider';
import { TimersService, type DueTimer } from '../../runtime/timers/timers.service';
import type { AnalysisEvaluator, AnalysisRequest } from '../domain/analysis-evaluator';
import { compileAnalysisSchema } from '../domain/analysis-schema';
import { analysisSkip } from '../domain/session.analysis';
import { sessionDecider, sessionEdge, sessionStream, testPersonaOf } from '../domain/session.decider';
import { builtInAnalysis } from '../infra/builtin-analysis-evaluator';
import { LlmAnalysisEvaluator } from '../infra/llm-analysis-evaluator';
import type { CallAnalysis } from '../sessions.events';
import { SessionActionCommand } from './session.commands';
import { type SessionTimerPayload, TIMER } from './session-reactor.processor';

/**
 * Tries of the model for one call's analysis (the timer service's back-off between them: 2 s, 4 s,
 * 8 s, 16 s, about 30 s in all), after which the call is analysed with what there is: an answer whose
 * structured data never conformed to the agent's schema is stored with `structured_data: null`, and
 * a model that never answered is replaced by the built-in analysis. Shorter than the disposition's:
 * an analysis is awaited by a client just after the call, and it is never given up.
 */
export const ANALYSIS_MAX_ATTEMPTS = 5;

const outcomeEdge = sessionEdge.only('session.ended', 'session.failed');

/**
 * The work of a `session.analysis` timer, scheduled by the session reactor when a call its agent
 * asked analysed has ended (`session.analysis_requested`; decision 193). It reads the session from
 * its stream and stops at once when no analysis is due (session.analysis.ts: `analysisSkip`);
 * otherwise an evaluator analyses the transcript and the session decider stores
 * `session.analysis_completed`, once however often this runs.
 *
 * Who analyses: the model at LLM_URL (the dialogue's: DispositionModel) for production calls, room
 * sessions and test persona calls, whose conversation already ran on that model; the built-in
 * analysis for test-pool calls (test mode without a persona: a scripted transcript never reaches a
 * model, as their dispositions do not) and for every call when LLM_URL is unset. A model failure, or
 * structured data that does not conform to the agent's schema, throws and the timer retries, up to
 * ANALYSIS_MAX_ATTEMPTS.
 */
@Injectable()
export class SessionAnalysis {
  private readonly logger = new Logger('Sessions');
  private readonly model: AnalysisEvaluator | null;

  constructor(
    private readonly timers: TimersService,
    private readonly commands: CommandBus,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    chatModel: DispositionModel,
  ) {
    const endpoint = chatModel.endpoint;
    this.model = endpoint ? new LlmAnalysisEvaluator(endpoint) : null;
  }

  register(): void {
    this.timers.register(TIMER.analysis, (t) => this.analyse(t));
  }

  private async analyse(timer: DueTimer<SessionTimerPayload>): Promise<void> {
    const { tenant_id, session_id } = timer.payload;
    if (tenant_id === null) return;
    const events = await this.store.readStream(sessionStream(session_id));
    const state = foldStored(sessionDecider, events);
    if (state.status === 'none' || state.analysisPlan === null || analysisSkip(state) !== null) return;
    const first = events[0];
    const placed = first ? sessionEdge.decode(first) : null;
    const persona = placed?.type === 'session.placed' && testPersonaOf(placed.data) !== null;
    const terminal = events.find((e) => e.type === 'session.ended' || e.type === 'session.failed');
    const request: AnalysisRequest = {
      transcript: state.transcript,
      plan: state.analysisPlan,
      outcome: { status: state.status, end_reason: terminal ? outcomeEdge.decode(terminal).data.end_reason : '' },
    };
    // A test-pool call's scripted transcript never reaches a model (nor costs one).
    const scripted = state.testMode && !persona;
    const analysis =
      this.model === null || scripted
        ? builtInAnalysis(request)
        : await this.byModel(this.model, request, timer.attempts, session_id);
    await this.commands.execute(new SessionActionCommand(tenant_id, session_id, { type: 'set_analysis', analysis }));
  }

  /** The model's analysis, its structured data checked against the agent's schema; throws to be tried again. */
  private async byModel(
    model: AnalysisEvaluator,
    request: AnalysisRequest,
    attempts: number,
    sessionId: string,
  ): Promise<CallAnalysis> {
    const last = attempts >= ANALYSIS_MAX_ATTEMPTS;
    let answer: CallAnalysis;
    try {
      answer = await model.analyse(request);
    } catch (err) {
      if (!last) throw err;
      this.logger.warn(
        `analysis of session ${sessionId}: the model failed ${attempts} times (${errorText(err)}); the built-in analysis is stored`,
      );
      return builtInAnalysis(request);
    }
    const schema = request.plan.structured_data;
    if (schema === undefined) return answer;
    const compiled = compileAnalysisSchema(schema);
    if ('refused' in compiled) {
      // Checked when the agent was given: only a schema stored before a stricter check gets here.
      this.logger.warn(`analysis of session ${sessionId}: the agent's structured_data schema ${compiled.refused}`);
      return { ...answer, structured_data: null };
    }
    const problem = compiled.problem(answer.structured_data);
    if (problem === null) return answer;
    if (!last) throw new Error(`the model's structured_data does not conform to the agent's schema: ${problem}`);
    this.logger.warn(
      `analysis of session ${sessionId}: no structured_data conformed in ${attempts} attempts (${problem}); stored as null`,
    );
    return { ...answer, structured_data: null };
  }
}

const errorText = (err: unknown): string => (err instanceof Error ? err.message : String(err));
