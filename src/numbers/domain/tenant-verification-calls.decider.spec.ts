import { DeciderSpecification } from '../../../test/support/decider-specification';
import { type TenantVerificationCallsEvent, tenantVerificationCallsDecider } from './tenant-verification-calls.decider';

const spec = DeciderSpecification.for(tenantVerificationCallsDecider);
const T0 = Date.parse('2026-03-01T10:00:00.000Z');
const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();
const counted = (sessionId: string, minutes: number): TenantVerificationCallsEvent => ({
  type: 'number_verification.call_counted',
  data: { session_id: sessionId, at: at(minutes) },
});
const twenty = Array.from({ length: 20 }, (_, i) => counted(`ses_${i}`, i * 10));

describe("tenant's verification calls over all its numbers", () => {
  it('counts up to 20 in 24 hours, then rate_limited; a call leaving the 24 hours frees one', () => {
    spec
      .given(twenty.slice(0, 19))
      .when({ type: 'count', sessionId: 'ses_new', at: at(600) })
      .then(counted('ses_new', 600));
    spec
      .given(twenty)
      .when({ type: 'count', sessionId: 'ses_new', at: at(600) })
      .thenThrows({ code: 'rate_limited', message: /20 verification calls per 24 hours for a tenant/ });
    spec
      .given(twenty)
      .when({ type: 'count', sessionId: 'ses_new', at: at(24 * 60) })
      .then(counted('ses_new', 24 * 60));
  });

  it('a call is counted once by its session; an uncounted one frees its place and is counted again on a retry', () => {
    spec
      .given(twenty.slice(0, 3))
      .when({ type: 'count', sessionId: 'ses_1', at: at(600) })
      .thenNothingHappened();
    const uncounted: TenantVerificationCallsEvent = {
      type: 'number_verification.call_uncounted',
      data: { session_id: 'ses_19' },
    };
    spec.given(twenty).when({ type: 'uncount', sessionId: 'ses_19' }).then(uncounted);
    spec
      .given([...twenty, uncounted])
      .when({ type: 'count', sessionId: 'ses_19', at: at(600) })
      .then(counted('ses_19', 600));
    spec.given(twenty.slice(0, 3)).when({ type: 'uncount', sessionId: 'ses_other' }).thenNothingHappened();
  });
});
