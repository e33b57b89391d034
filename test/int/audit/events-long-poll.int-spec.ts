/**
 * GET /v1/events?wait= across two instances on one database: a request held by one instance is woken
 * by an event placed through the other, whichever instance's processors project it (the audit
 * projection's own wake-up, or the log observer's once this instance has seen the checkpoint pass).
 */
import { startTestApp, type TestApp } from '../../support/app';

jest.setTimeout(60_000);

describe('long polling on the events feed, two instances', () => {
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    a = await startTestApp({ env: { SIM_TIME_SCALE: '0.01' } });
    b = await startTestApp({ database: a.db, adminToken: a.adminToken, env: { SIM_TIME_SCALE: '0.01' } });
  });

  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('a request held by one instance is answered when the other commits an event', async () => {
    const tenant = await a.createTenant('Two Instances');
    for (let round = 0; round < 3; round++) {
      const tail = await b.asTenant(tenant.api_key, { method: 'GET', url: '/v1/events?order=desc&limit=1' });
      const after = tail.json<{ data: { id: string }[] }>().data[0]?.id;
      const held = b.asTenant(tenant.api_key, {
        method: 'GET',
        url: `/v1/events?wait=20${after ? `&after=${after}` : ''}`,
      });
      await new Promise((resolve) => setTimeout(resolve, 200));
      const placedAt = Date.now();
      const placed = await a.asTenant(tenant.api_key, {
        method: 'POST',
        url: '/v1/calls',
        payload: { to: '+14155550101', from: '+14155550199', agent_config: { prompt: 'x' }, test_mode: true },
      });
      expect(placed.statusCode).toBe(201);
      const res = await held;
      expect(res.statusCode).toBe(200);
      const body = res.json<{ data: { type: string; data: { session_id: string } }[] }>();
      expect(body.data[0]).toMatchObject({
        type: 'session.created',
        data: { session_id: placed.json<{ session_id: string }>().session_id },
      });
      expect(Date.now() - placedAt).toBeLessThan(3000);
      // Let the call finish, so the next round starts from a quiet feed.
      await new Promise((resolve) => setTimeout(resolve, 1500));
    }
  });
});
