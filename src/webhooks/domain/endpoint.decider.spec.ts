/** Given/when/then on the webhook endpoint decider (pure); its catalog events validate against the catalog. */
import { EventCatalog } from '../../catalog/event-catalog';
import { webhookEvents } from '../webhooks.events';
import { DeciderSpecification } from '../../../test/support/decider-specification';
import { fold } from '../../kernel/decider';
import { EndpointCommand, endpointDecider, EndpointEvent, endpointStream } from './endpoint.decider';

const { validatePayload } = EventCatalog.from([webhookEvents]);

const T = 'ten_1';
const created: EndpointEvent = {
  type: 'webhook_endpoint.created',
  data: {
    endpoint_id: 'we_1',
    tenant_id: T,
    url: 'https://hooks.example/a',
    events: ['*'],
    description: 'main',
    secret_sealed: 'sealed:v1:abc',
  },
};
const deleted: EndpointEvent = { type: 'webhook_endpoint.deleted', data: {} };
const suspendedAfter10: EndpointEvent = {
  type: 'webhook_endpoint.suspended',
  data: { failure_streak: 10, last_status: 500 },
};

const spec = DeciderSpecification.for(endpointDecider);

describe('webhook endpoint decider', () => {
  it('names the stream', () => {
    expect(endpointStream('we_1')).toBe('webhook_endpoint-we_1');
  });

  it('create → webhook_endpoint.created (the secret only sealed)', () => {
    spec
      .given([])
      .when({
        type: 'create',
        tenantId: T,
        endpointId: 'we_1',
        url: 'https://hooks.example/a',
        events: ['*'],
        description: 'main',
        secretSealed: 'sealed:v1:abc',
      })
      .then([created]);
  });

  it('create twice → conflict', () => {
    spec
      .given([created])
      .when({
        type: 'create',
        tenantId: T,
        endpointId: 'we_1',
        url: 'https://x.example',
        events: ['*'],
        description: null,
        secretSealed: 's',
      })
      .thenThrows('conflict');
  });

  it.each<EndpointCommand>([
    { tenantId: T, type: 'update', url: 'https://b.example' },
    { tenantId: T, type: 'rotate_secret', secretSealed: 's2' },
    { tenantId: T, type: 'delete' },
    { tenantId: T, type: 'send_test', at: '2026-03-02T17:00:00.000Z' },
    { tenantId: T, type: 'suspend', at: '2026-03-02T17:00:00.000Z', failureStreak: 10, lastStatus: 500 },
    { tenantId: T, type: 'enable' },
  ])('$type on a missing endpoint, on another tenant’s one, or on a deleted one → not_found', (command) => {
    spec.given([]).when(command).thenThrows({ code: 'not_found', param: 'id' });
    spec
      .given([created])
      .when({ ...command, tenantId: 'ten_other' })
      .thenThrows('not_found');
    spec.given([created, deleted]).when(command).thenThrows('not_found');
  });

  it('update merges with the current values; description can be cleared with null', () => {
    spec
      .given([created])
      .when({ tenantId: T, type: 'update', events: ['session.*'] })
      .then([
        {
          type: 'webhook_endpoint.updated',
          data: { url: 'https://hooks.example/a', events: ['session.*'], description: 'main' },
        },
      ]);
    spec
      .given([created])
      .when({ tenantId: T, type: 'update', description: null })
      .then([
        {
          type: 'webhook_endpoint.updated',
          data: { url: 'https://hooks.example/a', events: ['*'], description: null },
        },
      ]);
    const after = fold(endpointDecider, [
      created,
      { type: 'webhook_endpoint.updated', data: { url: 'https://c.example', events: ['room.*'], description: null } },
    ]);
    expect(after).toMatchObject({
      url: 'https://c.example',
      events: ['room.*'],
      description: null,
      status: 'active',
    });
  });

  it('rotate_secret → webhook_endpoint.secret_rotated', () => {
    spec
      .given([created])
      .when({ tenantId: T, type: 'rotate_secret', secretSealed: 'sealed:v1:new' })
      .then([{ type: 'webhook_endpoint.secret_rotated', data: { secret_sealed: 'sealed:v1:new' } }]);
  });

  it('delete → webhook_endpoint.deleted and the state is deleted', () => {
    spec.given([created]).when({ tenantId: T, type: 'delete' }).then([deleted]);
    expect(fold(endpointDecider, [created, deleted]).status).toBe('deleted');
  });

  it('send_test → a catalog-valid webhook.test', () => {
    const events: EndpointEvent[] = [
      { type: 'webhook.test', data: { endpoint_id: 'we_1', emitted_at: '2026-03-02T17:00:00.000Z' } },
    ];
    spec.given([created]).when({ tenantId: T, type: 'send_test', at: '2026-03-02T17:00:00.000Z' }).then(events);
    expect(validatePayload('webhook.test', events[0]!.data)).toEqual([]);
  });

  it('suspend → suspended plus a catalog-valid webhook.endpoint_disabled_notice; again → nothing', () => {
    const events: EndpointEvent[] = [
      suspendedAfter10,
      {
        type: 'webhook.endpoint_disabled_notice',
        data: {
          endpoint_id: 'we_1',
          url: 'https://hooks.example/a',
          disabled_at: '2026-03-02T17:00:00.000Z',
          failure_streak: 10,
          last_status: 500,
        },
      },
    ];
    spec
      .given([created])
      .when({ tenantId: T, type: 'suspend', at: '2026-03-02T17:00:00.000Z', failureStreak: 10, lastStatus: 500 })
      .then(events);
    expect(validatePayload('webhook.endpoint_disabled_notice', events[1]!.data)).toEqual([]);
    const nullStatus: EndpointEvent[] = [
      { type: 'webhook_endpoint.suspended', data: { failure_streak: 3, last_status: null } },
      {
        type: 'webhook.endpoint_disabled_notice',
        data: {
          endpoint_id: 'we_1',
          url: 'https://hooks.example/a',
          disabled_at: '2026-03-02T17:00:00.000Z',
          failure_streak: 3,
          last_status: null,
        },
      },
    ];
    spec
      .given([created])
      .when({ tenantId: T, type: 'suspend', at: '2026-03-02T17:00:00.000Z', failureStreak: 3, lastStatus: null })
      .then(nullStatus);
    expect(validatePayload('webhook.endpoint_disabled_notice', nullStatus[1]!.data)).toEqual([]);
    expect(fold(endpointDecider, [created, ...events]).status).toBe('suspended');
    spec
      .given([created, ...events])
      .when({ tenantId: T, type: 'suspend', at: '2026-03-02T17:01:00.000Z', failureStreak: 11, lastStatus: 500 })
      .thenNothingHappened();
  });

  it('enable on a suspended endpoint → enabled; on an active one → nothing', () => {
    spec.given([created]).when({ tenantId: T, type: 'enable' }).thenNothingHappened();
    spec
      .given([created, suspendedAfter10])
      .when({ tenantId: T, type: 'enable' })
      .then([{ type: 'webhook_endpoint.enabled', data: {} }]);
    expect(
      fold(endpointDecider, [created, suspendedAfter10, { type: 'webhook_endpoint.enabled', data: {} }]).status,
    ).toBe('active');
  });
});
