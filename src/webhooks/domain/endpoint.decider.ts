import type { Decider, DomainEvent } from '../../kernel/decider';
import { defineEdge } from '../../kernel/event-edge';
import { conflict, notFound } from '../../kernel/result';
import type { WebhookEndpointDisabledNoticeData, WebhookTestData } from '../webhooks.events';
import { streamName } from '../../kernel/stream-name';

/** Endpoint lifecycle. The secret only ever appears sealed (AES-256-GCM) in events and rows. */
export type EndpointEvent =
  | DomainEvent<
      'webhook_endpoint.created',
      {
        endpoint_id: string;
        tenant_id: string;
        url: string;
        events: string[];
        description: string | null;
        secret_sealed: string;
      }
    >
  | DomainEvent<'webhook_endpoint.updated', { url: string; events: string[]; description: string | null }>
  | DomainEvent<'webhook_endpoint.secret_rotated', { secret_sealed: string }>
  | DomainEvent<'webhook_endpoint.deleted', Record<string, never>>
  | DomainEvent<'webhook_endpoint.suspended', { failure_streak: number; last_status: number | null }>
  | DomainEvent<'webhook_endpoint.enabled', Record<string, never>>
  | DomainEvent<'webhook.test', WebhookTestData>
  | DomainEvent<'webhook.endpoint_disabled_notice', WebhookEndpointDisabledNoticeData>;

export const ENDPOINT_EVENT_TYPES: readonly EndpointEvent['type'][] = [
  'webhook_endpoint.created',
  'webhook_endpoint.updated',
  'webhook_endpoint.secret_rotated',
  'webhook_endpoint.deleted',
  'webhook_endpoint.suspended',
  'webhook_endpoint.enabled',
  'webhook.test',
  'webhook.endpoint_disabled_notice',
];

export type EndpointCommand = { tenantId: string } & (
  | {
      type: 'create';
      endpointId: string;
      url: string;
      events: string[];
      description: string | null;
      secretSealed: string;
    }
  | { type: 'update'; url?: string; events?: string[]; description?: string | null }
  | { type: 'rotate_secret'; secretSealed: string }
  | { type: 'delete' }
  | { type: 'send_test'; at: string }
  | { type: 'suspend'; at: string; failureStreak: number; lastStatus: number | null }
  | { type: 'enable' }
);

export type EndpointState =
  | { status: 'none' }
  | {
      status: 'active' | 'suspended' | 'deleted';
      endpointId: string;
      tenantId: string;
      url: string;
      events: string[];
      description: string | null;
    };

export const endpointStream = streamName('webhook_endpoint');

/** Its stored events read back (event-edge.ts): each type's required fields. */
export const endpointEdge = defineEdge<EndpointEvent>({
  'webhook_endpoint.created': {
    endpoint_id: true,
    tenant_id: true,
    url: true,
    events: true,
    description: true,
    secret_sealed: true,
  },
  'webhook_endpoint.updated': { url: true, events: true, description: true },
  'webhook_endpoint.secret_rotated': { secret_sealed: true },
  'webhook_endpoint.deleted': {},
  'webhook_endpoint.suspended': { failure_streak: true, last_status: true },
  'webhook_endpoint.enabled': {},
  'webhook.test': { endpoint_id: true, emitted_at: true },
  'webhook.endpoint_disabled_notice': {
    endpoint_id: true,
    url: true,
    disabled_at: true,
    failure_streak: true,
    last_status: true,
  },
});

export const endpointDecider: Decider<EndpointCommand, EndpointState, EndpointEvent> = {
  edge: endpointEdge,
  initialState: () => ({ status: 'none' }),
  evolve,
  decide,
};

function evolve(state: EndpointState, event: EndpointEvent): EndpointState {
  switch (event.type) {
    case 'webhook_endpoint.created':
      return {
        status: 'active',
        endpointId: event.data.endpoint_id,
        tenantId: event.data.tenant_id,
        url: event.data.url,
        events: event.data.events,
        description: event.data.description,
      };
    case 'webhook_endpoint.updated':
      return state.status === 'none' ? state : { ...state, ...event.data };
    case 'webhook_endpoint.deleted':
      return state.status === 'none' ? state : { ...state, status: 'deleted' };
    case 'webhook_endpoint.suspended':
      return state.status === 'none' ? state : { ...state, status: 'suspended' };
    case 'webhook_endpoint.enabled':
      return state.status === 'none' ? state : { ...state, status: 'active' };
    case 'webhook_endpoint.secret_rotated':
    case 'webhook.test':
    case 'webhook.endpoint_disabled_notice':
      return state;
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}

function decide(command: EndpointCommand, state: EndpointState): EndpointEvent[] {
  if (command.type === 'create') {
    if (state.status !== 'none') throw conflict('Endpoint already exists.');
    return [
      {
        type: 'webhook_endpoint.created',
        data: {
          endpoint_id: command.endpointId,
          tenant_id: command.tenantId,
          url: command.url,
          events: command.events,
          description: command.description,
          secret_sealed: command.secretSealed,
        },
      },
    ];
  }
  // Another tenant's endpoint is indistinguishable from a missing one.
  if (state.status === 'none' || state.status === 'deleted' || state.tenantId !== command.tenantId) {
    throw notFound('webhook endpoint', 'id');
  }
  switch (command.type) {
    case 'update':
      return [
        {
          type: 'webhook_endpoint.updated',
          data: {
            url: command.url ?? state.url,
            events: command.events ?? state.events,
            description: command.description === undefined ? state.description : command.description,
          },
        },
      ];
    case 'rotate_secret':
      return [{ type: 'webhook_endpoint.secret_rotated', data: { secret_sealed: command.secretSealed } }];
    case 'delete':
      return [{ type: 'webhook_endpoint.deleted', data: {} }];
    case 'send_test':
      return [{ type: 'webhook.test', data: { endpoint_id: state.endpointId, emitted_at: command.at } }];
    case 'suspend':
      if (state.status === 'suspended') return [];
      return [
        {
          type: 'webhook_endpoint.suspended',
          data: { failure_streak: command.failureStreak, last_status: command.lastStatus },
        },
        {
          type: 'webhook.endpoint_disabled_notice',
          data: {
            endpoint_id: state.endpointId,
            url: state.url,
            disabled_at: command.at,
            failure_streak: command.failureStreak,
            last_status: command.lastStatus,
          },
        },
      ];
    case 'enable':
      return state.status === 'active' ? [] : [{ type: 'webhook_endpoint.enabled', data: {} }];
    default: {
      const unreachable: never = command;
      return unreachable;
    }
  }
}
