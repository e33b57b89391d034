import { Inject, Injectable } from '@nestjs/common';
import { CallDialer, type DialResult, type SessionPlacedData } from '../../sessions';
import { CARRIER_BUDGET, type CarrierBudgetPort } from '../domain/carrier-budget.port';
import { PhoneCalls } from './phone-calls';

/**
 * Sessions' `CallDialer` over the SIP trunk: a production call asks the carrier's budget for room
 * (SIP_CPS, SIP_MAX_CALLS), then goes out from this process (phone-calls.ts), which reports it to
 * the session. Without room, the dispatch waits until `retryAt`, the session held `carrier_limit` (the
 * trunk's limits) or `concurrency_limit` (the tenant's TENANT_MAX_CALLS).
 */
@Injectable()
export class SipCallDialer extends CallDialer {
  constructor(
    @Inject(CARRIER_BUDGET) private readonly budget: CarrierBudgetPort,
    private readonly calls: PhoneCalls,
  ) {
    super();
  }

  async dial(request: SessionPlacedData, tenantId: string): Promise<DialResult> {
    // A dispatch run again (its timer's lease ran out mid-dial): the call is already going out here.
    if (this.calls.holds(request.session_id)) return { placed: true };
    const grant = await this.budget.acquire({ sessionId: request.session_id, tenantId });
    if (!grant.granted) return { placed: false, retryAt: grant.retryAt, holdReason: grant.reason };
    this.calls.placeOutbound(tenantId, request);
    return { placed: true };
  }
}
