/**
 * What `npm start` prints first (node dist/main.js at the default LOG_LEVEL=info): plain lines with
 * the admin token, the API, /docs and /dashboard addresses and a warning for
 * WEBHOOK_ALLOW_PRIVATE_URLS, then JSON logs, without Nest's per-module and per-route lines.
 */
import { createTestDatabase, TestDatabase } from '../../support/database';
import { killAllServices, ServiceProcess, startService } from '../../support/process';

jest.setTimeout(120_000);

/** Stops the service with SIGTERM and returns everything it printed on stdout. */
async function outputOf(svc: ServiceProcess): Promise<string[]> {
  svc.kill('SIGTERM');
  expect(await svc.waitForExit(15_000)).toEqual({ code: 0, signal: null });
  return svc
    .stdout()
    .split('\n')
    .filter((line) => line !== '');
}

describe('the start banner', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase({ migrate: false });
  });
  afterAll(async () => {
    await killAllServices();
    await db?.drop();
  });

  it('comes first: the generated token, the API, /docs and /dashboard; then a few JSON lines at info', async () => {
    const svc = await startService({ env: { DATABASE_URL: db.url, ADMIN_TOKEN: '', LOG_LEVEL: 'info' } });
    const at = svc.baseUrl;
    expect((await svc.fetch('/docs')).status).toBe(200);
    const lines = await outputOf(svc);

    expect(lines[0]).toMatch(/^ADMIN_TOKEN=adm_[A-Za-z0-9_-]{32}$/);
    expect(lines.slice(1, 5)).toEqual([
      expect.stringContaining('set ADMIN_TOKEN'),
      `API        ${at}`,
      `API docs   ${at}/docs`,
      `Dashboard  ${at}/dashboard`,
    ]);
    expect(lines.join('\n')).not.toContain('WEBHOOK_ALLOW_PRIVATE_URLS');
    const json = lines.filter((line) => line.startsWith('{'));
    expect(lines.indexOf(json[0]!)).toBe(6);
    // Quiet at info: no line per module or route, only a handful in all (listening, draining, stopped…).
    expect(json.join('\n')).not.toMatch(/Mapped \{|InstanceLoader|RoutesResolver|dependencies initialized/);
    expect(json.length).toBeLessThanOrEqual(8);
    expect(json.map((line) => (JSON.parse(line) as { msg: string }).msg)).toContain(`listening on ${at}`);
  });

  it('warns when WEBHOOK_ALLOW_PRIVATE_URLS is on, and never echoes a token set in the environment', async () => {
    const svc = await startService({
      env: { DATABASE_URL: db.url, LOG_LEVEL: 'info', WEBHOOK_ALLOW_PRIVATE_URLS: 'true' },
    });
    const lines = await outputOf(svc);
    expect(lines[0]).toBe('ADMIN_TOKEN is set from the environment (not printed)');
    expect(lines.join('\n')).not.toContain(svc.adminToken);
    const warning = lines.findIndex((line) => line.startsWith('WARNING: WEBHOOK_ALLOW_PRIVATE_URLS is on'));
    expect(warning).toBeGreaterThan(0);
    expect(warning).toBeLessThan(lines.findIndex((line) => line.startsWith('{')));
  });

  it('keeps Nest route mappings at debug: LOG_LEVEL=debug shows them', async () => {
    const svc = await startService({ env: { DATABASE_URL: db.url, LOG_LEVEL: 'debug' } });
    const lines = await outputOf(svc);
    expect(lines.filter((line) => line.includes('Mapped {')).length).toBeGreaterThan(50);
  });
});
