import { loadAppConfig } from '../../src/app.module';
import 'reflect-metadata';

// content-disposition@3 (required by @fastify/static@10, which SwaggerModule.setup loads for /docs) is
// an ES module only. Jest's CommonJS runtime cannot require it (and jest.config.js transforms only .ts),
// so the app would call process.exit(1) while building. Node 20.19+'s own require loads it natively.
// (process.getBuiltinModule bypasses Jest's patched `module`, whose createRequire is Jest's require.)
jest.mock('content-disposition', () =>
  process.getBuiltinModule('node:module').createRequire(__filename)('content-disposition'),
);
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Pool, PoolClient } from 'pg';
import { EVENT_STORE, EventStore } from '../../src/event-store/event-store.port';
import { PG_POOL } from '../../src/infra/database/database.tokens';
import { createHttpApp } from '../../src/http-app';
import { WorkerLifecycle } from '../../src/runtime/workers/lifecycle';
import type { Clock } from '../../src/kernel/clock';
import { createTestDatabase, TestDatabase } from './database';
import { TEST_CAPACITY } from './process';

export interface CreatedTenant {
  tenant_id: string;
  name: string;
  plan: 'starter' | 'pro';
  api_key: string;
  key_prefix?: string;
}

export interface TestApp {
  app: NestFastifyApplication;
  db: TestDatabase;
  adminToken: string;
  dataDir: string;
  /** Fastify's in-process request injection (no socket). */
  inject(opts: InjectOptions): Promise<LightMyRequestResponse>;
  /** `inject` with `Authorization: Bearer $ADMIN_TOKEN`. */
  admin(opts: InjectOptions): Promise<LightMyRequestResponse>;
  /** `inject` with `Authorization: Bearer <apiKey>`. */
  asTenant(apiKey: string, opts: InjectOptions): Promise<LightMyRequestResponse>;
  /** Creates a tenant through the operator API and fails loudly unless it answers 201. */
  createTenant(name?: string, plan?: 'starter' | 'pro'): Promise<CreatedTenant>;
  close(): Promise<void>;
}

function withHeaders(opts: InjectOptions, headers: Record<string, string>): InjectOptions {
  return { ...opts, headers: { ...headers, ...(opts.headers ?? {}) } };
}

/**
 * The whole HTTP application (createHttpApp, as main.ts builds it) on a fresh test database,
 * without listening on a socket. Workers (projections, timers) run as in production.
 */
export async function startTestApp(
  opts: {
    env?: Record<string, string>;
    clock?: Clock;
    /** Another instance on this database (another app's `db`): it is left in place at close. */
    database?: TestDatabase;
    adminToken?: string;
  } = {},
): Promise<TestApp> {
  const adminToken = opts.adminToken ?? `adm_test_${randomBytes(16).toString('hex')}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'vap-app-'));
  const ownsDatabase = opts.database === undefined;
  const db = opts.database ?? (await createTestDatabase());
  let app: NestFastifyApplication | null = null;
  try {
    const config = loadAppConfig({
      LOG_LEVEL: 'silent',
      // Capacity is the subject of its own suites (test/e2e/capacity): elsewhere a loaded CI machine's
      // measured headroom, or the cap derived from its two cores, must not refuse a test's calls.
      ...TEST_CAPACITY,
      ...(opts.env ?? {}),
      ADMIN_TOKEN: adminToken,
      DATA_DIR: dataDir,
    });
    app = await createHttpApp({ config, databaseUrl: db.url, ...(opts.clock ? { clock: opts.clock } : {}) });
    await app.init();
    await app.getHttpAdapter().getInstance().ready();
  } catch (err) {
    await app?.close().catch(() => undefined);
    if (ownsDatabase) await db.drop().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
  const nest = app;

  const inject = (o: InjectOptions) => nest.inject(o);
  const admin = (o: InjectOptions) => inject(withHeaders(o, { authorization: `Bearer ${adminToken}` }));
  const asTenant = (apiKey: string, o: InjectOptions) => inject(withHeaders(o, { authorization: `Bearer ${apiKey}` }));

  let closed = false;
  return {
    app: nest,
    db,
    adminToken,
    dataDir,
    inject,
    admin,
    asTenant,
    async createTenant(name = `Tenant ${randomBytes(3).toString('hex')}`, plan?: 'starter' | 'pro') {
      const res = await admin({
        method: 'POST',
        url: '/admin/v1/tenants',
        payload: { name, ...(plan ? { plan } : {}) },
      });
      if (res.statusCode !== 201) throw new Error(`createTenant: ${res.statusCode} ${res.body}`);
      return res.json<CreatedTenant>();
    },
    async close() {
      if (closed) return;
      closed = true;
      try {
        // The order of main.ts's shutdown: workers first, then the store's LISTEN connection, then Nest.
        await nest.get(WorkerLifecycle).stopAll();
        await nest.get<EventStore>(EVENT_STORE).close();
        await closeNest(nest);
      } finally {
        if (ownsDatabase) await db.drop();
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  };
}

/**
 * `app.close()` ends the pg pool, which waits for every checked-out client. If something still holds
 * one after the workers and the event store stopped (a leak: see tenants.int-spec.ts, "shuts down"),
 * the close would hang forever; release such clients after a grace period so the file can finish.
 */
async function closeNest(nest: NestFastifyApplication, graceMs = 5_000): Promise<void> {
  const closing = nest.close();
  let timer: NodeJS.Timeout | undefined;
  const timedOut = await Promise.race([
    closing.then(() => false),
    new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), graceMs))),
  ]);
  clearTimeout(timer);
  if (!timedOut) return;
  releaseCheckedOutClients(nest.get<Pool>(PG_POOL));
  await closing;
}

/** Releases (and destroys) every client of a pg Pool that is checked out; returns how many there were. */
export function releaseCheckedOutClients(pool: Pool): number {
  const internals = pool as unknown as { _clients: PoolClient[]; _idle: { client: PoolClient }[] };
  const idle = new Set(internals._idle.map((i) => i.client));
  const held = internals._clients.filter((c) => !idle.has(c));
  for (const client of held) client.release(true);
  return held.length;
}

/** How many clients of a pg Pool are checked out right now. */
export function checkedOutClients(pool: Pool): number {
  return pool.totalCount - pool.idleCount;
}

/** Error bodies must never leak a stack frame or an internal path. */
export function expectNoLeak(body: string): void {
  expect(body).not.toMatch(/\bat\s+\S+.*:\d+:\d+/);
  expect(body).not.toMatch(/\n\s+at\s/);
  expect(body).not.toContain('/work/');
  expect(body).not.toContain('node_modules');
}
