import type { TimerPark } from '../../runtime/timers/timers.service';

/**
 * The port sessions and campaigns ask before they start a tenant's billed work (a production call, a
 * production campaign's dispatch): while a hold is on the tenant, that work waits. Sessions declares
 * it; the credits context provides it (its prepaid balance is depleted) as a global provider, so
 * neither sessions nor campaigns imports credits, which itself listens to the sessions' events. A
 * hold never cancels anything: held work is a timer parked on the hold, which costs nothing while it
 * waits and runs as soon as the provider releases it.
 */
export abstract class BillingHolds {
  /** Whether the tenant's billed work must wait now. */
  abstract isHeld(tenantId: string): Promise<boolean>;

  /**
   * For a timer handler about to start the tenant's billed work: null when no hold is on it (go on),
   * else the outcome that parks the timer, with `payload`, until the hold is lifted or `until`.
   */
  abstract park(tenantId: string, until: Date, payload: object): Promise<{ park: TimerPark } | null>;
}
