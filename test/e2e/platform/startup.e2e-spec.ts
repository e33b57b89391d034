/**
 * Starting the real service: bad configuration, and the `npm start` default (embedded PostgreSQL
 * under DATA_DIR, generated admin token), including a restart after kill -9 and a clean SIGTERM.
 */
import {
  embeddedPostgresRunning,
  killAllServices,
  makeDataDir,
  postmasterPid,
  processAlive,
  removeDataDir,
  ServiceProcess,
  spawnService,
  startService,
} from '../../support/process';
import { eventually } from '../../support/eventually';

jest.setTimeout(180_000);

describe('startup with bad configuration', () => {
  afterAll(async () => {
    await killAllServices();
  });

  it('exits non-zero at once and names every bad variable on stderr', async () => {
    const svc = await spawnService({
      env: { PORT: 'abc', WEBHOOK_TIMEOUT_MS: '-5', DATABASE_URL: 'postgres://127.0.0.1:1/none' },
    });
    const exit = await svc.waitForExit(15_000);
    expect(exit.code).not.toBe(0);
    expect(exit.code).not.toBeNull();
    expect(svc.stderr()).toContain('PORT');
    expect(svc.stderr()).toContain('WEBHOOK_TIMEOUT_MS');
    // A readable message, not a crash.
    expect(svc.stderr()).not.toMatch(/\n\s+at\s/);
  });

  it.each([
    ['LOG_LEVEL', 'loud'],
    ['DATABASE_URL', 'mysql://localhost/x'],
    ['WEBHOOK_RETRY_SCHEDULE', '5s,soon'],
    ['SIM_TIME_SCALE', '0'],
    ['RECORDING_PURGE_GRACE', 'a week'],
    ['WEBHOOK_ALLOW_PRIVATE_URLS', 'maybe'],
  ])('rejects %s=%p with a message naming it', async (name, value) => {
    const svc = await spawnService({
      env: { [name]: value, ...(name === 'DATABASE_URL' ? {} : { DATABASE_URL: 'postgres://127.0.0.1:1/none' }) },
    });
    const exit = await svc.waitForExit(15_000);
    expect(exit.code).not.toBe(0);
    expect(svc.stderr()).toContain(name);
  });
});

describe('npm start default: embedded PostgreSQL under DATA_DIR', () => {
  let dataDir: string;
  let svc: ServiceProcess | null = null;

  beforeAll(() => {
    dataDir = makeDataDir();
  });
  afterAll(async () => {
    await killAllServices();
    removeDataDir(dataDir);
  });

  /** Without DATABASE_URL and without ADMIN_TOKEN, as a first-time user runs it. */
  const start = async (): Promise<{ svc: ServiceProcess; adminToken: string }> => {
    const s = await startService({
      env: { DATA_DIR: dataDir, ADMIN_TOKEN: '', LOG_LEVEL: 'info' },
      healthTimeoutMs: 90_000,
    });
    // The token is the first line, even with the embedded database's start before it (printed as
    // the service listens: its pipe may deliver it just after /health answered).
    await eventually(() => expect(s.stdout()).toMatch(/^ADMIN_TOKEN=\S+\n/));
    const match = /^ADMIN_TOKEN=(\S+)\n/.exec(s.stdout());
    expect(match).not.toBeNull();
    return { svc: s, adminToken: match![1]! };
  };

  it('initialises the database, serves /health, /ready, /openapi.json and /docs', async () => {
    const started = await start();
    svc = started.svc;
    expect(postmasterPid(dataDir)).not.toBeNull();

    const health = await svc.fetch('/health');
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });

    const ready = await svc.fetch('/ready');
    expect(ready.status).toBe(200);
    const readyBody = (await ready.json()) as {
      status: string;
      checks: { database: { status: string; kind: string } };
    };
    expect(readyBody.status).toBe('ok');
    expect(readyBody.checks.database).toEqual({ status: 'ok', kind: 'embedded' });

    const openapi = await svc.fetch('/openapi.json');
    expect(openapi.status).toBe(200);
    const doc = (await openapi.json()) as {
      openapi: string;
      webhooks?: Record<string, unknown>;
      paths: Record<string, unknown>;
    };
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.webhooks ?? {}).length).toBeGreaterThan(0);
    expect(doc.webhooks).toHaveProperty(['session.ended']);
    expect(doc.paths).toHaveProperty(['/admin/v1/tenants']);

    const docs = await svc.fetch('/docs');
    expect(docs.status).toBe(200);
    expect(docs.headers.get('content-type')).toMatch(/text\/html/);
    expect(await docs.text()).toMatch(/<html/i);
  });

  it('prints a generated admin token that works on the operator API', async () => {
    const adminToken = /^ADMIN_TOKEN=(\S+)$/m.exec(svc!.stdout())![1]!;
    const res = await svc!.fetch('/admin/v1/tenants', {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}` },
      body: JSON.stringify({ name: 'Embedded Co' }),
    });
    expect(res.status).toBe(201);
  });

  it('stops the embedded PostgreSQL on SIGTERM and exits 0', async () => {
    const pid = postmasterPid(dataDir);
    expect(pid).not.toBeNull();
    svc!.kill('SIGTERM');
    const exit = await svc!.waitForExit(15_000);
    expect({ exit, stderr: svc!.stderr() }).toEqual({ exit: { code: 0, signal: null }, stderr: '' });
    await eventually(() => expect(postmasterPid(dataDir)).toBeNull(), 15_000);
    expect(processAlive(pid!)).toBe(false);
    expect(embeddedPostgresRunning(dataDir)).toBe(false);
  });

  it('after a kill -9, a second start reuses the still-running server and keeps the data', async () => {
    const first = await start();
    const created = await first.svc.fetch('/admin/v1/tenants', {
      method: 'POST',
      headers: { authorization: `Bearer ${first.adminToken}` },
      body: JSON.stringify({ name: 'Survivor Co' }),
    });
    expect(created.status).toBe(201);
    const { api_key: apiKey } = (await created.json()) as { api_key: string };

    const pgPid = postmasterPid(dataDir);
    expect(pgPid).not.toBeNull();
    first.svc.kill('SIGKILL');
    await first.svc.waitForExit(10_000);
    // pg_ctl started it detached: it outlives the service.
    expect(processAlive(pgPid!)).toBe(true);
    expect(embeddedPostgresRunning(dataDir)).toBe(true);

    const second = await start();
    svc = second.svc;
    expect(postmasterPid(dataDir)).toBe(pgPid);
    const health = await svc.fetch('/health');
    expect(await health.json()).toEqual({ status: 'ok' });
    expect((await svc.fetch('/v1/events', { apiKey })).status).toBe(200);

    svc.kill('SIGTERM');
    const exit = await svc.waitForExit(15_000);
    expect(exit).toEqual({ code: 0, signal: null });
    await eventually(() => expect(embeddedPostgresRunning(dataDir)).toBe(false), 15_000);
    expect(processAlive(pgPid!)).toBe(false);
    expect(postmasterPid(dataDir)).toBeNull();
  });
});
