// The world the fuzz addresses, built through the API before the first request: real resources of
// two tenants (webhook endpoints and their deliveries, completed test calls and a recording, phone
// numbers, rooms, events) and a third tenant for the operator routes.

import type { CreatedTenant, TestApp } from '../app';
import { eventually } from '../eventually';
import type { World } from './generator';

/** The id of the first delivery of a tenant's endpoint (its POST /test's), once it is listed. */
export function firstDelivery(t: TestApp, tenant: CreatedTenant, id: string): Promise<string> {
  return eventually(async () => {
    const res = await t.asTenant(tenant.api_key, { method: 'GET', url: `/v1/webhook_endpoints/${id}/deliveries` });
    const data = res.json<{ data: { delivery_id: string }[] }>().data;
    return data[0]?.delivery_id ?? false;
  }, 20_000);
}

export async function buildWorld(t: TestApp): Promise<World> {
  const a = await t.createTenant('Fuzz A');
  const b = await t.createTenant('Fuzz B');
  const target = await t.createTenant('Fuzz Operator Target');
  const endpoint = async (tenant: CreatedTenant) => {
    const res = await t.asTenant(tenant.api_key, {
      method: 'POST',
      url: '/v1/webhook_endpoints',
      payload: { url: 'http://127.0.0.1:9/hooks' },
    });
    expect(res.statusCode).toBe(201);
    return res.json<{ id: string }>().id;
  };
  const call = async (tenant: CreatedTenant) => {
    const res = await t.asTenant(tenant.api_key, {
      method: 'POST',
      url: '/v1/calls',
      payload: { to: '+14155550100', from: '+14155550199', agent_config: { prompt: 'Hi' }, test_mode: true },
    });
    expect(res.statusCode).toBe(201);
    return res.json<{ session_id: string }>().session_id;
  };
  const endpointA = await endpoint(a);
  const disposableEndpoint = await endpoint(a);
  const endpointB = await endpoint(b);
  const deletedEndpoint = await endpoint(a);
  expect(
    (await t.asTenant(a.api_key, { method: 'DELETE', url: `/v1/webhook_endpoints/${deletedEndpoint}` })).statusCode,
  ).toBe(200);
  const sessionA = await call(a);
  const sessionB = await call(b);
  const number = async (tenant: CreatedTenant, phoneNumber: string) => {
    const res = await t.asTenant(tenant.api_key, {
      method: 'POST',
      url: '/v1/phone_numbers',
      payload: { phone_number: phoneNumber, agent_config: { prompt: 'Hi' }, test_mode: true },
    });
    expect(res.statusCode).toBe(201);
    return res.json<{ phone_number_id: string }>().phone_number_id;
  };
  const numberA = await number(a, '+14155550142');
  const disposableNumber = await number(a, '+14155550143');
  const numberB = await number(b, '+14155550144');
  const room = async (tenant: CreatedTenant) => {
    const res = await t.asTenant(tenant.api_key, { method: 'POST', url: '/v1/rooms', payload: {} });
    expect(res.statusCode).toBe(201);
    return res.json<{ room_id: string }>().room_id;
  };
  const roomA = await room(a);
  const roomB = await room(b);
  for (const [tenant, id] of [
    [a, endpointA],
    [b, endpointB],
  ] as const) {
    const res = await t.asTenant(tenant.api_key, { method: 'POST', url: `/v1/webhook_endpoints/${id}/test` });
    expect(res.statusCode).toBe(202);
  }
  const firstEvent = (tenant: CreatedTenant) =>
    eventually(async () => {
      const res = await t.asTenant(tenant.api_key, { method: 'GET', url: '/v1/events?limit=1' });
      return res.json<{ data: { id?: string; event_id?: string }[] }>().data[0]?.id ?? false;
    }, 20_000);
  const recording = await eventually(async () => {
    const res = await t.asTenant(a.api_key, { method: 'GET', url: `/v1/sessions/${sessionA}` });
    const url = res.json<{ recording?: { recording_url?: string | null } | null }>().recording?.recording_url;
    return typeof url === 'string' ? url : false;
  }, 30_000);
  return {
    a,
    b,
    target,
    targetPrefix: target.api_key.split('_').slice(0, 2).join('_'),
    endpointA,
    disposableEndpoint,
    endpointB,
    deletedEndpoint,
    sessionA,
    sessionB,
    numberA,
    disposableNumber,
    numberB,
    roomA,
    roomB,
    recordingFile: new URL(recording).pathname.split('/').pop() ?? '',
    recordingQuery: new Map(new URL(recording).searchParams),
    deliveryA: await firstDelivery(t, a, endpointA),
    deliveryB: await firstDelivery(t, b, endpointB),
    eventA: await firstEvent(a),
    eventB: await firstEvent(b),
    idemKeys: ['fuzz-shared-1', 'fuzz-shared-2', 'fuzz-shared-3'],
  };
}
