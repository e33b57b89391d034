import { IntervalHistogram, monitorEventLoopDelay } from 'node:perf_hooks';
import { Pool } from 'undici';
import { sleep } from './child-process';
import { kneeOf } from './lifecycle-figures';
import { runOpenLoop, OpenLoopResult } from './open-loop';
import { Percentiles, round2 } from './percentiles';
import { clusterCpuMs, PgTransactionCounter, processCpuMs, resetPeakRss, sampleProcessRss } from './probes';
import type { ReceiverStats } from './receiver';
import { startInlineReceiver } from './receiver-inline';
import { startReceiverProcess, WebhookReceiver } from './receiver-process';
import { postJson, removeRecordings, ServiceProcess, startServiceProcess } from './service-process';
import { StatementProfile, StatementRow } from './statement-profile';
import { BenchContext, currentLoad } from './support';

/**
 * One run of the lifecycle benchmark (lifecycle.bench.ts says what it measures): one service
 * process on one database, one webhook receiver, the idle phase, the calibration call, the
 * transactions phase and the ladder. The comparison mode calls it once per build and round, each
 * time on a fresh database and a fresh service.
 */

const TEST_CALL = {
  to: '+14155550100',
  from: '+14155550000',
  agent_config: { prompt: 'bench' },
  test_mode: true,
};
/** The last webhook of a completed test call: its recording, tens of simulated seconds after hang-up. */
const FINAL_EVENT = 'session.recording_completed';
export const P99_LIMIT_MS = 250;
/** PostgreSQL publishes an idle backend's counts within 10 s (PGSTAT_IDLE_INTERVAL): wait a little longer. */
export const STATS_SETTLE_MS = 12_000;
const POST_TIMEOUT_MS = 30_000;
/** The bench process's event-loop delay histogram resolution (perf_hooks.monitorEventLoopDelay). */
const LOOP_DELAY_RESOLUTION_MS = 10;

export type ReceiverMode = 'process' | 'inline';

export interface LadderSettings {
  /** The ladder's rates, climbed until a step fails. */
  rates: number[];
  /** The transactions phase's rates, each run once before the ladder whatever its outcome. */
  xactRates: number[];
  seconds: number;
  drainSeconds: number;
  idleSeconds: number;
  receiver: ReceiverMode;
  /** Statements per call to print per step (BENCH_LIFECYCLE_STATEMENTS); 0 for none. */
  statements: number;
}

export interface RunOptions {
  ctx: BenchContext;
  databaseUrl: string;
  /** The service's dist/main.js; undefined: BENCH_SERVICE_ENTRY, else this build's. */
  entry?: string;
  settings: LadderSettings;
  /** Prefixes the run's log lines (the build's name in the comparison). */
  label: string;
}

interface Rig {
  log(line: string): void;
  service: ServiceProcess;
  receiver: WebhookReceiver;
  xacts: PgTransactionCounter;
  http: Pool;
  statements: StatementProfile | null;
  statementCount: number;
  /** The PostgreSQL cluster's postmaster, when it runs on this machine (-1 when not). */
  postmaster: number;
}

export interface IdleResult {
  seconds: number;
  xacts: number;
  xacts_per_s: number;
}

export interface Calibration {
  /** Webhooks of one test call, by event type. */
  by_type: Record<string, number>;
  deliveries: number;
}

export interface StepResult {
  /** `xacts`: the transactions phase (never stops anything); `ladder`: a step of the knee's ladder. */
  phase: 'xacts' | 'ladder';
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
  /**
   * The benchmark process's own event-loop delay during the step and its drain: the load
   * generator's (and, inline, the receiver's) lateness. High values mean the rig, not the service,
   * set the latencies.
   */
  bench_event_loop_delay_ms: { p50: number; p99: number; max: number };
  /**
   * CPU ms per call placed, spent during the step and its drain by the service process, the
   * PostgreSQL cluster (all its processes), the receiver process (0 when inline) and this process
   * (the load generator, and the receiver when inline): where a call's cost goes on this machine.
   */
  cpu_ms_per_call: CpuPerCall;
  /** Recordings the service wrote during the step (removed after it). */
  recordings: { files: number; mb: number };
  load_avg_1m: number;
  /** With BENCH_LIFECYCLE_STATEMENTS and pg_stat_statements preloaded: the most executed statements. */
  statements?: { statements_per_call: number; top: StatementRow[] };
}

export interface LifecycleRun {
  entry: string;
  receiver: ReceiverMode;
  idle: IdleResult;
  calibration: Calibration;
  steps: StepResult[];
  knee_calls_per_s: number;
  service_log: { lines: number; last: string[] };
}

export async function runLifecycle(options: RunOptions): Promise<LifecycleRun> {
  const { ctx, settings, label } = options;
  const log = (line: string): void => ctx.log(label ? `[${label}] ${line}` : line);
  const receiver = settings.receiver === 'inline' ? await startInlineReceiver() : await startReceiverProcess();
  let xacts: PgTransactionCounter | null = null;
  let service: ServiceProcess | null = null;
  let http: Pool | null = null;
  let statements: StatementProfile | null = null;
  try {
    if (settings.statements > 0) {
      statements = await StatementProfile.open(options.databaseUrl);
      if (!statements) log('BENCH_LIFECYCLE_STATEMENTS: pg_stat_statements is not preloaded on this server');
    }
    xacts = await PgTransactionCounter.open(options.databaseUrl);
    service = await startServiceProcess(options.databaseUrl, { SIM_TIME_SCALE: '0.001' }, options.entry);
    log(
      `service pid ${service.pid} (${service.entry}) at ${service.baseUrl}, ` +
        `receiver ${settings.receiver === 'inline' ? 'inline in' : 'process'} pid ${receiver.pid} at ${receiver.url}`,
    );
    await postJson(`${service.baseUrl}/v1/webhook_endpoints`, service.apiKey, {
      url: `${receiver.url}/hook`,
      events: ['*'],
    });
    http = new Pool(service.baseUrl, { connections: 128, keepAliveTimeout: 30_000 });
    const rig: Rig = {
      log,
      service,
      receiver,
      xacts,
      http,
      statements,
      statementCount: settings.statements,
      postmaster: await xacts.postmaster(),
    };
    const { idle, calibration, steps } = await measure(rig, settings);
    return {
      entry: service.entry,
      receiver: settings.receiver,
      idle,
      calibration,
      steps,
      knee_calls_per_s: kneeOf(steps),
      service_log: { lines: service.output.lines, last: service.output.last.slice(-5) },
    };
  } finally {
    await http?.close();
    const stopped = await service?.stop();
    if (stopped?.forced) log('the service did not stop within 15 s of SIGTERM and was killed');
    await receiver.close();
    await xacts?.close();
    await statements?.close();
  }
}

async function measure(
  rig: Rig,
  settings: LadderSettings,
): Promise<{ idle: IdleResult; calibration: Calibration; steps: StepResult[] }> {
  rig.log(`start-up settling ${STATS_SETTLE_MS / 1000} s`);
  await sleep(STATS_SETTLE_MS);
  const idle = await measureIdle(rig, settings.idleSeconds);
  rig.log(`idle: ${idle.xacts} transactions in ${idle.seconds} s = ${idle.xacts_per_s}/s`);

  const calibration = await calibrate(rig);
  rig.log(`one test call: ${calibration.deliveries} webhooks ${JSON.stringify(calibration.by_type)}`);
  await sleep(STATS_SETTLE_MS);

  const steps: StepResult[] = [];
  let before = await rig.xacts.read();
  const plan = [
    ...settings.xactRates.map((rate) => ({ phase: 'xacts' as const, rate })),
    ...settings.rates.map((rate) => ({ phase: 'ladder' as const, rate })),
  ];
  for (const { phase, rate } of plan) {
    const step = await runStep(rig, settings, phase, rate, calibration, idle, before);
    steps.push(step.result);
    before = step.after;
    logStep(rig, step.result);
    if (phase === 'ladder' && !step.result.pass) break;
  }
  return { idle, calibration, steps };
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
  settings: LadderSettings,
  phase: StepResult['phase'],
  rate: number,
  calibration: Calibration,
  idle: IdleResult,
  before: { xacts: number; at: number },
): Promise<{ result: StepResult; after: { xacts: number; at: number } }> {
  rig.log(`${phase === 'xacts' ? 'transactions phase' : 'step'} ${rate} calls/s for ${settings.seconds} s`);
  await rig.receiver.reset();
  const hwmReset = resetPeakRss(rig.service.pid);
  const rss = sampleProcessRss(rig.service.pid);
  const loop = monitorEventLoopDelay({ resolution: LOOP_DELAY_RESOLUTION_MS });
  loop.enable();
  await rig.statements?.reset();
  const cpuBefore = rigCpu(rig);
  const calls = await runOpenLoop(loadOptions(rig, rate, settings.seconds));
  const expected = calls.ok * calibration.deliveries;
  const drainStarted = Date.now();
  const drain = await rig.receiver.waitUntil(
    (s) => (s.by_type[FINAL_EVENT] ?? 0) >= calls.ok && s.deliveries >= expected,
    settings.drainSeconds * 1000,
  );
  const drainS = round2((Date.now() - drainStarted) / 1000);
  loop.disable();
  const cpu = cpuPerCall(cpuBefore, rigCpu(rig), calls.placed);
  const memory = rss.stop();
  const received = await rig.receiver.snapshot();
  // Quiet until PostgreSQL has published every backend's counts of the step.
  await sleep(STATS_SETTLE_MS);
  const after = await rig.xacts.read();
  const result: StepResult = {
    phase,
    rate_per_s: rate,
    seconds: settings.seconds,
    pass: false,
    failed_because: [],
    calls,
    webhooks: webhookFigures(received, calls, expected, drain.met, drainS),
    postgres: stepTransactions(before, after, idle, calls.placed),
    service_rss_mb: { peak_sampled: memory.peak_sampled_mb, vm_hwm: memory.vm_hwm_mb, hwm_reset: hwmReset },
    bench_event_loop_delay_ms: loopDelay(loop),
    cpu_ms_per_call: cpu,
    recordings: removeRecordings(rig.service.dataDir),
    load_avg_1m: currentLoad(),
    ...(rig.statements ? { statements: await rig.statements.read(calls.placed, rig.statementCount) } : {}),
  };
  result.failed_because = failures(result);
  result.pass = result.failed_because.length === 0;
  return { result, after };
}

interface CpuPerCall {
  service: number | null;
  postgres: number | null;
  receiver: number | null;
  bench: number;
}

function rigCpu(rig: Rig): CpuPerCall {
  const own = process.cpuUsage();
  return {
    service: processCpuMs(rig.service.pid),
    postgres: clusterCpuMs(rig.postmaster),
    receiver: rig.receiver.pid === process.pid ? 0 : processCpuMs(rig.receiver.pid),
    bench: (own.user + own.system) / 1000,
  };
}

function cpuPerCall(before: CpuPerCall, after: CpuPerCall, calls: number): CpuPerCall {
  const per = (a: number | null, b: number | null): number | null =>
    a === null || b === null ? null : round2((b - a) / Math.max(1, calls));
  return {
    service: per(before.service, after.service),
    postgres: per(before.postgres, after.postgres),
    receiver: per(before.receiver, after.receiver),
    bench: round2((after.bench - before.bench) / Math.max(1, calls)),
  };
}

/**
 * The histogram holds, in nanoseconds, the intervals between its timer's wake-ups (on Node 20 an idle
 * loop reads about the resolution itself, 10 ms): the resolution is taken off, leaving the delay.
 */
function loopDelay(loop: IntervalHistogram): StepResult['bench_event_loop_delay_ms'] {
  const delay = (ns: number): number => round2(Math.max(0, ns / 1e6 - LOOP_DELAY_RESOLUTION_MS));
  return { p50: delay(loop.percentile(50)), p99: delay(loop.percentile(99)), max: delay(loop.max) };
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

function logStep(rig: Rig, step: StepResult): void {
  const l = step.webhooks.latency_ms;
  const lag = step.bench_event_loop_delay_ms;
  const cpu = step.cpu_ms_per_call;
  rig.log(
    `  ${step.pass ? 'pass' : 'FAIL'}: ${step.calls.ok}/${step.calls.placed} calls 2xx ` +
      `(POST p50 ${step.calls.latency_ms.p50} p99 ${step.calls.latency_ms.p99} ms); ` +
      `webhooks ${step.webhooks.received}/${step.webhooks.expected} p50 ${l?.p50} p99 ${l?.p99} max ${l?.max} ms, ` +
      `drain ${step.webhooks.drain_s} s; ${step.postgres.xacts_per_call} pg xacts/call; ` +
      `RSS peak ${step.service_rss_mb.peak_sampled} MB; bench loop delay p99 ${lag.p99} max ${lag.max} ms; ` +
      `CPU ms/call service ${cpu.service} postgres ${cpu.postgres} receiver ${cpu.receiver} bench ${cpu.bench}; ` +
      `load ${step.load_avg_1m}`,
  );
  if (!step.pass) rig.log(`  failed because: ${step.failed_because.join('; ')}`);
  if (step.statements) {
    rig.log(`  ${step.statements.statements_per_call} statements per call; most executed (per call, ms, statement):`);
    for (const row of step.statements.top)
      rig.log(`  ${String(row.per_call).padStart(8)} ${String(row.total_ms).padStart(7)}  ${row.query}`);
  }
}
