import { Inject, Injectable, Logger } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { DispositionModel } from './disposition-model';
import { EVENT_STORE, EventStore } from '../../event-store/event-store.port';
import { foldStored } from '../../kernel/decider';
import { TimersService, type DueTimer } from '../../runtime/timers/timers.service';
import type { DispositionEvaluator } from '../domain/disposition-evaluator';
import { sessionDecider, sessionStream } from '../domain/session.decider';
import { dispositionSkip } from '../domain/session.disposition';
import { LlmDispositionEvaluator } from '../infra/llm-disposition-evaluator';
import { SimulatedDispositionEvaluator } from '../infra/simulated-disposition-evaluator';
import { SessionActionCommand } from './session.commands';
import { type SessionTimerPayload, TIMER } from './session-reactor.processor';

/**
 * Tries of one disposition before it is given up (the timer service's back-off between them: 2 s,
 * 4 s, 8 s … 256 s, about 13 minutes in all), so that a model outage or a model that keeps answering
 * outside the list does not retry forever.
 */
export const DISPOSITION_MAX_ATTEMPTS = 10;

/**
 * The work of a `session.disposition` timer, scheduled by the session reactor when a campaign call
 * ends (docs/decisions/0030-dispositions-evaluated-once-after-session-ended-by-a-model.md). It
 * reads the session from its stream and stops at once when no disposition is due
 * (docs/campaigns.md, "Dispositions": no dispositions on the agent, the agent gave one, already
 * set); otherwise the evaluator picks a code and the session decider stores
 * `session.disposition_set`, once however often this runs. A failure throws and the timer retries,
 * up to DISPOSITION_MAX_ATTEMPTS.
 */
@Injectable()
export class SessionDispositions {
  private readonly logger = new Logger('Sessions');
  private readonly builtIn: DispositionEvaluator = new SimulatedDispositionEvaluator();
  private readonly model: DispositionEvaluator | null;

  constructor(
    private readonly timers: TimersService,
    private readonly commands: CommandBus,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    dispositionModel: DispositionModel,
  ) {
    const model = dispositionModel.endpoint;
    this.model = model ? new LlmDispositionEvaluator(model) : null;
  }

  register(): void {
    this.timers.register(TIMER.disposition, (t) => this.evaluate(t));
  }

  private async evaluate(timer: DueTimer<SessionTimerPayload>): Promise<void> {
    const { tenant_id, session_id } = timer.payload;
    if (tenant_id === null) return;
    const events = await this.store.readStream(sessionStream(session_id));
    const state = foldStored(sessionDecider, events);
    if (state.status === 'none' || dispositionSkip(state) !== null) return;
    // Test calls never reach a model (nor cost one).
    const evaluator = state.testMode || this.model === null ? this.builtIn : this.model;
    try {
      const verdict = await evaluator.evaluate({ transcript: state.transcript, dispositions: state.dispositions });
      await this.commands.execute(
        new SessionActionCommand(tenant_id, session_id, { type: 'set_disposition', ...verdict }),
      );
    } catch (err) {
      if (timer.attempts < DISPOSITION_MAX_ATTEMPTS) throw err;
      const reason = err instanceof Error ? err.message : String(err);
      this.logger.warn(
        `no disposition for session ${session_id}: given up after ${timer.attempts} attempts (${reason})`,
      );
    }
  }
}
