import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CreditHolds, DepletedBalanceHolds } from './application/credit-holds';
import { CreditsQueries } from './application/credits.queries';
import { CreditBalanceEntity, CreditTopupEntity } from './projections/credit.entity';

/**
 * What other contexts import of credits (sessions, campaigns): the holds on billed work (`CreditHolds`).
 * Apart from CreditsModule because credits itself reacts to the sessions' events: a module that
 * sessions imports must not lead back to sessions (dependency-cruiser's `no-circular`).
 */
@Module({
  imports: [TypeOrmModule.forFeature([CreditBalanceEntity, CreditTopupEntity])],
  providers: [CreditsQueries, DepletedBalanceHolds, { provide: CreditHolds, useExisting: DepletedBalanceHolds }],
  exports: [CreditsQueries, DepletedBalanceHolds, CreditHolds],
})
export class CreditHoldsModule {}
