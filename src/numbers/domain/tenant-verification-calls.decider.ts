/**
 * The verification calls a tenant placed over all its numbers, one stream per tenant
 * (`number_verification_calls-ten_…`): at most `VERIFICATION.callsPerTenantPerDay` in 24 hours
 * (decision 68). A call is counted here, by its session id, before the number's stream records it;
 * a call the number's stream then refuses is uncounted.
 */
import type { Decider, DomainEvent } from '../../kernel/decider';
import { defineEdge } from '../../kernel/event-edge';
import { DomainError } from '../../kernel/result';
import { streamName } from '../../kernel/stream-name';
import { VERIFICATION } from './phone-number.decider';

export type TenantVerificationCallsEvent =
  | DomainEvent<'number_verification.call_counted', { session_id: string; at: string }>
  | DomainEvent<'number_verification.call_uncounted', { session_id: string }>;

export type TenantVerificationCallsCommand =
  { type: 'count'; sessionId: string; at: string } | { type: 'uncount'; sessionId: string };

export interface TenantVerificationCallsState {
  /** The last calls counted, oldest first (at most `VERIFICATION.callsPerTenantPerDay`). */
  readonly calls: readonly { readonly sessionId: string; readonly at: string }[];
}

export const tenantVerificationCallsStream = streamName('number_verification_calls');

/** Its stored events read back (event-edge.ts): each type's required fields. */
export const tenantVerificationCallsEdge = defineEdge<TenantVerificationCallsEvent>({
  'number_verification.call_counted': { session_id: true, at: true },
  'number_verification.call_uncounted': { session_id: true },
});

export const tenantVerificationCallsDecider: Decider<
  TenantVerificationCallsCommand,
  TenantVerificationCallsState,
  TenantVerificationCallsEvent
> = {
  edge: tenantVerificationCallsEdge,
  initialState: () => ({ calls: [] }),
  evolve: (state, event) => {
    switch (event.type) {
      case 'number_verification.call_counted':
        return {
          calls: [...state.calls, { sessionId: event.data.session_id, at: event.data.at }].slice(
            -VERIFICATION.callsPerTenantPerDay,
          ),
        };
      case 'number_verification.call_uncounted':
        return { calls: state.calls.filter((c) => c.sessionId !== event.data.session_id) };
      default: {
        const unreachable: never = event;
        return unreachable;
      }
    }
  },
  decide: (command, state) => {
    const counted = state.calls.some((c) => c.sessionId === command.sessionId);
    if (command.type === 'uncount')
      return counted ? [{ type: 'number_verification.call_uncounted', data: { session_id: command.sessionId } }] : [];
    if (counted) return []; // the same call, retried
    const max = VERIFICATION.callsPerTenantPerDay;
    const oldest = state.calls.length >= max ? state.calls.at(-max) : undefined;
    if (oldest !== undefined && Date.parse(command.at) - Date.parse(oldest.at) < VERIFICATION.dayMs)
      throw new DomainError(
        'rate_limited',
        `At most ${max} verification calls per 24 hours for a tenant, over all its numbers; retry later.`,
      );
    return [{ type: 'number_verification.call_counted', data: { session_id: command.sessionId, at: command.at } }];
  },
};
