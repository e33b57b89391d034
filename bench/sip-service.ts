import { readdirSync, readFileSync } from 'node:fs';
import type { Pool } from 'pg';
import { round2 } from './percentiles';
import { ADMIN_TOKEN, postJson, type ServiceProcess, startServiceProcess } from './service-process';
import type { BenchContext } from './support';

/**
 * The answering side of `npm run bench -- sip` in its default mode (BENCH_SIP_ANSWER=service): the
 * real service, `node dist/main.js` in a child process (bench/service-process.ts), with its SIP user
 * agent on loopback (SIP_LISTEN) and the number SIPp dials assigned to a funded tenant with an agent.
 * Each INVITE goes the production path: inbound routing to the number's owner, a session, the 200,
 * then the built-in agent's conversation (greeting synthesised by the embedded flite helper, the
 * pocketsphinx helpers fed by SIPp's echo of it), recorded on two channels.
 *
 * The service's pacing and jitter buffer are in another process: their figures come from its
 * /metrics (admin token), read before and after each run: `sip_frame_lateness_ms` (a histogram, so
 * the percentiles are bucket upper bounds: 1, 2, 3, 5, 7.5, 10, 15, 20, 25 … ms),
 * `sip_jitter_buffer_underruns_total`, `sip_packets_lost_total`, `sip_calls_ended_total{by}`. The
 * sessions (answered, how they ended, how many at once, the rate they came in at) are read from the
 * sessions read model in the benchmark's database. CPU: the service process and its helper processes.
 */

export const SERVICE_NUMBER = '+14155550199';

/** The service's count of inbound calls refused for want of room (503). */
const REFUSED = 'sip_inbound_refused_total{limit="capacity"}';

export interface RunFigures {
  answered: number;
  /** Calls refused with 503 because the service had no room for them (docs/capacity.md). */
  refused: number;
  endedByRemoteBye: number;
  endedOtherwise: number;
  /** Sessions that ended `completed` (reason completed): the call answered and ended cleanly. */
  sessionsCompleted: number;
  maxAtOnce: number;
  achievedRate: number;
  frames: number;
  jitter: { p50: number; p95: number; p99: number; max: number };
  /** From each admitted call's 200 to its greeting's first audio (the service's histogram, bucket bounds in ms). */
  greeting: { calls: number; p50: number; p95: number; max: number };
  underruns: number;
  packetsLost: number;
  cpuCorePercent: number;
}

/** The side that answers SIPp's calls: the real service (here) or the user agent's own tone (sip-tone.ts). */
export interface Answerer {
  target: string;
  /** Marks the start of a run (metrics and CPU read now). */
  begin(): Promise<void>;
  /** After SIPp's run of `calls` calls: waits for their sessions to end, then the run's figures. */
  finish(calls: number): Promise<RunFigures>;
  stop(): Promise<void>;
}

type Metrics = Map<string, number>;

/** A session of a run, from the sessions read model (times in epoch milliseconds). */
interface SessionRow {
  status: string;
  endReason: string | null;
  created: number;
  started: number | null;
  ended: number | null;
}

async function readMetrics(baseUrl: string): Promise<Metrics> {
  const response = await fetch(`${baseUrl}/metrics`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  if (!response.ok) throw new Error(`/metrics answered ${response.status}`);
  const out: Metrics = new Map();
  for (const line of (await response.text()).split('\n')) {
    if (!line.startsWith('sip_') && !line.startsWith('conversation_greeting_first_audio_ms')) continue;
    const at = line.lastIndexOf(' ');
    out.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return out;
}

const diff = (after: Metrics, before: Metrics, key: string): number => (after.get(key) ?? 0) - (before.get(key) ?? 0);

/** Percentiles from a histogram's buckets between two reads (a bucket's upper bound): the frames' lateness by default. */
function histogramPercentiles(
  after: Metrics,
  before: Metrics,
  name = 'sip_frame_lateness_ms',
): { frames: number; p: RunFigures['jitter'] } {
  const buckets: [number, number][] = [];
  const bucket = new RegExp(`^${name}_bucket\\{le="([^"]+)"\\}$`);
  for (const key of after.keys()) {
    const m = bucket.exec(key);
    if (m && m[1] !== '+Inf') buckets.push([Number(m[1]), diff(after, before, key)]);
  }
  buckets.sort((a, b) => a[0] - b[0]);
  const frames = diff(after, before, `${name}_count`);
  const at = (q: number): number => {
    if (frames === 0) return 0;
    const hit = buckets.find(([, count]) => count >= q * frames);
    return hit ? hit[0] : Infinity;
  };
  const max = buckets.find(([, count]) => count >= frames)?.[0] ?? Infinity;
  return { frames, p: { p50: at(0.5), p95: at(0.95), p99: at(0.99), max } };
}

/** CPU seconds of a process and its live children (the speech helpers), and its reaped ones. */
function cpuSeconds(pid: number): number {
  const stat = (p: number | string): string[] | null => {
    try {
      return (readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1] ?? '').split(' ');
    } catch {
      return null;
    }
  };
  const own = stat(pid);
  if (!own) return 0;
  let ticks = Number(own[11]) + Number(own[12]) + Number(own[13]) + Number(own[14]);
  for (const entry of readdirSync('/proc').filter((e) => /^\d+$/.test(e))) {
    const s = stat(entry);
    if (s && Number(s[1]) === pid) ticks += Number(s[11]) + Number(s[12]);
  }
  return ticks / 100;
}

/** The built-in agent on SERVICE_NUMBER unless a benchmark gives its own (bench/sip-echo.bench.ts). */
const DEFAULT_AGENT = {
  prompt: 'You answer for Northwind Dental.',
  first_message: 'Northwind Dental, this is Ava. How can I help you today?',
};

/**
 * The service (`node dist/main.js`) with its SIP user agent on loopback (SIP_LISTEN), RTP on
 * `rtpPorts`, and SERVICE_NUMBER assigned to its funded tenant with `agent` answering it.
 */
export async function startSipService(
  ctx: BenchContext,
  opts: { sipPort: number; rtpPorts: string; agent?: Record<string, unknown> },
): Promise<ServiceProcess> {
  const svc: ServiceProcess = await startServiceProcess(ctx.databaseUrl, {
    SIP_LISTEN: `127.0.0.1:${opts.sipPort}`,
    SIP_ALLOWED_SOURCES: '127.0.0.1',
    // SIPp's calls all go to one tenant's number: neither the trunk's nor the tenant's calls-at-once
    // limit (both count inbound calls) is what this measures.
    SIP_MAX_CALLS: '100000',
    TENANT_MAX_CALLS: '100000',
    RTP_PORTS: opts.rtpPorts,
    LOG_LEVEL: 'error',
    // The service's own capacity (docs/capacity.md) unless the run sets it: its cap from the cores
    // and its measured headroom decide what it admits; the figures are the admitted calls'.
    ...(process.env.BENCH_MAX_CONVERSATIONS ? { MAX_CONVERSATIONS: process.env.BENCH_MAX_CONVERSATIONS } : {}),
    ...(process.env.BENCH_CAPACITY_HEADROOM ? { CAPACITY_HEADROOM: process.env.BENCH_CAPACITY_HEADROOM } : {}),
  });
  try {
    // Production calls are billed: a grant keeps the tenant funded through every run.
    await postJson(`${svc.baseUrl}/admin/v1/tenants/${svc.tenantId}/credits`, ADMIN_TOKEN, {
      amount_cents: 100_000_000,
    });
    await postJson(`${svc.baseUrl}/admin/v1/tenants/${svc.tenantId}/phone_numbers`, ADMIN_TOKEN, {
      phone_number: SERVICE_NUMBER,
      agent_config: opts.agent ?? DEFAULT_AGENT,
    });
  } catch (err) {
    await svc.stop();
    throw err;
  }
  return svc;
}

export async function startServiceAnswerer(
  ctx: BenchContext,
  opts: { sipPort: number; rtpPorts: string },
): Promise<Answerer> {
  const svc = await startSipService(ctx, opts);
  const pool: Pool = ctx.pool(2);
  let metricsBefore: Metrics = new Map();
  let cpuBefore = 0;
  let startedAt = 0;
  let since = new Date();
  return {
    target: `127.0.0.1:${opts.sipPort}`,
    async begin() {
      metricsBefore = await readMetrics(svc.baseUrl);
      cpuBefore = cpuSeconds(svc.pid);
      startedAt = performance.now();
      since = new Date();
    },
    async finish(calls) {
      // Every session of the run ended (the read model lags the calls a little).
      const deadline = performance.now() + 60_000;
      let rows: SessionRow[] = [];
      for (;;) {
        const result = await pool.query<{
          status: string;
          end_reason: string | null;
          created: string;
          started: string | null;
          ended: string | null;
        }>(
          `SELECT status, end_reason, extract(epoch FROM created_at) * 1000 AS created,
                  extract(epoch FROM started_at) * 1000 AS started, extract(epoch FROM ended_at) * 1000 AS ended
             FROM sessions WHERE direction = 'inbound' AND created_at >= $1`,
          [since],
        );
        rows = result.rows.map((r) => ({
          status: r.status,
          endReason: r.end_reason,
          created: Number(r.created),
          started: r.started === null ? null : Number(r.started),
          ended: r.ended === null ? null : Number(r.ended),
        }));
        // A refused call makes no session: the run is over when the others have ended.
        const refused = diff(await readMetrics(svc.baseUrl), metricsBefore, REFUSED);
        if ((rows.length + refused >= calls && rows.every((r) => r.ended !== null)) || performance.now() > deadline)
          break;
        await new Promise((r) => setTimeout(r, 250));
      }
      const after = await readMetrics(svc.baseUrl);
      const wallMs = performance.now() - startedAt;
      const cpu = cpuSeconds(svc.pid) - cpuBefore;
      const { frames, p } = histogramPercentiles(after, metricsBefore);
      const greeting = histogramPercentiles(after, metricsBefore, 'conversation_greeting_first_audio_ms');
      const created = rows.map((r) => r.created).sort((a, b) => a - b);
      const edges: [number, number][] = [];
      for (const r of rows) if (r.started !== null) edges.push([r.started, 1], [r.ended ?? Infinity, -1]);
      edges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
      let open = 0;
      let maxAtOnce = 0;
      for (const [, d] of edges) maxAtOnce = Math.max(maxAtOnce, (open += d));
      const remote = diff(after, metricsBefore, 'sip_calls_ended_total{direction="inbound",by="remote"}');
      const allEnded = [...after.keys()]
        .filter((k) => k.startsWith('sip_calls_ended_total{'))
        .reduce((sum, k) => sum + diff(after, metricsBefore, k), 0);
      return {
        answered: diff(after, metricsBefore, 'sip_calls_answered_total{direction="inbound"}'),
        refused: diff(after, metricsBefore, REFUSED),
        greeting: { calls: greeting.frames, p50: greeting.p.p50, p95: greeting.p.p95, max: greeting.p.max },
        endedByRemoteBye: remote,
        endedOtherwise: allEnded - remote,
        sessionsCompleted: rows.filter((r) => r.status === 'completed' && r.endReason === 'completed').length,
        maxAtOnce,
        achievedRate:
          created.length > 1
            ? round2(((created.length - 1) * 1000) / Math.max(1, (created.at(-1) ?? 0) - (created[0] ?? 0)))
            : 0,
        frames,
        jitter: p,
        underruns: diff(after, metricsBefore, 'sip_jitter_buffer_underruns_total'),
        packetsLost: diff(after, metricsBefore, 'sip_packets_lost_total'),
        cpuCorePercent: round2(((cpu * 1000) / wallMs) * 100),
      };
    },
    async stop() {
      const { forced } = await svc.stop();
      if (forced) ctx.log('sip: the service did not stop within 15 s (killed)');
    },
  };
}
