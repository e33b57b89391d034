import { spawn } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { percentiles, round2 } from './percentiles';
import { type Answerer, type RunFigures, SERVICE_NUMBER, startServiceAnswerer } from './sip-service';
import { startToneAnswerer } from './sip-tone';
import type { BenchContext } from './support';

/**
 * Inbound SIP calls under load: SIPp (Debian's `sip-tester`) places calls over UDP on loopback and
 * echoes the RTP it receives (`-rtp_echo`), so that audio flows both ways and our jitter buffer takes
 * a real stream in. Who answers (BENCH_SIP_ANSWER):
 * - `service` (the default): the real service, `node dist/main.js` in a child process, SIPp dialling a
 *   number assigned to a funded tenant: inbound routing, a session per call, the 200, and the built-in
 *   agent's conversation (its greeting synthesised by the embedded flite helper, the pocketsphinx
 *   helpers hearing SIPp's echo of it and the agent answering what it heard). The pacing and jitter
 *   figures come from the service's /metrics, the sessions from its database (bench/sip-service.ts).
 * - `tone`: the SIP user agent alone in this process, answering with its own `onInvite` handler and
 *   a 400 Hz tone (bench/sip-tone.ts): the SIP and RTP stack's own cost, exact per-frame figures.
 *
 * - Post-dial delay: SIPp's own response time of each INVITE's 200 (`-trace_rtt`, rtd from the
 *   INVITE sent to the 200 received); our 100 and 180 go out before the number is even looked up, so
 *   the 200 (after routing and the session's creation, in service mode) is the one that measures
 *   the platform. Target p95 ≤ 50 ms.
 * - Capacity (docs/capacity.md): the service admits what its cap and measured headroom allow and
 *   refuses the rest with 503 (SIPp acknowledges it and counts the call done); every figure below is
 *   the admitted calls', each level reports how many were admitted and refused, and its targets hold
 *   at every level. BENCH_MAX_CONVERSATIONS and BENCH_CAPACITY_HEADROOM set the service's.
 * - Simultaneous calls (BENCH_SIP_LEVELS, default 10,25,50,100): N calls placed at up to 25 per
 *   second (`-l N` at once), each held BENCH_SIP_HOLD_MS (8000) with RTP both ways, then SIPp's BYE.
 *   Outbound frame jitter: how late each frame left against its place on the 20 ms clock (in service
 *   mode the `sip_frame_lateness_ms` histogram: a bucket's upper bound, 15, 20, 25 … ms), p99 over
 *   every frame of every call; underruns: frames the jitter buffer had no audio for, after its first
 *   packet (sum over calls; the echo's start and end count). Targets at 50: jitter p99 ≤ 20 ms, no
 *   underrun. CPU: the answering side's user+system time over the level's wall time (in service mode
 *   the service process and its speech helpers; SIPp's own CPU not counted).
 * - Sustained new calls per second (BENCH_SIP_RATES, default 20,40,80,160,240,320,480,640): 4 s of
 *   calls at each rate, each held BENCH_SIP_RATE_HOLD_MS (1000); clean when SIPp saw every call
 *   through (200 to the INVITE and to the BYE, or a 503 for want of room), every admitted call ended
 *   here by the remote BYE (in service mode: every session ended `completed`), and, when none was
 *   refused, the rate achieved (first to last INVITE answered) was at least 90 % of the rate asked. The knee is the highest clean rate before the first that is
 *   not; a second knee also asks for jitter p99 ≤ 20 ms and post-dial delay p95 ≤ 50 ms.
 */

const HERE_TO_ROOT = ['..', '..', '..'];
const SCENARIO = resolve(__dirname, ...HERE_TO_ROOT, 'bench', 'sipp', 'uac-hold.xml');

export interface SippResult {
  code: number | null;
  rttMs: number[];
  output: string;
}

function envList(name: string, fallback: number[]): number[] {
  const raw = process.env[name];
  if (!raw) return fallback;
  return raw.split(',').map((x) => {
    const n = Number(x.trim());
    if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be positive integers separated by commas`);
    return n;
  });
}

/**
 * One SIPp run: `calls` calls at `rate` per second, at most `limit` at once, each held `holdMs`; by
 * default the uac-hold.xml scenario echoing RTP, else `scenario` (a file of bench/sipp), without
 * SIPp's echo when `rtpEcho` is false, with `keys` for its [keyword]s (`-key`).
 */
export function runSipp(
  target: string,
  opts: {
    calls: number;
    rate: number;
    limit: number;
    holdMs: number;
    scenario?: string;
    rtpEcho?: boolean;
    keys?: Record<string, string>;
  },
): Promise<SippResult> {
  const dir = mkdtempSync(join(tmpdir(), 'sipp-bench-'));
  const args = [
    target,
    '-sf',
    opts.scenario ? resolve(SCENARIO, '..', opts.scenario) : SCENARIO,
    '-i',
    '127.0.0.1',
    '-p',
    '0',
    '-mi',
    '127.0.0.1',
    '-mp',
    String(20000 + Math.floor(Math.random() * 5000) * 2),
    '-s',
    SERVICE_NUMBER,
    '-m',
    String(opts.calls),
    '-r',
    String(opts.rate),
    '-l',
    String(opts.limit),
    '-d',
    String(opts.holdMs),
    '-t',
    'u1',
    ...(opts.rtpEcho === false ? [] : ['-rtp_echo']),
    ...Object.entries(opts.keys ?? {}).flatMap(([key, value]) => ['-key', key, value]),
    '-nostdin',
    '-timeout',
    `${Math.ceil(opts.calls / opts.rate + opts.holdMs / 1000 + 30)}s`,
    '-timeout_error',
    '-trace_rtt',
    '-rtt_freq',
    '1',
    '-trace_err',
  ];
  return new Promise((done) => {
    const child = spawn('sipp', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (d: Buffer) => (output = (output + d.toString()).slice(-4000));
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('exit', (code) => {
      const rttMs: number[] = [];
      for (const file of readdirSync(dir).filter((f) => f.endsWith('_rtt.csv'))) {
        for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) {
          const value = Number(line.split(';')[1]);
          if (line.includes(';') && Number.isFinite(value)) rttMs.push(value);
        }
      }
      const errors = readdirSync(dir)
        .filter((f) => f.endsWith('errors.log'))
        .map((f) => readFileSync(join(dir, f), 'utf8'))
        .join('');
      rmSync(dir, { recursive: true, force: true });
      done({ code, rttMs, output: `${output}\n${errors.slice(-2000)}` });
    });
  });
}

export async function sipBench(ctx: BenchContext): Promise<object> {
  const holdMs = Number(process.env.BENCH_SIP_HOLD_MS ?? 8000);
  const rateHoldMs = Number(process.env.BENCH_SIP_RATE_HOLD_MS ?? 1000);
  const mode = process.env.BENCH_SIP_ANSWER ?? 'service';
  if (mode !== 'service' && mode !== 'tone') throw new Error('BENCH_SIP_ANSWER must be service or tone');
  const answerer: Answerer =
    mode === 'service'
      ? await startServiceAnswerer(ctx, { sipPort: await freeUdpPort(), rtpPorts: '50000-53999' })
      : await startToneAnswerer(ctx, { rtpFirst: 50000, rtpLast: 53999 });
  const target = answerer.target;
  const run = async (opts: { calls: number; rate: number; limit: number; holdMs: number }) => {
    await answerer.begin();
    const sipp = await runSipp(target, opts);
    return { sipp, figures: await answerer.finish(opts.calls) };
  };

  const pdd: number[] = [];
  const simultaneous: Record<string, object> = {};
  try {
    for (const n of envList('BENCH_SIP_LEVELS', [10, 25, 50, 100])) {
      const { sipp, figures: f } = await run({ calls: n, rate: Math.min(n, 25), limit: n, holdMs });
      pdd.push(...sipp.rttMs);
      simultaneous[String(n)] = {
        sipp_exit: sipp.code,
        ...figuresJson(f),
        post_dial_delay_ms: percentiles(sipp.rttMs),
        cpu_core_percent: f.cpuCorePercent,
        cpu_core_percent_per_call: round2(f.cpuCorePercent / Math.max(1, f.maxAtOnce)),
      };
      ctx.log(
        `sip: ${n} offered at once: ${f.answered} admitted, ${f.refused} refused (503); admitted: max ${f.maxAtOnce} at once, ` +
          `jitter p99 ${f.jitter.p99} ms, max ${f.jitter.max} ms, underruns ${f.underruns}, greeting p95 ${f.greeting.p95} ms, ` +
          `${f.sessionsCompleted}/${f.answered} ended cleanly, ${f.cpuCorePercent} % of a core, SIPp exit ${String(sipp.code)}`,
      );
      if (sipp.code !== 0) ctx.log(`sip: SIPp said: ${sipp.output.slice(-600)}`);
      // The admitted calls keep their quality at every offered load; the rest are refused 503 (docs/capacity.md).
      ctx.check(`jitter_p99_ms_at_${n}`, f.jitter.p99, 20, 'max');
      ctx.check(`underruns_at_${n}`, f.underruns, 0, 'max');
      ctx.check(`unaccounted_calls_at_${n}`, n - f.answered - f.refused, 0, 'max');
    }

    const rates: object[] = [];
    let knee = 0;
    let kneeWithMedia = 0;
    /** Every rate so far kept the media targets (jitter p99 ≤ 20 ms, post-dial delay p95 ≤ 50 ms). */
    let mediaHeld = true;
    for (const rate of envList('BENCH_SIP_RATES', [20, 40, 80, 160, 240, 320, 480, 640])) {
      const calls = rate * 4;
      const { sipp, figures: f } = await run({ calls, rate, limit: rate * 10, holdMs: rateHoldMs });
      const delay = percentiles(sipp.rttMs);
      // Every call answered and ended cleanly, or refused 503 for want of room; none broken.
      const clean =
        sipp.code === 0 &&
        f.answered + f.refused === calls &&
        f.endedByRemoteBye === f.answered &&
        f.sessionsCompleted === f.answered &&
        // The achieved rate is the admitted sessions': with refusals it is the cap's, not the offer's.
        (f.achievedRate >= rate * 0.9 || f.refused > 0);
      rates.push({
        calls_per_second: rate,
        calls,
        clean,
        sipp_exit: sipp.code,
        ...figuresJson(f),
        post_dial_delay_ms: delay,
      });
      ctx.log(
        `sip: ${rate} new calls/s (achieved ${f.achievedRate}, ${f.maxAtOnce} at once): ${clean ? 'clean' : 'NOT clean'}, ` +
          `${f.answered} admitted, ${f.refused} refused, ${f.sessionsCompleted}/${f.answered} ended cleanly, ` +
          `post-dial delay p95 ${delay.p95} ms, jitter p99 ${f.jitter.p99} ms`,
      );
      if (!clean) {
        ctx.log(`sip: SIPp said: ${sipp.output.slice(-300)}`);
        break;
      }
      // Past the knee the delays are the overload's: the post-dial delay counts clean runs only.
      pdd.push(...sipp.rttMs);
      knee = rate;
      mediaHeld &&= f.jitter.p99 <= 20 && delay.p95 <= 50;
      if (mediaHeld) kneeWithMedia = rate;
    }
    const delay = percentiles(pdd);
    ctx.check('post_dial_delay_p95_ms', delay.p95, 50, 'max');
    ctx.log(
      `sip: post-dial delay p50 ${delay.p50} ms, p95 ${delay.p95} ms over ${pdd.length} calls; knee ${knee} calls/s`,
    );
    return {
      answering:
        mode === 'service'
          ? 'the service (node dist/main.js): inbound routing to a tenant’s number, a session, the built-in agent with the embedded engines; SIPp echoing RTP'
          : 'the user agent’s own handler playing a 400 Hz tone (stand-in for the agent), SIPp echoing RTP',
      mode,
      hold_ms: holdMs,
      rate_hold_ms: rateHoldMs,
      post_dial_delay_ms: { ...delay, calls: pdd.length },
      simultaneous,
      new_calls_per_second: rates,
      knee_calls_per_second: knee,
      knee_within_media_targets_calls_per_second: kneeWithMedia,
    };
  } finally {
    await answerer.stop();
  }
}

function figuresJson(f: RunFigures): object {
  return {
    answered: f.answered,
    refused_503: f.refused,
    greeting_after_answer_ms: f.greeting,
    achieved_calls_per_second: f.achievedRate,
    max_at_once: f.maxAtOnce,
    ended_by_remote_bye: f.endedByRemoteBye,
    ended_otherwise: f.endedOtherwise,
    ended_cleanly: f.sessionsCompleted,
    frames_sent: f.frames,
    outbound_jitter_ms: f.jitter,
    underruns: f.underruns,
    packets_lost: f.packetsLost,
  };
}

/** A UDP port free on 127.0.0.1 now. */
export function freeUdpPort(): Promise<number> {
  const socket = createSocket('udp4');
  return new Promise((done) =>
    socket.bind(0, '127.0.0.1', () => {
      const { port } = socket.address();
      socket.close(() => done(port));
    }),
  );
}
