/**
 * `vap listen` (clients/node/dist/cjs/cli.js, built by `npm run build`) as a child process against the
 * real service and a local receiver: every event of a test call arrives, in order, verifiable with the
 * printed secret; stopped and started again it loses and duplicates nothing; while the local server
 * is down it retries, says so, and moves on. Each API key and target gets its own secret, stored
 * under a hash, in a folder and a file only the user can read, whatever their modes were before.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { webhooks } from '../../../clients/node/src/index';
import type { WebhookEvent } from '../../../clients/node/src/index';
import { allEvents, placeCall, type CallsService, startCallsService, sessionEvents } from '../../support/calls-harness';
import { eventually } from '../../support/eventually';
import { REPO_ROOT } from '../../support/process';
import { createTenant, type TenantInfo } from '../../support/webhooks-harness';

jest.setTimeout(120_000);

const CLI = join(REPO_ROOT, 'clients', 'node', 'dist', 'cjs', 'cli.js');

interface Listener {
  child: ChildProcess;
  output: () => string;
  secret: string;
  stop(): Promise<number | null>;
}

async function startListen(
  service: CallsService,
  apiKey: string,
  configHome: string,
  args: string[],
): Promise<Listener> {
  const child = spawn(process.execPath, [CLI, 'listen', ...args], {
    env: {
      ...process.env,
      VOICE_AGENT_API_KEY: apiKey,
      VOICE_AGENT_BASE_URL: service.svc.baseUrl,
      XDG_CONFIG_HOME: configHome,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (c: Buffer) => (out += c.toString('utf8')));
  child.stderr?.on('data', (c: Buffer) => (out += c.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await eventually(() => /Ready/.test(out) || (child.exitCode !== null && Promise.reject(new Error(out))), 20_000);
  const secret = /Signing secret: (whsec_\S+)/.exec(out)?.[1];
  if (!secret) throw new Error(`no secret printed:\n${out}`);
  return {
    child,
    output: () => out,
    secret,
    async stop() {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

interface Received {
  rawBody: Buffer;
  headers: Record<string, string | string[] | undefined>;
}

async function startLocalServer(
  port = 0,
): Promise<{ url: string; port: number; got: Received[]; close(): Promise<void> }> {
  const got: Received[] = [];
  const server: Server = createServer((req, res) => {
    void webhooks.rawBody(req).then((rawBody) => {
      got.push({ rawBody, headers: req.headers });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const actual = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${actual}/webhooks`,
    port: actual,
    got,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('vap listen', () => {
  let service: CallsService;
  let tenant: TenantInfo;
  let configHome: string;

  beforeAll(async () => {
    service = await startCallsService({ SIM_TIME_SCALE: '0.01' });
    tenant = await createTenant(service.call, service.svc.adminToken, 'Vap Listen');
    configHome = mkdtempSync(join(tmpdir(), 'vap-config-'));
  });

  afterAll(async () => {
    await service?.destroy();
    rmSync(configHome, { recursive: true, force: true });
  });

  /** A test call, once every one of its events (up to `last`: the recording for an answered call) is in the feed. */
  async function completedCall(to: string, last = 'session.recording_completed'): Promise<string> {
    const { session_id } = await placeCall(service.call, tenant.api_key, to, { testMode: true });
    await eventually(async () => {
      const types = (await sessionEvents(service.call, tenant.api_key, session_id)).map((e) => e.type);
      expect(types).toContain(last);
    }, 30_000);
    return session_id;
  }

  it('forwards every event of a test call in order, signed with the printed secret; a restart loses and duplicates nothing', async () => {
    // Events from before the first start are not forwarded: it starts at the tail.
    await completedCall('+14155550100');
    const tail = (await allEvents(service.call, tenant.api_key)).at(-1)?.id;
    const local = await startLocalServer();
    let listener = await startListen(service, tenant.api_key, configHome, ['--forward-to', local.url]);
    const secret = listener.secret;

    const first = await completedCall('+14155550105');
    await eventually(async () => {
      const want = await sessionEvents(service.call, tenant.api_key, first);
      expect(local.got.length).toBeGreaterThanOrEqual(want.length);
    }, 30_000);
    expect(await listener.stop()).toBe(0);
    expect(listener.output()).toMatch(/Stopped\./);

    // While it is stopped: another call.
    const second = await completedCall('+14155550109');
    listener = await startListen(service, tenant.api_key, configHome, ['--forward-to', local.url]);
    expect(listener.secret).toBe(secret);
    expect(listener.output()).toMatch(/resumed/);
    await eventually(async () => {
      const want = await sessionEvents(service.call, tenant.api_key, second);
      expect(local.got.filter((r) => r.rawBody.includes(second)).length).toBe(want.length);
    }, 30_000);
    expect(await listener.stop()).toBe(0);

    // Exactly the feed after the tail at the first start, in commit order, each verified with the secret.
    const feed = await allEvents(service.call, tenant.api_key);
    const expected = feed.slice(feed.findIndex((e) => e.id === tail) + 1);
    const received = local.got.map((r) => webhooks.verify(r.rawBody, r.headers, secret));
    expect(received.map((e) => e.id)).toEqual(expected.map((e) => e.id));
    expect(received.map((e: WebhookEvent) => e.type)).toEqual(expected.map((e) => e.type));
    expect(received.filter((e) => e.type === 'session.transfer_initiated')).toHaveLength(1);
    for (const r of local.got) {
      expect(r.headers['x-webhook-event']).toBe(JSON.parse(r.rawBody.toString('utf8')).type);
      expect(r.headers['webhook-id']).toBe(r.headers['x-webhook-id']);
    }
    expect(listener.output()).toMatch(/session\.ended\s+\S+\s+→ 200\s+\d+ ms/);
    await local.close();
  });

  it('survives the local server being down: retries, says it moves on, and forwards again once it is back', async () => {
    const home = mkdtempSync(join(tmpdir(), 'vap-config-'));
    const local = await startLocalServer();
    const { port, url } = local;
    await local.close();
    const listener = await startListen(service, tenant.api_key, home, ['--forward-to', url, '--attempts', '2']);
    try {
      const down = await completedCall('+14155550101', 'session.failed');
      const lost = await sessionEvents(service.call, tenant.api_key, down);
      await eventually(() => {
        for (const e of lost)
          expect(listener.output()).toMatch(
            new RegExp(`${e.id}  → error ECONNREFUSED .*gave up after 2 attempts; moving on`),
          );
      }, 30_000);
      expect(listener.output()).toMatch(/attempt 1 of 2; retrying in 500 ms/);

      const back = await startLocalServer(port);
      const up = await completedCall('+14155550102', 'session.failed');
      const want = await sessionEvents(service.call, tenant.api_key, up);
      await eventually(() => {
        const verified = back.got.map((r) => webhooks.verify(r.rawBody, r.headers, listener.secret));
        expect(verified.filter((e) => JSON.stringify(e.data).includes(up)).map((e) => e.id)).toEqual(
          want.map((e) => e.id),
        );
      }, 30_000);
      await back.close();
    } finally {
      await listener.stop();
      rmSync(home, { recursive: true, force: true });
    }
  });

  const secretOf = async (apiKey: string, home: string, target: string): Promise<string> => {
    const listener = await startListen(service, apiKey, home, ['--forward-to', target]);
    expect(await listener.stop()).toBe(0);
    return listener.secret;
  };
  const modeOf = (path: string): string => (statSync(path).mode & 0o777).toString(8);

  it('a secret per API key and target, stored under a hash of them, never the key', async () => {
    const home = mkdtempSync(join(tmpdir(), 'vap-config-'));
    const other = await createTenant(service.call, service.svc.adminToken, 'Vap Listen Other');
    try {
      const first = await secretOf(tenant.api_key, home, 'http://127.0.0.1:4001/hooks');
      const otherTarget = await secretOf(tenant.api_key, home, 'http://127.0.0.1:4002/hooks');
      const otherKey = await secretOf(other.api_key, home, 'http://127.0.0.1:4001/hooks');
      expect(new Set([first, otherTarget, otherKey]).size).toBe(3);
      // The same key and target again: the same secret, so a local server keeps its configuration.
      expect(await secretOf(tenant.api_key, home, 'http://127.0.0.1:4001/hooks')).toBe(first);

      const text = readFileSync(join(home, 'vap', 'listen.json'), 'utf8');
      expect(text).not.toContain(tenant.api_key);
      expect(text).not.toContain(other.api_key);
      const saved = JSON.parse(text) as { secrets?: Record<string, string> };
      expect(Object.keys(saved.secrets ?? {})).toHaveLength(3);
      for (const hash of Object.keys(saved.secrets ?? {})) expect(hash).toMatch(/^[0-9a-f]{64}$/);
      expect(Object.values(saved.secrets ?? {}).sort()).toEqual([first, otherTarget, otherKey].sort());
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  it('forces the state folder to 0700 and its file to 0600 when they existed with looser modes', async () => {
    const home = mkdtempSync(join(tmpdir(), 'vap-config-'));
    const dir = join(home, 'vap');
    const file = join(dir, 'listen.json');
    // A folder and file made before, world-readable, in the older one-shared-secret format.
    mkdirSync(dir, { mode: 0o755 });
    chmodSync(dir, 0o755);
    const shared = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    writeFileSync(file, JSON.stringify({ secret: shared, cursors: {} }));
    chmodSync(file, 0o644);
    try {
      const secret = await secretOf(tenant.api_key, home, 'http://127.0.0.1:4003/hooks');
      expect([modeOf(dir), modeOf(file)]).toEqual(['700', '600']);
      // The old shared secret is not taken over by this target.
      expect(secret).not.toBe(shared);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
