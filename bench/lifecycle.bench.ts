import { Pool } from 'undici';
import { runOpenLoop, OpenLoopResult } from './open-loop';
import { Percentiles, round2 } from './percentiles';
import { PgTransactionCounter, resetPeakRss, sampleProcessRss } from './probes';
import type { ReceiverStats } from './receiver';
import { ReceiverProcess, startReceiverProcess } from './receiver-process';
import { sleep } from './child-process';
import { StatementProfile, StatementRow } from './statement-profile';
import { postJson, removeRecordings, ServiceProcess, startServiceProcess } from './service-process';
import { BenchContext, currentLoad, numberFromEnv } from './support';

/**
 * The life of a test call, end to end, with the service as an operator runs it: `node dist/main.js`
 * in a child process (SIM_TIME_SCALE=0.001, one webhook endpoint for every event), the webhook
 * receiver in another (receiver.ts), and the load generator here.
 *
 *   idle        PostgreSQL transactions per second of the idle service (pg_stat_database,
 *               xact_commit + xact_rollback of this database, reads included)
 *   ladder      test calls to +14155550100 (a completed call with a recording) placed open loop at
 *               each rate of BENCH_LIFECYCLE_RATES for BENCH_LIFECYCLE_SECONDS, then followed until
 *               every call's webhooks arrived (BENCH_LIFECYCLE_DRAIN_SECONDS at most). Per step:
 *               webhook latency (envelope created_at to receipt), POST /v1/calls latency and
 *               errors, deliveries missing and duplicated, PostgreSQL transactions per call (the
 *               step's, idle rate taken off), peak RSS of the service process.
 *   statements  with BENCH_LIFECYCLE_STATEMENTS=N and pg_stat_statements preloaded on the server
 *               (DATABASE_URL), each step's N most executed statements per call (statement-profile.ts).
 *   knee        the highest rate whose step passed: webhook p99 ≤ 250 ms, every POST answered 2xx,
 *               every expected webhook arrived within the drain. The ladder stops at the first
 *               step that fails.
 */

const TEST_CALL = {
  to: '+14155550100',
  from: '+14155550000',
  agent_config: { prompt: 'bench' },
  test_mode: true,
};
/** The last webhook of a completed test call: its recording, tens of simulated seconds after hang-up. */
const FINAL_EVENT = 'session.recording_completed';
const P99_LIMIT_MS = 250;
/** PostgreSQL publishes an idle backend's counts within 10 s (PGSTAT_IDLE_INTERVAL): wait a little longer. */
const STATS_SETTLE_MS = 12_000;
const POST_TIMEOUT_MS = 30_000;

interface Settings {
  rates: number[];
  seconds: number;
  drainSeconds: number;
  idleSeconds: number;
  /** Statements per call to print per step (BENCH_LIFECYCLE_STATEMENTS); 0 for none. */
  statements: number;
}

interface Rig {
  ctx: BenchContext;
  service: ServiceProcess;
  receiver: ReceiverProcess;
  xacts: PgTransactionCounter;
  http: Pool;
  statements: StatementProfile | null;
}

interface IdleResult {
  seconds: number;
  xacts: number;
  xacts_per_s: number;
}

interface Calibration {
  /** Webhooks of one test call, by event type. */
  by_type: Record<string, number>;
  deliveries: number;
}

interface StepResult {
  rate_per_s: number;
  seconds: number;
  pass: boolean;
  failed_because: string[];
  calls: OpenLoopResult;
  webhooks: {
    expected: number;
    received: number;
    missing: number;
    final_expected: number;
    final_received: number;
    duplicates: number;
    unreadable: number;
    by_type: Record<string, number>;
    latency_ms: Percentiles | null;
    drained: boolean;
    drain_s: number;
  };
  postgres: { xacts: number; window_s: number; idle_share: number; xacts_per_call: number };
  service_rss_mb: { peak_sampled: number | null; vm_hwm: number | null; hwm_reset: boolean };
  /** Recordings the service wrote during the step (removed after it). */
  recordings: { files: number; mb: number };
  load_avg_1m: number;
  statements?: { statements_per_call: number; top: StatementRow[] };
}

export async function lifecycleBench(ctx: BenchContext): Promise<object> {
  const settings = readSettings();
  const receiver = await startReceiverProcess();
  let xacts: PgTransactionCounter | null = null;
  let service: ServiceProcess | null = null;
  let http: Pool | null = null;
  let statements: StatementProfile | null = null;
  try {
    if (settings.statements > 0) {
      statements = await StatementProfile.open(ctx.databaseUrl);
      if (!statements) ctx.log('BENCH_LIFECYCLE_STATEMENTS: pg_stat_statements is not preloaded on this server');
    }
    xacts = await PgTransactionCounter.open(ctx.databaseUrl);
    service = await startServiceProcess(ctx.databaseUrl, { SIM_TIME_SCALE: '0.001' });
    ctx.log(`service pid ${service.pid} at ${service.baseUrl}, receiver pid ${receiver.pid} at ${receiver.url}`);
    await postJson(`${service.baseUrl}/v1/webhook_endpoints`, service.apiKey, {
      url: `${receiver.url}/hook`,
      events: ['*'],
    });
    http = new Pool(service.baseUrl, { connections: 128, keepAliveTimeout: 30_000 });
    const rig: Rig = { ctx, service, receiver, xacts, http, statements };
    return await measure(rig, settings);
  } finally {
    await http?.close();
    const stopped = await service?.stop();
    if (stopped?.forced) ctx.log('the service did not stop within 15 s of SIGTERM and was killed');
    await receiver.close();
    await xacts?.close();
    await statements?.close();
  }
}

async function measure(rig: Rig, settings: Settings): Promise<object> {
  const { ctx } = rig;
  ctx.log(`start-up settling ${STATS_SETTLE_MS / 1000} s`);
  await sleep(STATS_SETTLE_MS);
  const idle = await measureIdle(rig, settings.idleSeconds);
  ctx.log(`idle: ${idle.xacts} transactions in ${idle.seconds} s = ${idle.xacts_per_s}/s`);

  const calibration = await calibrate(rig);
  ctx.log(`one test call: ${calibration.deliveries} webhooks ${JSON.stringify(calibration.by_type)}`);
  await sleep(STATS_SETTLE_MS);

  const steps: StepResult[] = [];
  let before = await rig.xacts.read();
  for (const rate of settings.rates) {
    const step = await runStep(rig, settings, rate, calibration, idle, before);
    steps.push(step.result);
    before = step.after;
    logStep(ctx, step.result);
    if (!step.result.pass) break;
  }
  return report(rig, settings, idle, calibration, steps);
}

function readSettings(): Settings {
  const ratesText = process.env.BENCH_LIFECYCLE_RATES ?? '20,50,75,100,125,150,200';
  const rates = ratesText.split(',').map((r) => Number(r.trim()));
  if (rates.length === 0 || rates.some((r) => !Number.isFinite(r) || r <= 0)) {
    throw new Error(`BENCH_LIFECYCLE_RATES must be positive numbers separated by commas, got "${ratesText}"`);
  }
  return {
    rates,
    seconds: numberFromEnv('BENCH_LIFECYCLE_SECONDS', 30),
    drainSeconds: numberFromEnv('BENCH_LIFECYCLE_DRAIN_SECONDS', 60),
    idleSeconds: numberFromEnv('BENCH_LIFECYCLE_IDLE_SECONDS', 10),
    statements: numberFromEnv('BENCH_LIFECYCLE_STATEMENTS', 0),
  };
}

/** Transactions per second of the service doing nothing, both readings taken after a quiet spell. */
async function measureIdle(rig: Rig, seconds: number): Promise<IdleResult> {
  const start = await rig.xacts.read();
  await sleep(seconds * 1000);
  const end = await rig.xacts.read();
  const elapsed = (end.at - start.at) / 1000;
  const count = end.xacts - start.xacts;
  return { seconds: round2(elapsed), xacts: count, xacts_per_s: round2(count / elapsed) };
}

/** Places one test call and counts its webhooks: what each call of the ladder should produce. */
async function calibrate(rig: Rig): Promise<Calibration> {
  await rig.receiver.reset();
  const calls = await runOpenLoop(loadOptions(rig, 1, 1));
  if (calls.ok !== 1) throw new Error(`the calibration call failed: ${calls.failures.join('; ')}`);
  const final = await rig.receiver.waitUntil((s) => (s.by_type[FINAL_EVENT] ?? 0) >= 1, 30_000);
  if (!final.met) throw new Error(`no ${FINAL_EVENT} webhook within 30 s of a test call`);
  // Anything that follows the final event (there should be nothing) has 2 s to arrive.
  await sleep(2_000);
  const stats = await rig.receiver.count();
  removeRecordings(rig.service.dataDir);
  return { by_type: stats.by_type, deliveries: stats.deliveries };
}

function loadOptions(rig: Rig, rate: number, seconds: number): Parameters<typeof runOpenLoop>[0] {
  return {
    dispatcher: rig.http,
    path: '/v1/calls',
    headers: { authorization: `Bearer ${rig.service.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(TEST_CALL),
    rate,
    durationMs: seconds * 1000,
    timeoutMs: POST_TIMEOUT_MS,
  };
}

async function runStep(
  rig: Rig,
  settings: Settings,
  rate: number,
  calibration: Calibration,
  idle: IdleResult,
  before: { xacts: number; at: number },
): Promise<{ result: StepResult; after: { xacts: number; at: number } }> {
  rig.ctx.log(`step ${rate} calls/s for ${settings.seconds} s`);
  await rig.receiver.reset();
  const hwmReset = resetPeakRss(rig.service.pid);
  const rss = sampleProcessRss(rig.service.pid);
  await rig.statements?.reset();
  const calls = await runOpenLoop(loadOptions(rig, rate, settings.seconds));
  const expected = calls.ok * calibration.deliveries;
  const drainStarted = Date.now();
  const drain = await rig.receiver.waitUntil(
    (s) => (s.by_type[FINAL_EVENT] ?? 0) >= calls.ok && s.deliveries >= expected,
    settings.drainSeconds * 1000,
  );
  const drainS = round2((Date.now() - drainStarted) / 1000);
  const memory = rss.stop();
  const received = await rig.receiver.snapshot();
  // Quiet until PostgreSQL has published every backend's counts of the step.
  await sleep(STATS_SETTLE_MS);
  const after = await rig.xacts.read();
  const postgres = stepTransactions(before, after, idle, calls.placed);
  const webhooks = webhookFigures(received, calls, expected, drain.met, drainS);
  const result: StepResult = {
    rate_per_s: rate,
    seconds: settings.seconds,
    pass: false,
    failed_because: [],
    calls,
    webhooks,
    postgres,
    service_rss_mb: { peak_sampled: memory.peak_sampled_mb, vm_hwm: memory.vm_hwm_mb, hwm_reset: hwmReset },
    recordings: removeRecordings(rig.service.dataDir),
    load_avg_1m: currentLoad(),
    ...(rig.statements ? { statements: await rig.statements.read(calls.placed, settings.statements) } : {}),
  };
  result.failed_because = failures(result);
  result.pass = result.failed_because.length === 0;
  return { result, after };
}

function webhookFigures(
  stats: ReceiverStats,
  calls: OpenLoopResult,
  expected: number,
  drained: boolean,
  drainS: number,
): StepResult['webhooks'] {
  return {
    expected,
    received: stats.deliveries,
    missing: Math.max(0, expected - stats.deliveries),
    final_expected: calls.ok,
    final_received: stats.by_type[FINAL_EVENT] ?? 0,
    duplicates: stats.duplicates,
    unreadable: stats.unreadable,
    by_type: stats.by_type,
    latency_ms: stats.latency_ms,
    drained,
    drain_s: drainS,
  };
}

/** The step's transactions: the counter's rise between the readings around it, less the idle rate meanwhile. */
function stepTransactions(
  before: { xacts: number; at: number },
  after: { xacts: number; at: number },
  idle: IdleResult,
  calls: number,
): StepResult['postgres'] {
  const windowS = (after.at - before.at) / 1000;
  const idleShare = idle.xacts_per_s * windowS;
  const xacts = Math.max(0, after.xacts - before.xacts - idleShare);
  return {
    xacts: Math.round(xacts),
    window_s: round2(windowS),
    idle_share: Math.round(idleShare),
    xacts_per_call: calls > 0 ? round2(xacts / calls) : 0,
  };
}

function failures(step: StepResult): string[] {
  const reasons: string[] = [];
  const p99 = step.webhooks.latency_ms?.p99 ?? Infinity;
  if (p99 > P99_LIMIT_MS) reasons.push(`webhook p99 ${p99} ms > ${P99_LIMIT_MS} ms`);
  const notOk = step.calls.placed - step.calls.ok;
  if (notOk > 0) reasons.push(`${notOk} of ${step.calls.placed} POST /v1/calls not answered 2xx`);
  if (!step.webhooks.drained) {
    reasons.push(
      `webhooks still missing after the drain: ${step.webhooks.missing} of ${step.webhooks.expected}, ` +
        `${step.webhooks.final_expected - step.webhooks.final_received} ${FINAL_EVENT}`,
    );
  }
  return reasons;
}

function logStep(ctx: BenchContext, step: StepResult): void {
  const l = step.webhooks.latency_ms;
  ctx.log(
    `  ${step.pass ? 'pass' : 'FAIL'}: ${step.calls.ok}/${step.calls.placed} calls 2xx ` +
      `(POST p50 ${step.calls.latency_ms.p50} p99 ${step.calls.latency_ms.p99} ms); ` +
      `webhooks ${step.webhooks.received}/${step.webhooks.expected} p50 ${l?.p50} p99 ${l?.p99} max ${l?.max} ms, ` +
      `drain ${step.webhooks.drain_s} s; ${step.postgres.xacts_per_call} pg xacts/call; ` +
      `RSS peak ${step.service_rss_mb.peak_sampled} MB; load ${step.load_avg_1m}`,
  );
  if (!step.pass) ctx.log(`  failed because: ${step.failed_because.join('; ')}`);
  if (step.statements) {
    ctx.log(`  ${step.statements.statements_per_call} statements per call; most executed (per call, ms, statement):`);
    for (const row of step.statements.top)
      ctx.log(`  ${String(row.per_call).padStart(8)} ${String(row.total_ms).padStart(7)}  ${row.query}`);
  }
}

function report(rig: Rig, settings: Settings, idle: IdleResult, calibration: Calibration, steps: StepResult[]): object {
  const passing = steps.filter((s) => s.pass);
  const knee = passing[passing.length - 1];
  const kneeRate = knee?.rate_per_s ?? 0;
  // The knee's step; with no passing step, the first (the lowest load measured).
  const rssStep = knee ?? steps[0];
  const peakRss = rssStep?.service_rss_mb.peak_sampled ?? 0;
  const first = steps[0];
  const xactsPerCall = first?.postgres.xacts_per_call ?? 0;
  rig.ctx.log(
    `knee ${kneeRate} calls/s; ${xactsPerCall} pg xacts/call at ${first?.rate_per_s} calls/s; ` +
      `idle ${idle.xacts_per_s} xacts/s; service peak RSS ${peakRss} MB`,
  );
  rig.ctx.check('lifecycle_knee_calls_per_s', kneeRate, 100);
  rig.ctx.check('lifecycle_pg_xacts_per_call', xactsPerCall, 40, 'max');
  rig.ctx.check('lifecycle_idle_pg_xacts_per_s', idle.xacts_per_s, 5, 'max');
  rig.ctx.check('lifecycle_peak_rss_mb', peakRss, 300, 'max');
  return {
    settings: {
      rates_per_s: settings.rates,
      seconds_per_step: settings.seconds,
      drain_seconds: settings.drainSeconds,
      idle_seconds: settings.idleSeconds,
      sim_time_scale: 0.001,
      p99_limit_ms: P99_LIMIT_MS,
      stats_settle_ms: STATS_SETTLE_MS,
    },
    knee_calls_per_s: kneeRate,
    pg_xacts_per_call_first_step: xactsPerCall,
    idle,
    peak_rss_mb: { value: peakRss, at_rate_per_s: rssStep?.rate_per_s ?? null, of: knee ? 'knee step' : 'first step' },
    webhooks_per_call: calibration,
    steps,
    service_log: { lines: rig.service.output.lines, last: rig.service.output.last.slice(-5) },
    note:
      'The service (node dist/main.js) and the webhook receiver run in child processes; RSS is of the service ' +
      'process alone. PostgreSQL transactions are of the benchmark database, including those of autovacuum.',
  };
}
