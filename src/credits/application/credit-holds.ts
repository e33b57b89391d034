import { Injectable } from '@nestjs/common';
import { TimersService, type Queryable, type TimerPark } from '../../runtime/timers/timers.service';
import { CreditsQueries } from './credits.queries';

/**
 * The port other contexts ask before they start a tenant's billed work (a production call, a
 * production campaign's dispatch): while the tenant's prepaid balance is depleted, that work waits.
 * Sessions and campaigns see only this (through src/credits/index.ts); credits decides the hold and
 * lifts it. A hold never cancels anything: held work is a timer parked on the hold, which costs
 * nothing while it waits and runs as soon as credits releases it.
 */
export abstract class CreditHolds {
  /** Whether the tenant's billed work must wait now (its balance is depleted). */
  abstract isHeld(tenantId: string): Promise<boolean>;

  /**
   * For a timer handler about to start the tenant's billed work: null when no hold is on it (go on),
   * else the outcome that parks the timer, with `payload`, until the hold is lifted or `until`.
   */
  abstract park(tenantId: string, until: Date, payload: object): Promise<{ park: TimerPark } | null>;
}

/**
 * The key a held timer of the tenant is parked on. Unchanged since holds were a runtime registry
 * (`hold:<hold name>:<tenant>`), so timers parked by an earlier version are released too.
 */
const holdKey = (tenantId: string): string => `hold:credits_depleted:${tenantId}`;

/** The hold of a depleted balance, and its release when `credits.replenished` commits. */
@Injectable()
export class DepletedBalanceHolds extends CreditHolds {
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
