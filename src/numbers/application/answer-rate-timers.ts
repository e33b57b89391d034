import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig, settingsOf } from '../../config/config';
import { numbersSettings } from '../numbers.config';
import { CLOCK, Clock } from '../../kernel/clock';
import { CommandExecutor } from '../../runtime/commands/command-executor';
import { defineReactor, type Handled, type Processor } from '../../runtime/processing/processor';
import {
  defineTimerKind,
  TimersService,
  type DueTimer,
  type ScheduleTimer,
  type TimerOutcome,
} from '../../runtime/timers/timers.service';
import { sessionEdge, type SessionEndedData, type SessionFailedData, type SessionPlacedData } from '../../sessions';
import type { DomainEvent } from '../../kernel/decider';
import { answerRateDecider, answerRateStream, nextAgeOut, type AnswerRateState } from '../domain/answer-rate';
import { phoneNumberDecider, phoneNumberStream, registrationOf } from '../domain/phone-number.decider';

type ReactsTo =
  | DomainEvent<'session.placed', SessionPlacedData>
  | DomainEvent<'session.ended', SessionEndedData>
  | DomainEvent<'session.failed', SessionFailedData>;

interface CallEndedPayload {
  tenant_id: string;
  phone_number: string;
  session_id: string;
  ended_at: string;
  answered: boolean;
}

interface WindowPayload {
  tenant_id: string;
  phone_number: string;
  phone_number_id: string;
}

/** The numbers context's timer kinds, each with its payload type (timer-kind.ts). */
export const NUMBER_TIMER = {
  callEnded: defineTimerKind<CallEndedPayload>('number.call_ended', {
    tenant_id: true,
    phone_number: true,
    session_id: true,
    ended_at: true,
    answered: true,
  }),
  window: defineTimerKind<WindowPayload>('number.answer_rate_window', {
    tenant_id: true,
    phone_number: true,
    phone_number_id: true,
  }),
};

/**
 * Follows inbound sessions: `session.placed` with `direction: "inbound"` is noted in `inbound_calls`
 * (the reactor's own table, written in its checkpoint's transaction), and when such a session ends
 * (`session.ended`, `session.failed`) its row is taken out and a `number.call_ended` timer scheduled
 * with the outcome: answered when it reached in_progress (`started_at` set). A batch costs at most
 * one insert, one delete and one timer insert; outbound sessions cost the delete's index probe only.
 */
export function numbersReactor(timers: TimersService): Processor {
  let scheduled = false;
  return defineReactor<ReactsTo>({
    name: 'numbers_reactor',
    edge: sessionEdge.only('session.placed', 'session.ended', 'session.failed'),
    afterCommit: () => {
      if (scheduled) timers.poke();
      scheduled = false;
    },
    async applyBatch(tx, events: readonly Handled<ReactsTo>[]) {
      const placed = events.filter(
        (e): e is Handled<Extract<ReactsTo, { type: 'session.placed' }>> =>
          // A room's session is inbound too, but no phone number took it.
          e.type === 'session.placed' &&
          e.data.direction === 'inbound' &&
          !e.data.room_id &&
          e.metadata.tenant_id !== null,
      );
      if (placed.length > 0)
        await tx.query(
          `INSERT INTO inbound_calls (session_id, tenant_id, phone_number)
           SELECT * FROM unnest($1::text[], $2::text[], $3::text[]) ON CONFLICT (session_id) DO NOTHING`,
          [
            placed.map((e) => e.data.session_id),
            placed.map((e) => e.metadata.tenant_id),
            placed.map((e) => e.data.to_number),
          ],
        );
      const ended = new Map<string, SessionEndedData | SessionFailedData>();
      for (const e of events) if (e.type !== 'session.placed') ended.set(e.data.session_id, e.data);
      scheduled = false;
      if (ended.size === 0) return;
      const { rows } = await tx.query<{ session_id: string; tenant_id: string; phone_number: string }>({
        name: 'inbound_calls_ended',
        text: 'DELETE FROM inbound_calls WHERE session_id = ANY($1::text[]) RETURNING session_id, tenant_id, phone_number',
        values: [[...ended.keys()]],
      });
      const due: ScheduleTimer[] = rows.map((row) => {
        const outcome = ended.get(row.session_id) as SessionEndedData | SessionFailedData;
        const payload: CallEndedPayload = {
          tenant_id: row.tenant_id,
          phone_number: row.phone_number,
          session_id: row.session_id,
          ended_at: outcome.ended_at,
          answered: outcome.started_at !== null && outcome.started_at !== undefined,
        };
        return NUMBER_TIMER.callEnded.at({
          dueAt: new Date(outcome.ended_at),
          payload,
          dedupeKey: `${NUMBER_TIMER.callEnded.name}:${row.session_id}`,
        });
      });
      scheduled = due.length > 0;
      await timers.scheduleMany(due, tx);
    },
  });
}

/**
 * The answer-rate evaluations: one when an inbound call's end is recorded, and one durable timer per
 * registration (`number.answer_rate_window:<id>`) due when the oldest call of its window ages out,
 * brought forward by `wake` as calls come. Both are safe to run twice (the decider records a call once
 * and alerts once per drop).
 */
@Injectable()
export class AnswerRateTimers {
  constructor(
    private readonly timers: TimersService,
    private readonly executor: CommandExecutor,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  register(): void {
    this.timers.register(NUMBER_TIMER.callEnded, (t) => this.callEnded(t));
    this.timers.register(NUMBER_TIMER.window, (t) => this.window(t));
  }

  /** The tenant's current registration of the number, or null once it was released. */
  private async registration(tenantId: string, phoneNumber: string) {
    const state = await this.executor.state(phoneNumberStream(phoneNumber), phoneNumberDecider);
    return registrationOf(state, tenantId);
  }

  private async callEnded(timer: DueTimer<CallEndedPayload>): Promise<void> {
    const p = timer.payload;
    const number = await this.registration(p.tenant_id, p.phone_number);
    if (!number) return;
    const at = this.clock.now();
    const { state } = await this.executor.execute(
      answerRateStream(number.phoneNumberId),
      answerRateDecider,
      {
        type: 'record_call',
        call: { session_id: p.session_id, ended_at: p.ended_at, answered: p.answered },
        phoneNumber: number.phoneNumber,
        at: at.toISOString(),
        minCalls: settingsOf(this.config, numbersSettings).answerRateMinCalls,
      },
      { tenantId: p.tenant_id },
    );
    const ageOut = nextAgeOut(state.calls, at);
    if (!ageOut) return;
    const payload: WindowPayload = {
      tenant_id: p.tenant_id,
      phone_number: number.phoneNumber,
      phone_number_id: number.phoneNumberId,
    };
    await this.timers.wake(
      NUMBER_TIMER.window.at({
        dueAt: ageOut,
        payload,
        dedupeKey: `${NUMBER_TIMER.window.name}:${number.phoneNumberId}`,
      }),
    );
  }

  /** Evaluates the window as its oldest call ages out, then waits for the next one (none: the row goes). */
  private async window(timer: DueTimer<WindowPayload>): Promise<TimerOutcome<WindowPayload>> {
    const p = timer.payload;
    const number = await this.registration(p.tenant_id, p.phone_number);
    if (!number || number.phoneNumberId !== p.phone_number_id) return;
    const at = this.clock.now();
    const { state }: { state: AnswerRateState } = await this.executor.execute(
      answerRateStream(number.phoneNumberId),
      answerRateDecider,
      {
        type: 'evaluate',
        phoneNumber: number.phoneNumber,
        at: at.toISOString(),
        minCalls: settingsOf(this.config, numbersSettings).answerRateMinCalls,
      },
      { tenantId: p.tenant_id },
    );
    const next = nextAgeOut(state.calls, at);
    return next ? { next: { dueAt: next, payload: timer.payload } } : undefined;
  }
}
