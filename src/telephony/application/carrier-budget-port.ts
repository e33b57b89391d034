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
  /** An inbound call held here: watched like an outbound one (a dead process ends it), not counted. */
  track(call: { sessionId: string; tenantId: string }): Promise<void>;
  /** Calls of this process that the watchdog ended (it froze past its lease): hang them up. */
  onSlotLost(listener: (sessionId: string) => void): () => void;
}

export const CARRIER_BUDGET = Symbol('CARRIER_BUDGET');
