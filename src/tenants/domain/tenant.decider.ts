import { conflict, notFound } from '../../kernel/result';
import type { Decider, DomainEvent } from '../../kernel/decider';
import { defineEdge } from '../../kernel/event-edge';
import { streamName } from '../../kernel/stream-name';

export type Plan = 'starter' | 'pro';

export type TenantEvent =
  | DomainEvent<'tenant.created', { tenant_id: string; name: string; email: string | null; plan: Plan }>
  | DomainEvent<'tenant.api_key_issued', { key_prefix: string; key_hash: string }>
  | DomainEvent<'tenant.api_key_revoked', { key_prefix: string }>
  /** Legacy: grants went to the tenant's stream before the credits ledger (src/credits/); no longer emitted. */
  | DomainEvent<'tenant.credit_granted', { amount_cents: number }>
  | DomainEvent<'tenant.suspended', Record<string, never>>
  | DomainEvent<'tenant.reactivated', Record<string, never>>;

export const TENANT_EVENT_TYPES: readonly TenantEvent['type'][] = [
  'tenant.created',
  'tenant.api_key_issued',
  'tenant.api_key_revoked',
  'tenant.credit_granted',
  'tenant.suspended',
  'tenant.reactivated',
];

export type TenantCommand =
  | { type: 'create'; tenantId: string; name: string; email: string | null; plan: Plan; key: IssuedKey }
  | { type: 'issue_key'; key: IssuedKey }
  | { type: 'revoke_key'; keyPrefix: string }
  | { type: 'suspend' }
  | { type: 'reactivate' };

/** Only the prefix and the hash of a key ever reach the store. */
export interface IssuedKey {
  prefix: string;
  hash: string;
}

export type TenantState =
  | { status: 'none' }
  | { status: 'active' | 'suspended'; tenantId: string; plan: Plan; keys: ReadonlyMap<string, 'active' | 'revoked'> };

export const tenantStream = streamName('tenant');

/** Its stored events read back (event-edge.ts): each type's required fields. */
export const tenantEdge = defineEdge<TenantEvent>({
  'tenant.created': { tenant_id: true, name: true, email: true, plan: true },
  'tenant.api_key_issued': { key_prefix: true, key_hash: true },
  'tenant.api_key_revoked': { key_prefix: true },
  'tenant.credit_granted': { amount_cents: true },
  'tenant.suspended': {},
  'tenant.reactivated': {},
});

export const tenantDecider: Decider<TenantCommand, TenantState, TenantEvent> = {
  edge: tenantEdge,
  initialState: () => ({ status: 'none' }),

  evolve(state, event) {
    switch (event.type) {
      case 'tenant.created':
        return { status: 'active', tenantId: event.data.tenant_id, plan: event.data.plan, keys: new Map() };
      case 'tenant.api_key_issued':
      case 'tenant.api_key_revoked': {
        if (state.status === 'none') return state;
        const keys = new Map(state.keys);
        keys.set(event.data.key_prefix, event.type === 'tenant.api_key_issued' ? 'active' : 'revoked');
        return { ...state, keys };
      }
      case 'tenant.suspended':
        return state.status === 'none' ? state : { ...state, status: 'suspended' };
      case 'tenant.reactivated':
        return state.status === 'none' ? state : { ...state, status: 'active' };
      case 'tenant.credit_granted':
        return state;
      default: {
        const unreachable: never = event;
        return unreachable;
      }
    }
  },

  decide(command, state) {
    if (command.type === 'create') {
      if (state.status !== 'none') throw conflict('Tenant already exists.');
      return [
        {
          type: 'tenant.created',
          data: { tenant_id: command.tenantId, name: command.name, email: command.email, plan: command.plan },
        },
        { type: 'tenant.api_key_issued', data: { key_prefix: command.key.prefix, key_hash: command.key.hash } },
      ];
    }
    if (state.status === 'none') throw notFound('tenant', 'tenant_id');
    switch (command.type) {
      case 'issue_key':
        return [
          { type: 'tenant.api_key_issued', data: { key_prefix: command.key.prefix, key_hash: command.key.hash } },
        ];
      case 'revoke_key': {
        const key = state.keys.get(command.keyPrefix);
        if (key === undefined) throw notFound('API key', 'key_prefix');
        return key === 'revoked' ? [] : [{ type: 'tenant.api_key_revoked', data: { key_prefix: command.keyPrefix } }];
      }
      case 'suspend':
        return state.status === 'suspended' ? [] : [{ type: 'tenant.suspended', data: {} }];
      case 'reactivate':
        return state.status === 'active' ? [] : [{ type: 'tenant.reactivated', data: {} }];
      default: {
        const unreachable: never = command;
        return unreachable;
      }
    }
  },
};
