import { Inject, Injectable, Logger } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { DomainEvent } from '../../kernel/decider';
import { defineReactor, type Handled, type Processor } from '../../runtime/processing/processor';
import { defineTimerKind, TimersService, type DueTimer, type ScheduleTimer } from '../../runtime/timers/timers.service';
import { sessionEdge, sessionStream, type SessionEndedData, type SessionFailedData } from '../../sessions';
import { type LedgerEvent, ledgerEdge, ledgerStream } from '../domain/ledger.decider';
import { PAYMENT_PROCESSOR, type PaymentProcessor } from '../domain/payment-processor';
import type { DepletedBalanceHolds } from './credit-holds';
import { ChangeLedger } from './ledger.commands';

type ReactsTo =
  | DomainEvent<'session.ended', SessionEndedData>
  | DomainEvent<'session.failed', SessionFailedData>
  | Extract<LedgerEvent, { type: 'credits.topup_requested' | 'credits.replenished' }>;

interface DebitPayload {
  tenant_id: string;
  session_id: string;
  amount_cents: number;
  duration_seconds: number;
}

interface SettlePayload {
  tenant_id: string;
  topup_id: string;
}

/** The credits context's timer kinds, each with its payload type (timer-kind.ts). */
export const CREDITS_TIMER = {
  debit: defineTimerKind<DebitPayload>('credits.debit', {
    tenant_id: true,
    session_id: true,
    amount_cents: true,
    duration_seconds: true,
  }),
  settle: defineTimerKind<SettlePayload>('credits.settle_topup', { tenant_id: true, topup_id: true }),
};

/**
 * Metering and the test processor's settlements, on durable timers scheduled in the transaction of
 * the reactor's checkpoint: a session's terminal event with a cost schedules its debit (one timer per
 * session, and the ledger debits a session once); a requested top-up, with a processor that settles
 * by itself, schedules its settlement; a depleted balance back above zero (`credits.replenished`,
 * whatever lifted it: a settled top-up, a grant) releases the tenant's held work in the same
 * transaction, so it goes out at once instead of polling the balance.
 */
export function creditsReactor(
  timers: TimersService,
  settlesAfterMs: number | null,
  holds: DepletedBalanceHolds,
): Processor {
  let scheduled = false;
  return defineReactor<ReactsTo>({
    name: 'credits_reactor',
    edge: sessionEdge
      .only('session.ended', 'session.failed')
      .and(ledgerEdge.only('credits.topup_requested', 'credits.replenished')),
    afterCommit: () => {
      if (scheduled) timers.poke();
      scheduled = false;
    },
    async applyBatch(tx, events: readonly Handled<ReactsTo>[]) {
      const due: ScheduleTimer[] = [];
      const released = new Set<string>();
      for (const event of events) {
        const tenantId = event.metadata.tenant_id;
        // Each type from its own stream only: a session's end from a session's stream, a top-up from a ledger.
        const owner = event.type.startsWith('session.') ? sessionStream : ledgerStream;
        if (!tenantId || !owner.owns(event.streamId)) continue;
        const at = Date.parse(event.metadata.created_at);
        if (event.type === 'credits.replenished') {
          released.add(tenantId);
          continue;
        }
        if (event.type === 'credits.topup_requested') {
          if (settlesAfterMs === null) continue;
          const payload: SettlePayload = { tenant_id: tenantId, topup_id: event.data.topup_id };
          due.push(
            CREDITS_TIMER.settle.at({
              dueAt: new Date(at + settlesAfterMs),
              payload,
              dedupeKey: `credits.settle:${event.data.topup_id}`,
            }),
          );
          continue;
        }
        // Test-mode calls and calls that never connected cost nothing (the session decider's cost).
        if (event.data.actual_cost_cents <= 0) continue;
        const payload: DebitPayload = {
          tenant_id: tenantId,
          session_id: event.data.session_id,
          amount_cents: event.data.actual_cost_cents,
          duration_seconds: event.data.duration_seconds,
        };
        due.push(
          CREDITS_TIMER.debit.at({
            dueAt: new Date(at),
            payload,
            dedupeKey: `credits.debit:${event.data.session_id}`,
          }),
        );
      }
      scheduled = due.length > 0 || released.size > 0;
      await timers.scheduleMany(due, tx);
      for (const tenantId of released) await holds.release(tenantId, tx);
    },
  });
}

/** The work behind the credits timers; each is safe to run twice (the ledger debits and settles once). */
@Injectable()
export class CreditsTimers {
  constructor(
    private readonly timers: TimersService,
    private readonly commands: CommandBus,
    @Inject(PAYMENT_PROCESSOR) private readonly processor: PaymentProcessor | null,
  ) {}

  register(): void {
    this.timers.register(CREDITS_TIMER.debit, (t) => this.debit(t));
    this.timers.register(CREDITS_TIMER.settle, (t) => this.settle(t));
  }

  private async debit(timer: DueTimer<DebitPayload>): Promise<void> {
    const p = timer.payload;
    await this.commands.execute(
      new ChangeLedger(p.tenant_id, {
        type: 'debit',
        sessionId: p.session_id,
        amountCents: p.amount_cents,
        durationSeconds: p.duration_seconds,
      }),
    );
  }

  private async settle(timer: DueTimer<SettlePayload>): Promise<void> {
    const p = timer.payload;
    // Scheduled under the test processor, due after a restart with a real one (or none): it settles
    // nothing; only the processor now configured may.
    if (this.processor?.name !== 'test') {
      new Logger('Credits').warn(`Top-up ${p.topup_id} not settled: the test processor is no longer configured`);
      return;
    }
    await this.commands.execute(new ChangeLedger(p.tenant_id, { type: 'settle_topup', topupId: p.topup_id }));
  }
}
