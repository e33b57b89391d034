import { compareLifecycle, describeBuild } from './lifecycle-compare';
import { peakRssAt, xactsPerCallAt } from './lifecycle-figures';
import {
  LadderSettings,
  LifecycleRun,
  P99_LIMIT_MS,
  ReceiverMode,
  runLifecycle,
  STATS_SETTLE_MS,
} from './lifecycle-ladder';
import { serviceEntry } from './service-process';
import { BenchContext, numberFromEnv } from './support';

/**
 * The life of a test call, end to end, with the service as an operator runs it: `node dist/main.js`
 * in a child process (SIM_TIME_SCALE=0.001, one webhook endpoint for every event), the webhook
 * receiver in another (receiver.ts), and the load generator here. One run is lifecycle-ladder.ts:
 *
 *   idle        PostgreSQL transactions per second of the idle service (pg_stat_database,
 *               xact_commit + xact_rollback of this database, reads included)
 *   xacts       (BENCH_LIFECYCLE_XACT_RATES, none by default, 5,20 when comparing) test calls at each
 *               of these rates for BENCH_LIFECYCLE_SECONDS, for transactions per call at a fixed load;
 *               every one runs, whatever its outcome, and none counts for the knee
 *   ladder      test calls to +14155550100 (a completed call with a recording) placed open loop at
 *               each rate of BENCH_LIFECYCLE_RATES for BENCH_LIFECYCLE_SECONDS, then followed until
 *               every call's webhooks arrived (BENCH_LIFECYCLE_DRAIN_SECONDS at most). Per step:
 *               webhook latency (envelope created_at to receipt), POST /v1/calls latency and
 *               errors, deliveries missing and duplicated, PostgreSQL transactions per call (the
 *               step's, idle rate taken off), peak RSS of the service process, and this process's
 *               event-loop delay (the rig's own lateness).
 *   knee        the highest rate whose step passed: webhook p99 ≤ 250 ms, every POST answered 2xx,
 *               every expected webhook arrived within the drain. The ladder stops at the first
 *               step that fails.
 *
 * BENCH_RECEIVER=inline runs the receiver in this process instead (receiver-inline.ts): the
 * customer-style rig, where load and receipt share one event loop; its verdicts are named
 * lifecycle_inline_*. BENCH_COMPARE_ENTRY=<previous build>/dist/main.js runs the previous build and
 * today's alternately, each on a fresh database and service (lifecycle-compare.ts), and reports both
 * and the ratios today/previous (BENCH_COMPARE_ROUNDS pairs, default 1).
 */

export async function lifecycleBench(ctx: BenchContext): Promise<object> {
  const compareEntry = process.env.BENCH_COMPARE_ENTRY;
  const settings = readSettings(Boolean(compareEntry));
  const checked = verdictsFor(ctx, settings.receiver);
  const common = { settings: describeSettings(settings) };
  if (compareEntry) {
    const rounds = numberFromEnv('BENCH_COMPARE_ROUNDS', 1);
    return { ...common, ...(await compareLifecycle(checked, settings, compareEntry, rounds)) };
  }
  const build = describeBuild(serviceEntry());
  ctx.log(`service ${build.entry} at commit ${build.commit}${build.dirty ? ' (with uncommitted changes)' : ''}`);
  const run = await runLifecycle({ ctx, databaseUrl: ctx.databaseUrl, settings, label: '' });
  return { ...common, build, ...report(checked, run) };
}

function readSettings(comparing: boolean): LadderSettings {
  const receiver = process.env.BENCH_RECEIVER || 'process';
  if (receiver !== 'process' && receiver !== 'inline') {
    throw new Error(`BENCH_RECEIVER must be "process" or "inline", got "${receiver}"`);
  }
  const rates = ratesFromEnv('BENCH_LIFECYCLE_RATES', '20,50,75,100,125,150,200');
  if (rates.length === 0) throw new Error('BENCH_LIFECYCLE_RATES names no rate');
  return {
    rates,
    xactRates: ratesFromEnv('BENCH_LIFECYCLE_XACT_RATES', comparing ? '5,20' : ''),
    seconds: numberFromEnv('BENCH_LIFECYCLE_SECONDS', 30),
    drainSeconds: numberFromEnv('BENCH_LIFECYCLE_DRAIN_SECONDS', 60),
    idleSeconds: numberFromEnv('BENCH_LIFECYCLE_IDLE_SECONDS', 10),
    receiver,
    statements: numberFromEnv('BENCH_LIFECYCLE_STATEMENTS', 0),
  };
}

function ratesFromEnv(name: string, fallback: string): number[] {
  const text = process.env[name] ?? fallback;
  if (text.trim() === '') return [];
  const rates = text.split(',').map((r) => Number(r.trim()));
  if (rates.some((r) => !Number.isFinite(r) || r <= 0)) {
    throw new Error(`${name} must be positive numbers separated by commas, got "${text}"`);
  }
  return rates;
}

/** The customer-style rig's verdicts are its own (lifecycle_inline_*), not to be read as the separated rig's. */
function verdictsFor(ctx: BenchContext, receiver: ReceiverMode): BenchContext {
  if (receiver === 'process') return ctx;
  return { ...ctx, check: (name, ...rest) => ctx.check(name.replace(/^lifecycle_/, 'lifecycle_inline_'), ...rest) };
}

function describeSettings(settings: LadderSettings): object {
  return {
    rates_per_s: settings.rates,
    xact_rates_per_s: settings.xactRates,
    seconds_per_step: settings.seconds,
    drain_seconds: settings.drainSeconds,
    idle_seconds: settings.idleSeconds,
    receiver: settings.receiver,
    sim_time_scale: 0.001,
    p99_limit_ms: P99_LIMIT_MS,
    stats_settle_ms: STATS_SETTLE_MS,
  };
}

function report(ctx: BenchContext, run: LifecycleRun): object {
  const ladder = run.steps.filter((s) => s.phase === 'ladder');
  const kneeRate = run.knee_calls_per_s;
  const knee = ladder.find((s) => s.rate_per_s === kneeRate && s.pass);
  // The knee's step; with no passing step, the first (the lowest load measured).
  const rssStep = knee ?? ladder[0];
  const peakRss = rssStep?.service_rss_mb.peak_sampled ?? 0;
  const first = ladder[0];
  const xactsPerCall = first?.postgres.xacts_per_call ?? 0;
  const xactsAt = Object.fromEntries(
    run.steps.filter((s) => s.phase === 'xacts').map((s) => [s.rate_per_s, xactsPerCallAt(run.steps, s.rate_per_s)]),
  );
  ctx.log(
    `knee ${kneeRate} calls/s; ${xactsPerCall} pg xacts/call at ${first?.rate_per_s} calls/s; ` +
      `idle ${run.idle.xacts_per_s} xacts/s; service peak RSS ${peakRss} MB; receiver ${run.receiver}`,
  );
  ctx.check('lifecycle_knee_calls_per_s', kneeRate, 100);
  ctx.check('lifecycle_pg_xacts_per_call', xactsPerCall, 40, 'max');
  for (const [rate, value] of Object.entries(xactsAt)) {
    if (value !== null) ctx.check(`lifecycle_pg_xacts_per_call_at_${rate}`, value, 40, 'max');
  }
  ctx.check('lifecycle_idle_pg_xacts_per_s', run.idle.xacts_per_s, 5, 'max');
  ctx.check('lifecycle_peak_rss_mb', peakRss, 300, 'max');
  return {
    knee_calls_per_s: kneeRate,
    pg_xacts_per_call_first_step: xactsPerCall,
    pg_xacts_per_call_at: xactsAt,
    idle: run.idle,
    peak_rss_mb: { value: peakRss, at_rate_per_s: rssStep?.rate_per_s ?? null, of: knee ? 'knee step' : 'first step' },
    peak_rss_mb_at_100: peakRssAt(run.steps, 100),
    webhooks_per_call: run.calibration,
    steps: run.steps,
    service_log: run.service_log,
    note:
      `The service (node dist/main.js) runs in a child process; the webhook receiver ` +
      (run.receiver === 'inline'
        ? 'runs inside the benchmark process, with the load generator (the customer-style rig). '
        : 'in another. ') +
      'RSS is of the service process alone. PostgreSQL transactions are of the benchmark database, including those of autovacuum.',
  };
}
