import { Injectable } from '@nestjs/common';
import { TimersService, type Queryable, type TimerPark } from './timers.service';

/** Says whether a tenant's billed work must wait now (e.g. its prepaid balance is depleted). */
export type DispatchHold = (tenantId: string) => Promise<boolean>;

/** The key a timer held by `hold` for the tenant is parked on. */
const parkKey = (hold: string, tenantId: string): string => `hold:${hold}:${tenantId}`;

/**
 * Holds on starting billed work (production calls, campaign dispatches), registered by the contexts
 * that decide them (credits: a depleted balance) and asked by those that start the work (sessions,
 * campaigns), so that neither knows the other. A hold never cancels anything: held work is a timer
 * parked on the hold (`park`), which costs nothing while it waits, and the context that lifts the
 * hold releases it (`release`, in the transaction of the event that lifts it), so it goes out at once.
 */
@Injectable()
export class DispatchHolds {
  private readonly holds = new Map<string, DispatchHold>();

  constructor(private readonly timers: TimersService) {}

  register(name: string, hold: DispatchHold): void {
    this.holds.set(name, hold);
  }

  /** The name of a hold on the tenant's billed work now, or null when it may start. */
  async heldFor(tenantId: string): Promise<string | null> {
    for (const [name, hold] of this.holds) if (await hold(tenantId)) return name;
    return null;
  }

  /**
   * For a timer handler about to start the tenant's billed work: null when no hold is on it (go on),
   * else the outcome that parks the timer, with `payload`, until the hold is released or `until`.
   */
  async park(tenantId: string, until: Date, payload: object): Promise<{ park: TimerPark } | null> {
    const name = await this.heldFor(tenantId);
    const hold = name === null ? undefined : this.holds.get(name);
    if (name === null || !hold) return null;
    return { park: { key: parkKey(name, tenantId), until, payload, stillWaiting: () => hold(tenantId) } };
  }

  /**
   * The hold `name` on the tenant is lifted: its parked work is due now. Called in the transaction
   * that commits the lift (a reactor's), which then wakes the timers (`TimersService.poke`).
   */
  release(name: string, tenantId: string, tx: Queryable): Promise<void> {
    return this.timers.release(parkKey(name, tenantId), tx);
  }
}
