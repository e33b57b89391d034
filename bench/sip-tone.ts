import { RtpCallMedia, type RtpMediaSession, SipUserAgent } from '../src/telephony';
import { percentiles, round2 } from './percentiles';
import type { Answerer } from './sip-service';
import type { BenchContext } from './support';

/**
 * The answering side of `npm run bench -- sip` with BENCH_SIP_ANSWER=tone: the SIP user agent alone,
 * in this process, answering every INVITE with its own handler (`onInvite`) and playing a 400 Hz tone
 * on the media session's 20 ms clock (a stand-in for the agent's voice): no routing, no session, no
 * conversation. It isolates the SIP and RTP stack's own cost; the figures are exact (every frame's
 * lateness from `RtpMediaSession.onPacing`), not a histogram's buckets.
 */

/** A 400 Hz tone: eight whole cycles in 160 samples, so frame after frame it loops seamlessly. */
const TONE = Int16Array.from({ length: 160 }, (_, i) => Math.round(Math.sin((2 * Math.PI * 400 * i) / 8000) * 6000));

interface Level {
  answered: number;
  endedRemote: number;
  endedOther: number;
  lateness: number[];
  underruns: number;
  lost: number;
  active: number;
  maxActive: number;
  /** performance.now() of the first and the last INVITE answered. */
  firstAt: number;
  lastAt: number;
}

const newLevel = (): Level => ({
  answered: 0,
  endedRemote: 0,
  endedOther: 0,
  lateness: [],
  underruns: 0,
  lost: 0,
  active: 0,
  maxActive: 0,
  firstAt: 0,
  lastAt: 0,
});

export async function startToneAnswerer(
  ctx: BenchContext,
  opts: { rtpFirst: number; rtpLast: number },
): Promise<Answerer> {
  const ua = new SipUserAgent({
    listenHost: '127.0.0.1',
    listenPort: 0,
    media: new RtpCallMedia({ host: '127.0.0.1', ports: { first: opts.rtpFirst, last: opts.rtpLast } }),
    onError: (error) => ctx.log(`user agent: ${error.message}`),
  });
  await ua.start();
  let level = newLevel();
  let cpu = process.cpuUsage();
  let startedAt = 0;
  ua.onInvite((invite) => {
    const current = level;
    current.answered++;
    current.lastAt = performance.now();
    if (current.answered === 1) current.firstAt = current.lastAt;
    current.active++;
    current.maxActive = Math.max(current.maxActive, current.active);
    invite.call.onEnded((end) => {
      current.active--;
      if (end.by === 'remote') current.endedRemote++;
      else current.endedOther++;
      if (!invite.call.hasMedia) return;
      current.underruns += invite.call.media.stats.underruns;
      current.lost += invite.call.media.stats.lost;
    });
    return Promise.resolve({
      answered: (media: RtpMediaSession) => {
        media.play({ nextFrame: () => TONE });
        media.onPacing((lateMs) => current.lateness.push(lateMs));
      },
    });
  });
  return {
    target: `127.0.0.1:${ua.address.port}`,
    begin() {
      level = newLevel();
      cpu = process.cpuUsage();
      startedAt = performance.now();
      return Promise.resolve();
    },
    async finish(calls) {
      const until = performance.now() + 5000;
      while (level.active > 0 && performance.now() < until) await new Promise((r) => setTimeout(r, 50));
      const used = process.cpuUsage(cpu);
      const jitter = percentiles(level.lateness);
      return {
        answered: level.answered,
        refused: 0,
        greeting: { calls: 0, p50: 0, p95: 0, max: 0 },
        endedByRemoteBye: level.endedRemote,
        endedOtherwise: level.endedOther,
        // No sessions here: a call answered and ended by the caller's BYE is the clean end.
        sessionsCompleted: Math.min(calls, level.endedRemote),
        maxAtOnce: level.maxActive,
        achievedRate: calls > 1 ? round2(((calls - 1) * 1000) / Math.max(1, level.lastAt - level.firstAt)) : 0,
        frames: level.lateness.length,
        jitter: { p50: jitter.p50, p95: jitter.p95, p99: jitter.p99, max: jitter.max },
        underruns: level.underruns,
        packetsLost: level.lost,
        cpuCorePercent: round2(((used.user + used.system) / 1000 / (performance.now() - startedAt)) * 100),
      };
    },
    stop: () => ua.stop(),
  };
}
