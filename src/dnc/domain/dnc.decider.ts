import type { Decider, DomainEvent } from '../../kernel/decider';
import { defineEdge } from '../../kernel/event-edge';
import { notFound } from '../../kernel/result';
import { streamName } from '../../kernel/stream-name';

/** A tenant's do-not-call list: one stream per tenant. */
export type DncEvent =
  | DomainEvent<'dnc.number_added', { phone_number: string; source: 'api' | 'opt_out'; session_id: string | null }>
  | DomainEvent<'dnc.number_removed', { phone_number: string }>;

export const DNC_EVENT_TYPES: readonly DncEvent['type'][] = ['dnc.number_added', 'dnc.number_removed'];

export type DncCommand =
  | { type: 'add'; phoneNumber: string; source: 'api' | 'opt_out'; sessionId: string | null }
  | { type: 'remove'; phoneNumber: string };

export type DncState = { numbers: ReadonlySet<string> };

export const dncStream = streamName('dnc');

/** Its stored events read back (event-edge.ts): each type's required fields. */
export const dncEdge = defineEdge<DncEvent>({
  'dnc.number_added': { phone_number: true, source: true, session_id: true },
  'dnc.number_removed': { phone_number: true },
});

export const dncDecider: Decider<DncCommand, DncState, DncEvent> = {
  edge: dncEdge,
  initialState: () => ({ numbers: new Set() }),
  evolve(state, event) {
    const numbers = new Set(state.numbers);
    if (event.type === 'dnc.number_added') numbers.add(event.data.phone_number);
    else numbers.delete(event.data.phone_number);
    return { numbers };
  },
  decide(command, state) {
    switch (command.type) {
      case 'add':
        return state.numbers.has(command.phoneNumber)
          ? []
          : [
              {
                type: 'dnc.number_added',
                data: { phone_number: command.phoneNumber, source: command.source, session_id: command.sessionId },
              },
            ];
      case 'remove':
        if (!state.numbers.has(command.phoneNumber)) throw notFound('number on the do-not-call list', 'phone_number');
        return [{ type: 'dnc.number_removed', data: { phone_number: command.phoneNumber } }];
      default: {
        const unreachable: never = command;
        return unreachable;
      }
    }
  },
};
