import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../kernel/clock';
import { newResourceId } from '../../kernel/idempotency-context';
import { CommandExecutor } from '../../runtime/commands/command-executor';
import { CURRENCY, LedgerCommand, ledgerDecider, LedgerState, ledgerStream } from '../domain/ledger.decider';
import { PAYMENT_PROCESSOR, PaymentProcessor, PaymentsNotConfigured } from '../domain/payment-processor';

type WithoutTime<C> = C extends { at: string } ? Omit<C, 'at'> : C;

/** A change to the tenant's ledger: grant, debit, threshold, settlement (the time is the clock's). */
export class ChangeLedger extends Command<LedgerState> {
  constructor(
    readonly tenantId: string,
    readonly change: WithoutTime<LedgerCommand>,
    /** Answer only once the read models show it (API requests). */
    readonly readYourWrites = false,
  ) {
    super();
  }
}

/** `POST /v1/credits/topups`: a payment with the processor, then a pending top-up in the ledger. */
export class RequestTopup extends Command<{ topupId: string }> {
  constructor(
    readonly tenantId: string,
    readonly amountCents: number,
  ) {
    super();
  }
}

@CommandHandler(ChangeLedger)
export class ChangeLedgerHandler implements ICommandHandler<ChangeLedger> {
  constructor(
    private readonly executor: CommandExecutor,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ tenantId, change, readYourWrites }: ChangeLedger): Promise<LedgerState> {
    const command = { ...change, at: this.clock.now().toISOString() } as LedgerCommand;
    const result = await this.executor.execute(
      ledgerStream(tenantId),
      ledgerDecider,
      command,
      { tenantId },
      { readYourWrites },
    );
    return result.state;
  }
}

@CommandHandler(RequestTopup)
export class RequestTopupHandler implements ICommandHandler<RequestTopup> {
  constructor(
    private readonly executor: CommandExecutor,
    @Inject(PAYMENT_PROCESSOR) private readonly processor: PaymentProcessor | null,
  ) {}

  async execute({ tenantId, amountCents }: RequestTopup): Promise<{ topupId: string }> {
    // No processor once calls cost real money: nothing but an operator's grant adds credit (decision 53).
    if (!this.processor) throw new PaymentsNotConfigured();
    // Under an Idempotency-Key, a retry names the same top-up, and so the same payment.
    const topupId = newResourceId('top');
    const { intentId } = await this.processor.createIntent({ tenantId, topupId, amountCents, currency: CURRENCY });
    await this.executor.execute(
      ledgerStream(tenantId),
      ledgerDecider,
      { type: 'request_topup', topupId, amountCents, intentId },
      { tenantId },
      { readYourWrites: true },
    );
    return { topupId };
  }
}
