import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { EVENT_STORE, EventStore } from '../../event-store/event-store.port';
import { CLOCK, type Clock } from '../../kernel/clock';
import { foldStored } from '../../kernel/decider';
import { TimersService, type DueTimer, type TimerOutcome } from '../../runtime/timers/timers.service';
import { sessionDecider, sessionEdge, sessionStream, testPersonaOf } from '../domain/session.decider';
import { PersonaCalls } from './persona-calls';
import { sessionSignals } from './session-signals';
import { TIMER, type SessionTimerPayload } from './session-reactor.processor';

/**
 * The work of a `session.persona` timer (scheduled by the session reactor for a test call with a
 * `test_persona`): the queued call is handed to the PersonaCalls port, which converses it in real time
 * on this instance. The timer's lease is renewed while the call lasts. If the timer runs again after
 * the call had started (its instance died mid-call), the call is not played twice: it ends as failed
 * (`media_lost`), as a phone call whose media process died does.
 */
@Injectable()
export class SessionPersona {
  constructor(
    private readonly timers: TimersService,
    private readonly commands: CommandBus,
    private readonly personaCalls: PersonaCalls,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  register(): void {
    this.timers.register(TIMER.persona, (t) => this.run(t));
  }

  private async run(timer: DueTimer<SessionTimerPayload>): Promise<TimerOutcome<SessionTimerPayload>> {
    const { tenant_id: tenantId, session_id: sessionId } = timer.payload;
    if (tenantId === null) return;
    const events = await this.store.readStream(sessionStream(sessionId));
    const first = events[0];
    const placed = first ? sessionEdge.decode(first) : null;
    const state = foldStored(sessionDecider, events);
    if (state.status === 'none' || placed?.type !== 'session.placed') return;
    const persona = testPersonaOf(placed.data);
    if (!persona) return;
    if (state.status === 'in_progress') {
      // The call's hang-up phase: after every signal the conversation reported before its instance died.
      await sessionSignals(this.commands, tenantId, sessionId, { tries: 1 }).hungUp({
        status: 'failed',
        end_reason: 'media_lost',
      });
      return;
    }
    if (state.status !== 'queued') return;
    const ran = await this.personaCalls.run({ tenantId, sessionId, agent: placed.data.agent_config, persona });
    // No room on this instance now (docs/capacity.md): the call waits, queued, and is tried again.
    if (ran) return { next: { dueAt: new Date(this.clock.now().getTime() + ran.retryInMs), payload: timer.payload } };
  }
}
