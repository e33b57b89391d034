import { createServer, Server } from 'node:http';
import { eventually } from '../../support/eventually';
import { startTestApp, TestApp } from '../../support/app';

/** GET /metrics: Prometheus text with the delivery metrics of issue 3, fed by real deliveries. */
describe('GET /metrics', () => {
  let t: TestApp;
  let receiver: Server;
  let port = 0;

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(req.url === '/fail' ? 400 : 200).end());
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const address = receiver.address();
    port = typeof address === 'object' && address ? address.port : 0;
    t = await startTestApp({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_SUSPEND_AFTER: '1' } });
  });

  afterAll(async () => {
    await t.close();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  });

  it('counts attempts by outcome, times them, and reports pending age and suspended endpoints', async () => {
    const tenant = await t.createTenant('metrics');
    const create = async (path: string): Promise<string> => {
      const res = await t.asTenant(tenant.api_key, {
        method: 'POST',
        url: '/v1/webhook_endpoints',
        payload: { url: `http://127.0.0.1:${port}${path}` },
      });
      expect(res.statusCode).toBe(201);
      return res.json<{ id: string }>().id;
    };
    const ok = await create('/ok');
    const failing = await create('/fail');
    for (const id of [ok, failing]) {
      const res = await t.asTenant(tenant.api_key, { method: 'POST', url: `/v1/webhook_endpoints/${id}/test` });
      expect(res.statusCode).toBe(202);
    }

    const scrape = async (): Promise<string> => {
      const res = await t.admin({ method: 'GET', url: '/metrics' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/plain');
      return res.body;
    };
    const value = (text: string, series: string): number => {
      const line = text.split('\n').find((l) => l.startsWith(`${series} `));
      return line ? Number(line.slice(series.length + 1)) : NaN;
    };

    await eventually(async () => {
      const text = await scrape();
      expect(value(text, 'webhook_delivery_attempts_total{outcome="succeeded"}')).toBeGreaterThanOrEqual(1);
      expect(value(text, 'webhook_delivery_attempts_total{outcome="fail"}')).toBeGreaterThanOrEqual(1);
      // The 400 with WEBHOOK_SUSPEND_AFTER=1 suspends the failing endpoint.
      expect(value(text, 'webhook_suspended_endpoints')).toBe(1);
    }, 15_000);
    const text = await scrape();
    expect(value(text, 'webhook_attempt_duration_seconds_count')).toBeGreaterThanOrEqual(2);
    expect(value(text, 'webhook_oldest_pending_age_seconds')).toBeGreaterThanOrEqual(0);
    expect(text).toContain('# TYPE webhook_deliveries gauge');
  });

  it('is for the operator: no bearer, or a tenant key, gets a 401', async () => {
    const tenant = await t.createTenant('metrics snooper');
    expect((await t.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
    expect((await t.asTenant(tenant.api_key, { method: 'GET', url: '/metrics' })).statusCode).toBe(401);
  });
});
