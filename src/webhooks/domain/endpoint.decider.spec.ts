/** Given/when/then on the webhook endpoint decider (pure); its catalog events validate against the catalog. */
import { EventCatalog } from '../../catalog/event-catalog';
import { webhookEvents } from '../webhooks.events';
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

function given(...events: EndpointEvent[]) {
  const state = fold(endpointDecider, events);
  return { state, when: (command: EndpointCommand) => endpointDecider.decide(command, state) };
}

describe('webhook endpoint decider', () => {
  it('names the stream', () => {
    expect(endpointStream('we_1')).toBe('webhook_endpoint-we_1');
  });

  it('create → webhook_endpoint.created (the secret only sealed)', () => {
    const events = given().when({
      type: 'create',
      tenantId: T,
      endpointId: 'we_1',
      url: 'https://hooks.example/a',
      events: ['*'],
      description: 'main',
      secretSealed: 'sealed:v1:abc',
    });
    expect(events).toEqual([created]);
  });

  it('create twice → conflict', () => {
    expect(() =>
      given(created).when({
        type: 'create',
        tenantId: T,
        endpointId: 'we_1',
        url: 'https://x.example',
        events: ['*'],
        description: null,
        secretSealed: 's',
      }),
    ).toThrow(expect.objectContaining({ code: 'conflict' }));
  });

  it.each<EndpointCommand>([
    { tenantId: T, type: 'update', url: 'https://b.example' },
    { tenantId: T, type: 'rotate_secret', secretSealed: 's2' },
    { tenantId: T, type: 'delete' },
    { tenantId: T, type: 'send_test', at: '2026-03-02T17:00:00.000Z' },
    { tenantId: T, type: 'suspend', at: '2026-03-02T17:00:00.000Z', failureStreak: 10, lastStatus: 500 },
    { tenantId: T, type: 'enable' },
  ])('$type on a missing endpoint, on another tenant’s one, or on a deleted one → not_found', (command) => {
    expect(() => given().when(command)).toThrow(expect.objectContaining({ code: 'not_found', param: 'id' }));
    expect(() => given(created).when({ ...command, tenantId: 'ten_other' })).toThrow(
      expect.objectContaining({ code: 'not_found' }),
    );
    expect(() => given(created, { type: 'webhook_endpoint.deleted', data: {} }).when(command)).toThrow(
      expect.objectContaining({ code: 'not_found' }),
    );
  });

  it('update merges with the current values; description can be cleared with null', () => {
    const g = given(created);
    expect(g.when({ tenantId: T, type: 'update', events: ['session.*'] })).toEqual([
      {
        type: 'webhook_endpoint.updated',
        data: { url: 'https://hooks.example/a', events: ['session.*'], description: 'main' },
      },
    ]);
    expect(g.when({ tenantId: T, type: 'update', description: null })).toEqual([
      { type: 'webhook_endpoint.updated', data: { url: 'https://hooks.example/a', events: ['*'], description: null } },
    ]);
    const after = given(created, {
      type: 'webhook_endpoint.updated',
      data: { url: 'https://c.example', events: ['room.*'], description: null },
    });
    expect(after.state).toMatchObject({
      url: 'https://c.example',
      events: ['room.*'],
      description: null,
      status: 'active',
    });
  });

  it('rotate_secret → webhook_endpoint.secret_rotated', () => {
    expect(given(created).when({ tenantId: T, type: 'rotate_secret', secretSealed: 'sealed:v1:new' })).toEqual([
      { type: 'webhook_endpoint.secret_rotated', data: { secret_sealed: 'sealed:v1:new' } },
    ]);
  });

  it('delete → webhook_endpoint.deleted and the state is deleted', () => {
    expect(given(created).when({ tenantId: T, type: 'delete' })).toEqual([
      { type: 'webhook_endpoint.deleted', data: {} },
    ]);
    expect(given(created, { type: 'webhook_endpoint.deleted', data: {} }).state.status).toBe('deleted');
  });

  it('send_test → a catalog-valid webhook.test', () => {
    const events = given(created).when({ tenantId: T, type: 'send_test', at: '2026-03-02T17:00:00.000Z' });
    expect(events).toEqual([
      { type: 'webhook.test', data: { endpoint_id: 'we_1', emitted_at: '2026-03-02T17:00:00.000Z' } },
    ]);
    expect(validatePayload('webhook.test', events[0]!.data)).toEqual([]);
  });

  it('suspend → suspended plus a catalog-valid webhook.endpoint_disabled_notice; again → nothing', () => {
    const events = given(created).when({
      tenantId: T,
      type: 'suspend',
      at: '2026-03-02T17:00:00.000Z',
      failureStreak: 10,
      lastStatus: 500,
    });
    expect(events).toEqual([
      { type: 'webhook_endpoint.suspended', data: { failure_streak: 10, last_status: 500 } },
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
    ]);
    expect(validatePayload('webhook.endpoint_disabled_notice', events[1]!.data)).toEqual([]);
    const nullStatus = given(created).when({
      tenantId: T,
      type: 'suspend',
      at: '2026-03-02T17:00:00.000Z',
      failureStreak: 3,
      lastStatus: null,
    });
    expect(validatePayload('webhook.endpoint_disabled_notice', nullStatus[1]!.data)).toEqual([]);
    const suspended = given(created, events[0]!, events[1]!);
    expect(suspended.state.status).toBe('suspended');
    expect(
      suspended.when({
        tenantId: T,
        type: 'suspend',
        at: '2026-03-02T17:01:00.000Z',
        failureStreak: 11,
        lastStatus: 500,
      }),
    ).toEqual([]);
  });

  it('enable on a suspended endpoint → enabled; on an active one → nothing', () => {
    expect(given(created).when({ tenantId: T, type: 'enable' })).toEqual([]);
    const suspended = given(created, {
      type: 'webhook_endpoint.suspended',
      data: { failure_streak: 10, last_status: 500 },
    });
    expect(suspended.when({ tenantId: T, type: 'enable' })).toEqual([{ type: 'webhook_endpoint.enabled', data: {} }]);
    expect(
      given(
        created,
        { type: 'webhook_endpoint.suspended', data: { failure_streak: 10, last_status: 500 } },
        { type: 'webhook_endpoint.enabled', data: {} },
      ).state.status,
    ).toBe('active');
  });
});
