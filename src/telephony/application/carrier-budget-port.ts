/**
 * How calls over the trunk ask the carrier's limits (SIP_CPS new calls per second, SIP_MAX_CALLS at
 * once, shared by every instance: docs/telephony.md) for room before they dial, and give it back.
 */
export interface CarrierBudgetPort {
  /** Room for one more call now, or the time to ask again (calls over the limit wait in order). */
  acquire(call: {
    sessionId: string;
    tenantId: string;
  }): Promise<{ granted: true } | { granted: false; retryAt: Date }>;
  /** The call ended, whichever way: its place is free. */
  release(sessionId: string): Promise<void>;
}

export const CARRIER_BUDGET = Symbol('CARRIER_BUDGET');

// MERGE: carrier budget — a stand-in until src/telephony/carrier-budget.ts (the shared budget in
// PostgreSQL) lands on this branch: every call is granted at once. Replace its binding in
// telephony.module.ts and delete this class.
export class AlwaysGrantedBudget implements CarrierBudgetPort {
  acquire(): Promise<{ granted: true }> {
    return Promise.resolve({ granted: true });
  }

  release(): Promise<void> {
    return Promise.resolve();
  }
}
