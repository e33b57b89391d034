import { Inject, Injectable } from '@nestjs/common';
import { ConversationCapacity } from '../../conversations';
import { CallDialer, type DialResult, type SessionPlacedData } from '../../sessions';
import { CARRIER_BUDGET, type CarrierBudgetPort } from '../domain/carrier-budget.port';
import { PhoneCalls } from './phone-calls';

/** A call held for this instance's capacity asks again this soon (a place frees as any call ends). */
const CAPACITY_RETRY_MS = 1_000;

/**
 * Sessions' `CallDialer` over the SIP trunk: a production call asks this instance for a place among
 * its conversations (conversations' capacity, in line behind the calls that asked first), then the
 * carrier's budget for room (SIP_CPS, SIP_MAX_CALLS), then goes out from this process
 * (phone-calls.ts), which reports it to the session. Without room, the dispatch waits until
 * `retryAt`, the session held `capacity` (this instance is full), `carrier_limit` (the trunk's
 * limits) or `concurrency_limit` (the tenant's TENANT_MAX_CALLS).
 */
@Injectable()
export class SipCallDialer extends CallDialer {
  constructor(
    @Inject(CARRIER_BUDGET) private readonly budget: CarrierBudgetPort,
    private readonly calls: PhoneCalls,
    private readonly capacity: ConversationCapacity,
  ) {
    super();
  }

  async dial(request: SessionPlacedData, tenantId: string): Promise<DialResult> {
    // A dispatch run again (its timer's lease ran out mid-dial): the call is already going out here.
    if (this.calls.holds(request.session_id)) return { placed: true };
    const place = this.capacity.requestInLine(request.session_id);
    if (!place.slot)
      return { placed: false, retryAt: new Date(Date.now() + CAPACITY_RETRY_MS), holdReason: 'capacity' };
    const slot = place.slot;
    const grant = await this.budget.acquire({ sessionId: request.session_id, tenantId }).catch((err: unknown) => {
      slot.release();
      throw err;
    });
    if (!grant.granted) {
      slot.release();
      return { placed: false, retryAt: grant.retryAt, holdReason: grant.reason };
    }
    this.calls.placeOutbound(tenantId, request, slot);
    return { placed: true };
  }
}
