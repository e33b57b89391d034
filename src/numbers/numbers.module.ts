import { Global, Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { BoundedContext } from '../runtime/bounded-context';
import { ProjectionsService } from '../runtime/processing/processors.service';
import { TimersService } from '../runtime/timers/timers.service';
import { CallerIds, SessionsModule } from '../sessions';
import { TenantsModule } from '../tenants';
import { VoicesModule } from '../voices';
import { AdminPhoneNumbersController } from './api/admin-phone-numbers.controller';
import { InboundCallsController } from './api/inbound-calls.controller';
import { PhoneNumbersController } from './api/phone-numbers.controller';
import { AnswerRateTimers, numbersReactor } from './application/answer-rate-timers';
import { ChangePhoneNumberHandler, ReceiveInboundCallHandler } from './application/numbers.commands';
import { ConfirmNumberVerificationHandler, RequestNumberVerificationHandler } from './application/number-verification';
import { GetNumberOwnerHandler, NumbersQueries } from './application/numbers.queries';
import { NumberOwnedByHandler, NumbersCallerIds } from './application/caller-id.query';
import { VerificationCodes } from './infra/verification-codes';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { numberEvents, type NumberPayloads } from './numbers.events';
import { numbersMigrations } from './numbers.migrations';
import { numbersSettings } from './numbers.config';
import { PhoneNumberEntity } from './projections/phone-number.entity';
import { numbersProjection } from './projections/numbers.projection';
import { answerRateEdge } from './domain/answer-rate';
import { phoneNumberEdge } from './domain/phone-number.decider';
import { tenantVerificationCallsEdge } from './domain/tenant-verification-calls.decider';

/**
 * Inbound phone numbers: registration, verification, inbound calls and the answer-rate alert (docs/numbers.md).
 * Global for one export only: sessions' `CallerIds` port, which `POST /v1/calls` asks whether the
 * tenant owns a production call's caller ID (decision 178).
 */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([PhoneNumberEntity]), TenantsModule, SessionsModule, VoicesModule],
  controllers: [PhoneNumbersController, InboundCallsController, AdminPhoneNumbersController],
  providers: [
    ChangePhoneNumberHandler,
    ReceiveInboundCallHandler,
    RequestNumberVerificationHandler,
    ConfirmNumberVerificationHandler,
    GetNumberOwnerHandler,
    NumberOwnedByHandler,
    NumbersCallerIds,
    { provide: CallerIds, useExisting: NumbersCallerIds },
    NumbersQueries,
    AnswerRateTimers,
    {
      provide: VerificationCodes,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => VerificationCodes.fromConfig(config),
    },
  ],
  exports: [CallerIds],
})
export class NumbersModule implements OnModuleInit {
  static readonly context: BoundedContext<NumberPayloads> = {
    name: 'numbers',
    migrations: numbersMigrations,
    events: numberEvents,
    settings: numbersSettings,

    edge: phoneNumberEdge.and(answerRateEdge).and(tenantVerificationCallsEdge),
  };

  constructor(
    private readonly projections: ProjectionsService,
    private readonly timers: TimersService,
    private readonly answerRate: AnswerRateTimers,
  ) {}

  onModuleInit(): void {
    this.projections.registerProjection(numbersProjection);
    this.projections.registerProcessor(numbersReactor(this.timers));
    this.answerRate.register();
  }
}
