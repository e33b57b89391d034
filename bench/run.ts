import { resolve } from 'node:path';
import { Pool } from 'pg';
import { BENCHMARKS } from './registry';
import {
  BenchContext,
  currentLoad,
  DatabaseServer,
  machineInfo,
  numberFromEnv,
  startDatabaseServer,
  Verdict,
  writeResults,
} from './support';

/**
 * `npm run bench [-- name…]`: runs the selected benchmarks (default all), each in a fresh database,
 * prints a summary and writes bench/results/<started-at>.json and bench/results/latest.json.
 *
 * Environment: DATABASE_URL (use that server instead of an embedded one), BENCH_SECONDS (measured
 * seconds per phase, default 5), BENCH_WARMUP_SECONDS (default 1), BENCH_PG_DIR (keep the embedded
 * cluster there), BENCH_RESULTS_DIR, BENCH_STRICT=1 (exit 2 when a target is missed), and the
 * benchmarks' own (BENCH_CLIENTS, BENCH_ROUNDS; BENCH_REPLAY_EVENTS, BENCH_REPLAY_TRANSACTIONS,
 * BENCH_REPLAY_ACTIVE_STREAMS; BENCH_WEBHOOK_EVENTS; BENCH_LIFECYCLE_RATES (calls per second of
 * each step, default 20,50,75,100,125,150,200), BENCH_LIFECYCLE_SECONDS (per step, default 30),
 * BENCH_LIFECYCLE_DRAIN_SECONDS (default 60), BENCH_LIFECYCLE_IDLE_SECONDS (default 10),
 * BENCH_LIFECYCLE_STATEMENTS (top statements per call of each step, with pg_stat_statements preloaded),
 * BENCH_LIFECYCLE_XACT_RATES (a transactions phase before the ladder: one step at each rate, for
 * transactions per call; none by default, 5,20 when comparing), BENCH_RECEIVER=inline (the webhook
 * receiver in this process with the load generator: the customer-style rig; verdicts lifecycle_inline_*),
 * BENCH_COMPARE_ENTRY (the previous build's dist/main.js: it and today's build run the lifecycle
 * alternately, each on a fresh database and service, and the report gives both builds' commits,
 * knees, transactions per call at 5 and 20 calls/s, idle transactions, peak RSS at 100 calls/s and
 * the ratios today/previous), BENCH_COMPARE_ROUNDS (pairs of runs, default 1; the pair swaps order
 * each round), BENCH_SERVICE_ENTRY (the lifecycle's and the campaign's service: another build's
 * dist/main.js, to measure another commit; when comparing, "today's" build); BENCH_CAMPAIGN_CONTACTS (default 1000), BENCH_CAMPAIGN_CONCURRENCY (100),
 * BENCH_CAMPAIGN_TIMEOUT_SECONDS (600)).
 */

interface Report {
  machine: ReturnType<typeof machineInfo>;
  started_at: string;
  finished_at?: string;
  postgres: { version: string; source: DatabaseServer['source'] };
  settings: { seconds: number; warmup_seconds: number; benchmarks: string[] };
  results: Record<string, object>;
  targets: Record<string, { min: number } | { max: number }>;
  verdicts: Record<string, Omit<Verdict, 'kind'>>;
}

const RESULTS_DIR = process.env.BENCH_RESULTS_DIR ?? resolve(__dirname, '..', '..', '..', 'bench', 'results');

async function main(): Promise<number> {
  const selected = selectBenchmarks(process.argv.slice(2));
  const seconds = numberFromEnv('BENCH_SECONDS', 5);
  const warmupSeconds = numberFromEnv('BENCH_WARMUP_SECONDS', 1);
  const startedAt = new Date();
  log('bench', `running ${selected.join(', ')} (${seconds} s per phase after ${warmupSeconds} s warm-up)`);

  const server = await startDatabaseServer((line) => log('postgres', line));
  const stopOnSignal = (): void => void server.stop().finally(() => process.exit(130));
  process.once('SIGINT', stopOnSignal);
  process.once('SIGTERM', stopOnSignal);

  const report: Report = {
    machine: machineInfo(),
    started_at: startedAt.toISOString(),
    postgres: { version: await server.version(), source: server.source },
    settings: { seconds, warmup_seconds: warmupSeconds, benchmarks: selected },
    results: {},
    targets: {},
    verdicts: {},
  };
  let failed = false;
  try {
    for (const name of selected) {
      const result = await runBenchmark(server, name, report, seconds, warmupSeconds);
      if ('error' in result) failed = true;
      report.results[name] = result;
    }
  } finally {
    await server.stop();
  }
  report.finished_at = new Date().toISOString();

  printSummary(report);
  const file = writeResults(RESULTS_DIR, startedAt, report);
  log('bench', `results written to ${file} and latest.json`);
  if (failed) return 1;
  const missed = Object.values(report.verdicts).some((v) => !v.pass);
  return missed && process.env.BENCH_STRICT === '1' ? 2 : 0;
}

/** Names or unambiguous prefixes (`append` → `append_vs_insert`; `sip-echo` is `sip_echo`); none means all. */
function selectBenchmarks(args: string[]): string[] {
  const names = Object.keys(BENCHMARKS);
  if (args.length === 0) return names;
  return args.map((given) => {
    const arg = given.replace(/-/g, '_');
    const matches = names.filter((n) => n === arg || n.startsWith(arg));
    const exact = matches.find((n) => n === arg);
    if (exact) return exact;
    if (matches.length === 1) return matches[0] as string;
    throw new Error(
      `${matches.length === 0 ? 'unknown' : 'ambiguous'} benchmark "${arg}"; available: ${names.join(', ')}`,
    );
  });
}

async function runBenchmark(
  server: DatabaseServer,
  name: string,
  report: Report,
  seconds: number,
  warmupSeconds: number,
): Promise<object> {
  const database = await server.createDatabase(name);
  const pools: Pool[] = [];
  const scratch = new Set<string>();
  const ctx: BenchContext = {
    databaseUrl: database.url,
    seconds,
    warmupSeconds,
    pool: (max) => {
      const pool = new Pool({ connectionString: database.url, max });
      pools.push(pool);
      return pool;
    },
    scratchDatabase: async (label) => {
      const created = await server.createDatabase(`${name}_${label}`, false);
      scratch.add(created.name);
      const drop = async (): Promise<void> => {
        if (scratch.delete(created.name)) await server.dropDatabase(created.name);
      };
      return { url: created.url, drop };
    },
    log: (line) => log(name, line),
    check: (verdict, value, target, kind = 'min') => {
      const pass = kind === 'min' ? value >= target : value <= target;
      report.targets[verdict] = kind === 'min' ? { min: target } : { max: target };
      report.verdicts[verdict] = { value, target, pass };
    },
  };
  try {
    const benchmark = BENCHMARKS[name];
    if (!benchmark) throw new Error(`no benchmark named ${name}`);
    return await benchmark(ctx);
  } catch (err) {
    const message = err instanceof Error ? (err.stack ?? err.message) : String(err);
    log(name, `FAILED: ${message}`);
    return { error: message };
  } finally {
    // A pool a benchmark already ended rejects a second end(); that is fine.
    await Promise.all(pools.map((p) => p.end().catch(() => undefined)));
    await server.dropDatabase(database.name);
    for (const left of scratch) await server.dropDatabase(left);
  }
}

function printSummary(report: Report): void {
  const rows = Object.entries(report.verdicts).map(([name, v]) => {
    const target = report.targets[name];
    const bound = target && 'max' in target ? `≤ ${target.max}` : `≥ ${v.target}`;
    return `  ${v.pass ? 'PASS' : 'FAIL'}  ${name.padEnd(44)} ${v.value.toLocaleString('en-US').padStart(10)}   target ${bound}`;
  });
  const errors = Object.entries(report.results)
    .filter(([, r]) => 'error' in r)
    .map(([name]) => `  ERROR ${name} (see the log above)`);
  const m = report.machine;
  process.stdout.write(
    [
      '',
      `Summary (${m.cpus} × ${m.cpu_model}, ${(m.totalmem / 2 ** 30).toFixed(0)} GiB, Node ${m.node}, ` +
        `PostgreSQL ${report.postgres.version} ${report.postgres.source}; ` +
        `load average ${m.loadavg_1m} at the start, ${currentLoad()} at the end)`,
      ...rows,
      ...errors,
      '',
    ].join('\n'),
  );
}

const t0 = Date.now();
function log(scope: string, line: string): void {
  const elapsed = ((Date.now() - t0) / 1000).toFixed(1).padStart(6);
  process.stdout.write(`[${elapsed}s] ${scope.padEnd(16)} ${line}\n`);
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`bench failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
