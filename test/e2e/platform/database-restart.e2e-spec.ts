/**
 * PostgreSQL stops with an immediate shutdown (what a crash or a managed failover does) while test
 * calls are placed, then starts again: the service stays up, answers 503 with Retry-After while the
 * database is down, recovers by itself, and every accepted call reaches its terminal event with
 * exactly one session.created.
 */
import { Client } from 'pg';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { placeCallsUntilStopped } from '../../support/calls-harness';
import { eventually } from '../../support/eventually';
import {
  killAllServices,
  makeDataDir,
  removeDataDir,
  restartEmbeddedPostgres,
  ServiceProcess,
  startService,
  stopEmbeddedPostgres,
} from '../../support/process';
import { apiClient, ApiCall, createTenant, sleep, TenantInfo } from '../../support/webhooks-harness';

jest.setTimeout(240_000);

let dataDir: string;
let svc: ServiceProcess;
let call: ApiCall;
let tenant: TenantInfo;

beforeAll(async () => {
  dataDir = makeDataDir();
  // No DATABASE_URL: the service runs its own embedded PostgreSQL under DATA_DIR, which this test stops.
  svc = await startService({
    env: { DATA_DIR: dataDir, SIM_TIME_SCALE: '0.01', LOG_LEVEL: 'warn' },
    healthTimeoutMs: 90_000,
  });
  call = apiClient(() => svc.baseUrl).call;
  tenant = await createTenant(call, svc.adminToken, 'Database Restart Co');
});

afterAll(async () => {
  await killAllServices();
  if (dataDir) removeDataDir(dataDir);
});

async function storeCounts(): Promise<Map<string, { created: number; terminal: number }>> {
  const password = readFileSync(join(dataDir, 'pg-password'), 'utf8').trim();
  const port = readFileSync(join(dataDir, 'pg-port'), 'utf8').trim();
  const client = new Client({
    connectionString: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/platform`,
  });
  await client.connect();
  try {
    const { rows } = await client.query<{ sid: string; created: number; terminal: number }>(
      `SELECT data->>'session_id' AS sid,
              count(*) FILTER (WHERE type = 'session.created')::int AS created,
              count(*) FILTER (WHERE type IN ('session.ended', 'session.failed'))::int AS terminal
       FROM events WHERE type IN ('session.created', 'session.ended', 'session.failed') GROUP BY 1`,
    );
    return new Map(rows.map((r) => [r.sid, r]));
  } finally {
    await client.end();
  }
}

it('stays up through an immediate shutdown and restart of PostgreSQL, with 503s meanwhile and nothing lost', async () => {
  let phase = 'before';
  const placing = placeCallsUntilStopped(call, tenant.api_key, 2, () => phase);
  const { outcomes } = placing;
  await sleep(1_000);
  phase = 'down';
  stopEmbeddedPostgres(dataDir);
  await sleep(4_000);
  expect(alive()).toEqual({ exited: false, output: '' });
  phase = 'restarting';
  restartEmbeddedPostgres(dataDir);
  phase = 'after';
  // The service recovers by itself: calls are accepted again without a restart of the service.
  await eventually(() => outcomes.filter((o) => o.phase === 'after' && o.status === 201).length >= 5, 30_000, 100);
  await placing.stop();

  expect(alive()).toEqual({ exited: false, output: '' });
  const unexpected = outcomes.filter((o) => o.status !== 201 && !(o.status === 503 && o.retryAfter !== null));
  expect(unexpected).toEqual([]);
  const down = outcomes.filter((o) => o.phase === 'down');
  expect(down.some((o) => o.status === 503 && o.type === 'service_unavailable')).toBe(true);
  const accepted = outcomes.filter((o) => o.status === 201).map((o) => o.sessionId!);
  console.log(
    `database restart: ${outcomes.length} requests; ${accepted.length} accepted; ${outcomes.filter((o) => o.status === 503).length} answered 503`,
  );

  await eventually(
    async () => {
      const counts = await storeCounts();
      return accepted.every((sid) => counts.get(sid)?.created === 1 && counts.get(sid)?.terminal === 1);
    },
    120_000,
    500,
  );
  expect(alive()).toEqual({ exited: false, output: '' });
});

/** Whether the service still runs; when it has exited, the tail of its output says why. */
function alive(): { exited: boolean; output: string } {
  const exited = svc.hasExited();
  return { exited, output: exited ? `${svc.stdout().slice(-2000)}\n${svc.stderr().slice(-2000)}` : '' };
}
