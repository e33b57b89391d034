import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BillingHolds } from '../sessions';
import { DepletedBalanceHolds } from './application/credit-holds';
import { CreditsQueries } from './application/credits.queries';
import { CreditBalanceEntity, CreditTopupEntity } from './projections/credit.entity';

/**
 * Credits provides sessions' `BillingHolds` port to the whole application (a global module, imported
 * by CreditsModule): sessions and campaigns inject the port and never import credits, which listens
 * to the sessions' events itself (decision 100).
 */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([CreditBalanceEntity, CreditTopupEntity])],
  providers: [CreditsQueries, DepletedBalanceHolds, { provide: BillingHolds, useExisting: DepletedBalanceHolds }],
  exports: [CreditsQueries, DepletedBalanceHolds, BillingHolds],
})
export class CreditHoldsModule {}
