/**
 * How calls over the trunk ask the carrier's limits (SIP_CPS new calls per second, SIP_MAX_CALLS at
 * once, both shared by every instance: docs/telephony.md) and the tenant's (TENANT_MAX_CALLS at once)
 * for room before they dial or are answered, and give it back.
 */
export type BudgetAnswer =
  | { granted: true }
  /** `reason`: the trunk's limits are full (`carrier_limit`), or the tenant's (`concurrency_limit`). */
  | { granted: false; retryAt: Date; reason: 'carrier_limit' | 'concurrency_limit' };

/** An inbound call is taken, or refused: the trunk is full (503) or the tenant is (486). */
export type InboundAdmission = { admitted: true } | { admitted: false; limit: 'trunk' | 'tenant' };

export interface CarrierBudgetPort {
  /** Room for one more outbound call now, or the time to ask again (calls over the limit wait in order). */
  acquire(call: { sessionId: string; tenantId: string }): Promise<BudgetAnswer>;
  /** The call ended, whichever way: its place is free. */
  release(sessionId: string): Promise<void>;
  /**
   * An inbound call to be answered here: counted against SIP_MAX_CALLS and TENANT_MAX_CALLS (refused
   * when over either), and watched like an outbound one (a dead process ends it). Idempotent.
   */
  admitInbound(call: { sessionId: string; tenantId: string }): Promise<InboundAdmission>;
  /** Calls of this process that the watchdog ended (it froze past its lease): hang them up. */
  onSlotLost(listener: (sessionId: string) => void): () => void;
}

export const CARRIER_BUDGET = Symbol('CARRIER_BUDGET');
