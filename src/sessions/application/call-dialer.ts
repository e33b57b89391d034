import type { DialHoldReason, SessionPlacedRequest } from './session-reactor.processor';

/**
 * What a dialer answers: the call went out, or it waits for room until `retryAt`, held for
 * `holdReason`: the instance's conversations at once (`capacity`), the carrier's budget (`carrier_limit`)
 * or the tenant's calls at once (`concurrency_limit`).
 */
export type DialResult = { placed: true } | { placed: false; retryAt: Date; holdReason: DialHoldReason };

/**
 * The port sessions dispatch a production call through when it is placed over a SIP trunk
 * (SIP_TRUNK_URI set, MEDIA_GATEWAY_URL not): sessions declares it, the telephony context provides
 * it as a global provider (as credits does `BillingHolds`), so sessions never imports telephony,
 * which itself reports the call back as the session's signals. `dial` returns once the INVITE is on
 * its way (the call then lives in the dialling process) or once the carrier's limits said to wait:
 * the dispatch timer then holds the session (`hold_reason: carrier_limit`) and tries again at `retryAt`.
 */
export abstract class CallDialer {
  /** Places the call of `request` (its private prompt already opened), or says when to try again. */
  abstract dial(request: SessionPlacedRequest, tenantId: string): Promise<DialResult>;
}
