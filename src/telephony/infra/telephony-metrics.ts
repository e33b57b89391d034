import { Inject, Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { RuntimeMetrics } from '../../runtime/observability/runtime-metrics';
import type { PhoneMedia } from './rtp/rtp-call-media';
import type { SipUserAgent } from './sip/sip-user-agent';
import { SIP_USER_AGENT } from '../telephony.tokens';

/**
 * The phone calls' media figures at /metrics (docs/telephony.md, "Metrics"): how late each 20 ms
 * frame we send leaves against its place on the call's media clock (choppy audio shows here first),
 * the jitter buffer's underruns and the packets lost on the way in, and the calls answered and ended
 * by how they ended. `npm run bench -- sip` reads them from the service process it starts.
 */
@Injectable()
export class TelephonyMetrics {
  private readonly registry = new Registry();
  private readonly lateness = new Histogram({
    name: 'sip_frame_lateness_ms',
    help: "How late each outbound 20 ms RTP frame left against its place on the call's media clock.",
    buckets: [1, 2, 3, 5, 7.5, 10, 15, 20, 25, 30, 40, 50, 75, 100, 200],
    registers: [this.registry],
  });
  private readonly underruns = new Counter({
    name: 'sip_jitter_buffer_underruns_total',
    help: "20 ms frames the jitter buffer had no audio for (after the peer's first packet), summed when calls end.",
    registers: [this.registry],
  });
  private readonly lost = new Counter({
    name: 'sip_packets_lost_total',
    help: 'RTP packets of the other party that never arrived (or too late), summed when calls end.',
    registers: [this.registry],
  });
  private readonly answered = new Counter({
    name: 'sip_calls_answered_total',
    help: 'Calls answered, by direction.',
    labelNames: ['direction'],
    registers: [this.registry],
  });
  private readonly ended = new Counter({
    name: 'sip_calls_ended_total',
    help: 'Answered calls ended, by direction and by what ended them (remote, agent, lost, voicemail, shutdown, error).',
    labelNames: ['direction', 'by'],
    registers: [this.registry],
  });

  private readonly refused = new Counter({
    name: 'sip_inbound_refused_total',
    help: "Inbound calls refused by a limit: this instance's capacity (capacity, 503), SIP_MAX_CALLS (trunk, 503) or TENANT_MAX_CALLS (tenant, 486).",
    labelNames: ['limit'],
    registers: [this.registry],
  });

  constructor(metrics: RuntimeMetrics, @Inject(SIP_USER_AGENT) ua: SipUserAgent | null) {
    metrics.contribute(this.registry);
    if (!ua) return;
    new Gauge({
      name: 'sip_state_entries',
      help: 'What the SIP user agent holds, by kind (calls, pending invites, transactions, TCP connections, RTP ports): each goes within 32 s of its call or transaction.',
      labelNames: ['kind'],
      registers: [this.registry],
      collect() {
        for (const [kind, n] of Object.entries(ua.stateSizes())) this.set({ kind }, n);
      },
    });
    new Gauge({
      name: 'process_heap_used_bytes',
      help: 'The V8 heap in use in the process that runs SIP and media (process.memoryUsage().heapUsed).',
      registers: [this.registry],
      collect() {
        this.set(process.memoryUsage().heapUsed);
      },
    });
  }

  inboundRefused(limit: 'capacity' | 'trunk' | 'tenant'): void {
    this.refused.inc({ limit });
  }

  /** Watches an answered call's media; the function returned counts its end (once). */
  callAnswered(media: PhoneMedia, direction: 'inbound' | 'outbound'): (by: string) => void {
    this.answered.inc({ direction });
    media.onPacing((lateMs) => this.lateness.observe(lateMs));
    let counted = false;
    return (by) => {
      if (counted) return;
      counted = true;
      media.onPacing(null);
      this.underruns.inc(media.stats.underruns);
      this.lost.inc(media.stats.lost);
      this.ended.inc({ direction, by });
    };
  }
}
