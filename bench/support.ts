import { randomBytes } from 'node:crypto';
import { contextMigrations } from '../src/app.module';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { arch, cpus, loadavg, platform, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { Client, Pool } from 'pg';
import { startEmbeddedPostgres } from '../src/infra/database/embedded-postgres';
import { migrateDatabase } from '../src/infra/database/migrations';
import { percentiles, round2 } from './percentiles';

export { round2 } from './percentiles';

// ---------------------------------------------------------------------------------------------
// What a benchmark receives
// ---------------------------------------------------------------------------------------------

export interface Verdict {
  readonly value: number;
  readonly target: number;
  /** `min`: pass when value ≥ target; `max`: pass when value ≤ target. */
  readonly kind: 'min' | 'max';
  readonly pass: boolean;
}

export interface BenchContext {
  /** postgres://… of this benchmark's own fresh, migrated database. */
  readonly databaseUrl: string;
  /** Measured seconds per phase (BENCH_SECONDS, default 5) and warm-up before each (BENCH_WARMUP_SECONDS, default 1). */
  readonly seconds: number;
  readonly warmupSeconds: number;
  /** A pool on this benchmark's database; closed by the harness when the benchmark ends. */
  pool(max: number): Pool;
  /**
   * Another database on the same server, empty and not migrated (a service migrates it at start-up
   * with its own migrations: another build's may differ); dropped by drop() or when the benchmark ends.
   */
  scratchDatabase(label: string): Promise<{ url: string; drop(): Promise<void> }>;
  log(line: string): void;
  /** Records a target and whether this run met it. */
  check(name: string, value: number, target: number, kind?: 'min' | 'max'): void;
}

export type Benchmark = (ctx: BenchContext) => Promise<object>;

// ---------------------------------------------------------------------------------------------
// Settings
// ---------------------------------------------------------------------------------------------

export function numberFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number, got "${raw}"`);
  return value;
}

// ---------------------------------------------------------------------------------------------
// Timing
// ---------------------------------------------------------------------------------------------

export function nowMs(): number {
  return performance.now();
}

/** Runs `fn` once and returns its result with the elapsed milliseconds. */
export async function timed<T>(fn: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const start = nowMs();
  const result = await fn();
  return { result, ms: nowMs() - start };
}

export function perSecond(count: number, ms: number): number {
  return ms > 0 ? Math.round((count * 1000) / ms) : 0;
}

export interface LoadResult {
  readonly clients: number;
  readonly ops: number;
  readonly seconds: number;
  readonly ops_per_s: number;
  readonly latency_ms: { p50: number; p95: number; p99: number; max: number };
  readonly errors: number;
}

/** The raw outcome of one measured window; several windows combine into one LoadResult. */
export interface LoadSample {
  readonly clients: number;
  readonly ms: number;
  readonly latencies: number[];
  readonly errors: number;
}

export interface LoadOptions {
  readonly clients: number;
  readonly warmupMs: number;
  readonly durationMs: number;
  /** One operation of client `client` (0-based). Each client runs its operations one after another. */
  readonly op: (client: number) => Promise<void>;
}

/**
 * Closed-loop load: `clients` loops each run `op` back to back for warm-up + duration. Only
 * operations that start and finish inside the measured window count; errors are counted, not thrown.
 */
export async function runLoad(options: LoadOptions): Promise<LoadSample> {
  const measureFrom = nowMs() + options.warmupMs;
  const end = measureFrom + options.durationMs;
  const latencies: number[] = [];
  let errors = 0;
  const client = async (index: number): Promise<void> => {
    while (nowMs() < end) {
      const start = nowMs();
      try {
        await options.op(index);
      } catch {
        errors++;
        continue;
      }
      const finished = nowMs();
      if (start >= measureFrom && finished <= end) latencies.push(finished - start);
    }
  };
  await Promise.all(Array.from({ length: options.clients }, (_, i) => client(i)));
  return { clients: options.clients, ms: options.durationMs, latencies, errors };
}

/** Throughput and latency percentiles over one or more samples of the same workload. */
export function loadResult(samples: readonly LoadSample[]): LoadResult {
  const latencies = samples.flatMap((s) => s.latencies);
  const ms = samples.reduce((sum, s) => sum + s.ms, 0);
  return {
    clients: samples[0]?.clients ?? 0,
    ops: latencies.length,
    seconds: ms / 1000,
    ops_per_s: perSecond(latencies.length, ms),
    latency_ms: percentiles(latencies),
    errors: samples.reduce((sum, s) => sum + s.errors, 0),
  };
}

export function formatRate(value: number): string {
  return `${value.toLocaleString('en-US')}/s`;
}

// ---------------------------------------------------------------------------------------------
// Databases
// ---------------------------------------------------------------------------------------------

export interface DatabaseServer {
  /** Where it came from, for the report. */
  readonly source: 'embedded' | 'DATABASE_URL';
  /** Creates an empty database, migrated with the service's migrations unless `migrated` is false; returns its URL. */
  createDatabase(prefix: string, migrated?: boolean): Promise<{ name: string; url: string }>;
  dropDatabase(name: string): Promise<void>;
  version(): Promise<string>;
  stop(): Promise<void>;
}

/**
 * The server the benchmarks run on: DATABASE_URL when set (benchmarks then use scratch databases
 * on it and drop them), otherwise an embedded PostgreSQL in a directory of its own, removed at the
 * end (BENCH_PG_DIR to use and keep a fixed one).
 */
export async function startDatabaseServer(log: (line: string) => void): Promise<DatabaseServer> {
  const external = process.env.DATABASE_URL;
  if (external) return serverAt(external, 'DATABASE_URL', () => Promise.resolve());
  const fixedDir = process.env.BENCH_PG_DIR;
  const dir = fixedDir ?? mkdtempSync(join(tmpdir(), 'bench-pg-'));
  // As root the server runs as `postgres`, which must be able to reach <dir>/pg.
  if (!fixedDir) chmodSync(dir, 0o755);
  const handle = await startEmbeddedPostgres(dir, log);
  return serverAt(handle.url, 'embedded', async () => {
    await handle.stop();
    if (!fixedDir) rmSync(dir, { recursive: true, force: true });
  });
}

function serverAt(url: string, source: DatabaseServer['source'], stop: () => Promise<void>): DatabaseServer {
  const withDatabase = (name: string): string => {
    const u = new URL(url);
    u.pathname = `/${name}`;
    return u.toString();
  };
  const admin = async <T>(fn: (c: Client) => Promise<T>): Promise<T> => {
    const client = new Client({ connectionString: url });
    await client.connect();
    try {
      return await fn(client);
    } finally {
      await client.end();
    }
  };
  return {
    source,
    async createDatabase(prefix, migrated = true) {
      const name = `bench_${prefix.replace(/[^a-z0-9_]/gi, '_').toLowerCase()}_${randomBytes(4).toString('hex')}`;
      await admin((c) => c.query(`CREATE DATABASE ${c.escapeIdentifier(name)}`));
      const dbUrl = withDatabase(name);
      if (migrated) await migrateDatabase(dbUrl, contextMigrations());
      return { name, url: dbUrl };
    },
    async dropDatabase(name) {
      await admin((c) => c.query(`DROP DATABASE IF EXISTS ${c.escapeIdentifier(name)} WITH (FORCE)`));
    },
    async version() {
      return admin(
        async (c) =>
          (await c.query<{ v: string }>("SELECT current_setting('server_version') AS v")).rows[0]?.v ?? 'unknown',
      );
    },
    stop,
  };
}

/** Flushes dirty buffers so that a checkpoint does not land in the middle of the next phase.
 *  Needs superuser or pg_checkpoint; silently skipped without. */
export async function checkpoint(pool: Pool): Promise<void> {
  await pool.query('CHECKPOINT').catch(() => undefined);
}

// ---------------------------------------------------------------------------------------------
// Results
// ---------------------------------------------------------------------------------------------

export interface MachineInfo {
  cpus: number;
  cpu_model: string;
  node: string;
  platform: string;
  totalmem: number;
  /** 1-minute load average at the start: other work on the machine skews every number. */
  loadavg_1m: number;
}

export function machineInfo(): MachineInfo {
  const list = cpus();
  return {
    cpus: list.length,
    cpu_model: list[0]?.model ?? 'unknown',
    node: process.version,
    platform: `${platform()}-${arch()}`,
    totalmem: totalmem(),
    loadavg_1m: round2(loadavg()[0] ?? 0),
  };
}

export function currentLoad(): number {
  return round2(loadavg()[0] ?? 0);
}

/** Writes `<dir>/<started-at>.json` and `<dir>/latest.json`; returns the dated file's path. */
export function writeResults(dir: string, startedAt: Date, report: object): string {
  mkdirSync(dir, { recursive: true });
  const stamp = startedAt
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/:/g, '-');
  const file = join(dir, `${stamp}.json`);
  const text = `${JSON.stringify(report, null, 2)}\n`;
  writeFileSync(file, text);
  writeFileSync(join(dir, 'latest.json'), text);
  return file;
}
