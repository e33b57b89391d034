import { Global, Inject, Logger, Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { APP_CONFIG, AppConfig, settingsOf } from '../config/config';
import type { BoundedContext } from '../runtime/bounded-context';
import { ProjectionsService } from '../runtime/processing/processors.service';
import { TimersService } from '../runtime/timers/timers.service';
import { BillingHolds } from '../sessions';
import { TenantsModule } from '../tenants';
import { AdminCreditsController, CreditsController } from './api/credits.controller';
import { StripeWebhookController } from './api/stripe-webhook.controller';
import { DepletedBalanceHolds } from './application/credit-holds';
import { creditsReactor, CreditsTimers } from './application/credits-reactor.processor';
import { CreditsQueries } from './application/credits.queries';
import { ChangeLedgerHandler, RequestTopupHandler } from './application/ledger.commands';
import { creditsSettings, paymentProcessorSetting } from './credits.config';
import { creditsEvents, type CreditsPayloads } from './credits.events';
import { creditsMigrations } from './credits.migrations';
import { PAYMENT_PROCESSOR, PaymentProcessor } from './domain/payment-processor';
import { TestPaymentProcessor } from './infra/test-payment-processor';
import { CreditBalanceEntity, CreditTopupEntity } from './projections/credit.entity';
import { creditsProjection } from './projections/credits.projection';
import { ledgerEdge } from './domain/ledger.decider';

/**
 * PAYMENT_PROCESSOR as configured (credits.config.ts, decision 53); null: none, top-ups are refused.
 * The Stripe adapter (and the `stripe` library) is loaded only when it is the one configured (decision 176).
 */
async function paymentProcessorOf(config: AppConfig): Promise<PaymentProcessor | null> {
  const telephony = config.mediaGatewayUrl !== null || config.sipTrunkUri !== null;
  const { stripe, topupSettleDelayMs } = settingsOf(config, creditsSettings);
  const chosen = paymentProcessorSetting(config);
  if (chosen === 'stripe' && stripe)
    return new (await import('./infra/stripe-payment-processor.js')).StripePaymentProcessor(stripe);
  if (chosen === 'test') {
    if (telephony) {
      new Logger('Credits').warn(
        'PAYMENT_PROCESSOR=test with production telephony configured: top-ups settle by themselves, with no payment.',
      );
    }
    return new TestPaymentProcessor(topupSettleDelayMs);
  }
  return null;
}

/**
 * Credits: the prepaid ledger, metering of production calls, warnings and top-ups (docs/credits.md).
 * Global for one export only: sessions' `BillingHolds` port, which sessions and campaigns inject
 * without importing credits (credits listens to the sessions' events itself; decision 100).
 */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([CreditBalanceEntity, CreditTopupEntity]), TenantsModule],
  controllers: [CreditsController, AdminCreditsController, StripeWebhookController],
  providers: [
    CreditsQueries,
    DepletedBalanceHolds,
    { provide: BillingHolds, useExisting: DepletedBalanceHolds },
    ChangeLedgerHandler,
    RequestTopupHandler,
    CreditsTimers,
    {
      provide: PAYMENT_PROCESSOR,
      inject: [APP_CONFIG],
      useFactory: paymentProcessorOf,
    },
  ],
  exports: [BillingHolds],
})
export class CreditsModule implements OnModuleInit {
  static readonly context: BoundedContext<CreditsPayloads> = {
    name: 'credits',
    migrations: creditsMigrations,
    events: creditsEvents,
    edge: ledgerEdge,

    settings: creditsSettings,
  };

  constructor(
    private readonly projections: ProjectionsService,
    private readonly timers: TimersService,
    private readonly creditTimers: CreditsTimers,
    @Inject(PAYMENT_PROCESSOR) private readonly processor: PaymentProcessor | null,
    private readonly holds: DepletedBalanceHolds,
  ) {}

  onModuleInit(): void {
    this.projections.registerProjection(creditsProjection);
    this.projections.registerProcessor(creditsReactor(this.timers, this.processor?.settlesAfterMs ?? null, this.holds));
    this.creditTimers.register();
  }
}
