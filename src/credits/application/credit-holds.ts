import { Injectable } from '@nestjs/common';
import { TimersService, type Queryable, type TimerPark } from '../../runtime/timers/timers.service';
import { BillingHolds } from '../../sessions';
import { CreditsQueries } from './credits.queries';

/**
 * The key a held timer of the tenant is parked on. Unchanged since holds were a runtime registry
 * (`hold:<hold name>:<tenant>`), so timers parked by an earlier version are released too.
 */
const holdKey = (tenantId: string): string => `hold:credits_depleted:${tenantId}`;

/**
 * The hold of a depleted balance (sessions' `BillingHolds` port), and its release when
 * `credits.replenished` commits.
 */
@Injectable()
export class DepletedBalanceHolds extends BillingHolds {
  constructor(
    private readonly timers: TimersService,
    private readonly credits: CreditsQueries,
  ) {
    super();
  }

  async isHeld(tenantId: string): Promise<boolean> {
    return (await this.credits.balance(tenantId)).depleted;
  }

  async park(tenantId: string, until: Date, payload: object): Promise<{ park: TimerPark } | null> {
    if (!(await this.isHeld(tenantId))) return null;
    return { park: { key: holdKey(tenantId), until, payload, stillWaiting: () => this.isHeld(tenantId) } };
  }

  /**
   * The tenant's balance is above zero again: its parked work is due now. Called in the transaction
   * that commits `credits.replenished` (the credits reactor's), which then wakes the timers (`poke`).
   */
  release(tenantId: string, tx: Queryable): Promise<void> {
    return this.timers.release(holdKey(tenantId), tx);
  }
}
