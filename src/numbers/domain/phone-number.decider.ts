/**
 * Who owns a phone number, one stream per number in E.164 form (`phone_number-+14155550100`), so that
 * a number belongs to one tenant at a time whoever registers it concurrently: registering a number
 * that is owned is a 409, for its owner too. A registration has its own id (`pn_…`), under which the
 * owner changes its agent and test mode or releases it; once released, anyone may register it again.
 */
import type { Decider, DomainEvent } from '../../kernel/decider';
import { conflict, notFound } from '../../kernel/result';
import { streamName } from '../../kernel/stream-name';
import type { AgentConfig } from '../../sessions';

export type PhoneNumberEvent =
  | DomainEvent<
      'phone_number.registered',
      {
        phone_number_id: string;
        tenant_id: string;
        phone_number: string;
        agent_config: AgentConfig;
        test_mode: boolean;
      }
    >
  | DomainEvent<'phone_number.updated', { phone_number_id: string; agent_config: AgentConfig; test_mode: boolean }>
  | DomainEvent<'phone_number.released', { phone_number_id: string }>;

export const PHONE_NUMBER_EVENT_TYPES: readonly PhoneNumberEvent['type'][] = [
  'phone_number.registered',
  'phone_number.updated',
  'phone_number.released',
];

export type PhoneNumberCommand =
  | {
      type: 'register';
      phoneNumberId: string;
      tenantId: string;
      phoneNumber: string;
      agentConfig: AgentConfig;
      testMode: boolean;
    }
  | { type: 'update'; phoneNumberId: string; tenantId: string; agentConfig?: AgentConfig; testMode?: boolean }
  | { type: 'release'; phoneNumberId: string; tenantId: string };

export interface OwnedNumber {
  readonly status: 'owned';
  readonly phoneNumberId: string;
  readonly tenantId: string;
  readonly phoneNumber: string;
  readonly agentConfig: AgentConfig;
  readonly testMode: boolean;
}

export type PhoneNumberState = { status: 'free' } | OwnedNumber;

export const phoneNumberStream = streamName('phone_number');

export const phoneNumberDecider: Decider<PhoneNumberCommand, PhoneNumberState, PhoneNumberEvent> = {
  initialState: () => ({ status: 'free' }),
  evolve,
  decide,
};

/** The registration `phoneNumberId` of `tenantId`, or null when the number is free or someone else's. */
export function ownedBy(state: PhoneNumberState, tenantId: string, phoneNumberId?: string): OwnedNumber | null {
  if (state.status !== 'owned' || state.tenantId !== tenantId) return null;
  return phoneNumberId === undefined || state.phoneNumberId === phoneNumberId ? state : null;
}

function evolve(state: PhoneNumberState, event: PhoneNumberEvent): PhoneNumberState {
  switch (event.type) {
    case 'phone_number.registered':
      return {
        status: 'owned',
        phoneNumberId: event.data.phone_number_id,
        tenantId: event.data.tenant_id,
        phoneNumber: event.data.phone_number,
        agentConfig: event.data.agent_config,
        testMode: event.data.test_mode,
      };
    case 'phone_number.updated':
      return state.status === 'owned'
        ? { ...state, agentConfig: event.data.agent_config, testMode: event.data.test_mode }
        : state;
    case 'phone_number.released':
      return { status: 'free' };
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}

function decide(command: PhoneNumberCommand, state: PhoneNumberState): PhoneNumberEvent[] {
  switch (command.type) {
    case 'register':
      if (state.status === 'owned') {
        if (state.phoneNumberId === command.phoneNumberId) return []; // the same registration, retried
        throw conflict(
          state.tenantId === command.tenantId
            ? `${command.phoneNumber} is already registered as ${state.phoneNumberId}.`
            : `${command.phoneNumber} is registered to another account.`,
        );
      }
      return [
        {
          type: 'phone_number.registered',
          data: {
            phone_number_id: command.phoneNumberId,
            tenant_id: command.tenantId,
            phone_number: command.phoneNumber,
            agent_config: command.agentConfig,
            test_mode: command.testMode,
          },
        },
      ];
    case 'update': {
      const owned = ownedBy(state, command.tenantId, command.phoneNumberId);
      if (!owned) throw notFound('phone number', 'phone_number_id');
      const agentConfig = command.agentConfig ?? owned.agentConfig;
      const testMode = command.testMode ?? owned.testMode;
      if (JSON.stringify(agentConfig) === JSON.stringify(owned.agentConfig) && testMode === owned.testMode) return [];
      return [
        {
          type: 'phone_number.updated',
          data: { phone_number_id: owned.phoneNumberId, agent_config: agentConfig, test_mode: testMode },
        },
      ];
    }
    case 'release': {
      const owned = ownedBy(state, command.tenantId, command.phoneNumberId);
      if (!owned) throw notFound('phone number', 'phone_number_id');
      return [{ type: 'phone_number.released', data: { phone_number_id: owned.phoneNumberId } }];
    }
    default: {
      const unreachable: never = command;
      return unreachable;
    }
  }
}
