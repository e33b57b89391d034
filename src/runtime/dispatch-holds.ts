import { Injectable } from '@nestjs/common';

/** Says whether a tenant's billed work must wait now (e.g. its prepaid balance is depleted). */
export type DispatchHold = (tenantId: string) => Promise<boolean>;

/**
 * Holds on starting billed work (production calls, campaign dispatches), registered by the contexts
 * that decide them (credits: a depleted balance) and asked by those that start the work (sessions,
 * campaigns), so that neither knows the other. Work that is held waits and is asked about again; a
 * hold never cancels anything.
 */
@Injectable()
export class DispatchHolds {
  private readonly holds = new Map<string, DispatchHold>();

  register(name: string, hold: DispatchHold): void {
    this.holds.set(name, hold);
  }

  /** The name of a hold on the tenant's billed work now, or null when it may start. */
  async heldFor(tenantId: string): Promise<string | null> {
    for (const [name, hold] of this.holds) if (await hold(tenantId)) return name;
    return null;
  }
}
