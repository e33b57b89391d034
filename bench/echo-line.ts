import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import { decodeUlaw, encodeUlaw } from '../src/kernel/audio/g711';
import { parseRtp, serialiseRtp } from '../src/telephony/infra/rtp/rtp-packet';
import { sleep } from './child-process';

/** 20 ms at 8 kHz. */
const FRAME = 160;
const FRAME_MS = 20;
/** A decoded frame louder than this (RMS) is voiced: the agent speaking, or the caller (as voice-client.ts). */
const VOICE_RMS = 300;

/**
 * The far end of a phone call for the echo benchmark (bench/sip-echo.bench.ts): the RTP endpoint
 * that SIPp's SDP names, a UDP socket in this process. It receives the agent's G.711 μ-law RTP and
 * sends the line back on a 20 ms clock, every frame the sum of
 * - the agent's own voice of `echoDelayMs` earlier, attenuated by `echoLossDb` (a line's hybrid
 *   echo: the agent hears itself, later and softer): the frame that many frames behind on the
 *   agent's stream (by RTP timestamp), so that the delay is fixed whatever the packets' jitter, and
 * - the caller's speech, when the script speaks (prepared 8 kHz utterances, silence otherwise),
 * encoded μ-law (the repository's G.711). It notes when each of the agent's voiced frames arrived and
 * when each of the caller's voiced frames went out. It sends to the address the agent's RTP comes
 * from (the service sends from the port it listens on), so it starts once the agent's first packet is in.
 */
export class EchoLine {
  /** Arrival times (epoch ms) of the agent's voiced frames, and the count of all its packets. */
  readonly agentVoiced: number[] = [];
  agentPackets = 0;
  /** When each voiced frame of the caller's speech was sent (epoch ms). */
  readonly callerVoiced: number[] = [];
  /** Frames sent, and the agent's frames not echoed (they arrived after their echo's time). */
  sent = 0;
  echoDropped = 0;
  private readonly gain: number;
  /** The agent's frames by their place on its stream (RTP timestamp ÷ 160 from its first), until echoed. */
  private readonly agentFrames = new Map<number, Int16Array>();
  private firstTimestamp: number | null = null;
  /** This side's tick: frame `tick` goes out 20 ms × tick after the agent's first frame arrived. */
  private tick = 0;
  private readonly delayFrames: number;
  private readonly speech: Int16Array[] = [];
  private speechStartedAt: number | null = null;
  private speechEndedAt: number | null = null;
  private remote: { address: string; port: number } | null = null;
  private timer: NodeJS.Timeout | null = null;
  private sequence = Math.floor(Math.random() * 0xffff);
  private timestamp = Math.floor(Math.random() * 0xffffffff);
  private readonly ssrc = Math.floor(Math.random() * 0xffffffff);
  private closed = false;

  private constructor(
    private readonly socket: Socket,
    readonly port: number,
    echoDelayMs: number,
    echoLossDb: number,
  ) {
    this.gain = 10 ** (-echoLossDb / 20);
    this.delayFrames = Math.round(echoDelayMs / FRAME_MS);
    socket.on('message', (data, from) => this.received(data, from));
  }

  static async open(opts: { echoDelayMs: number; echoLossDb: number }): Promise<EchoLine> {
    const socket = createSocket('udp4');
    const port = await new Promise<number>((done, fail) => {
      socket.once('error', fail);
      socket.bind(0, '127.0.0.1', () => done(socket.address().port));
    });
    return new EchoLine(socket, port, opts.echoDelayMs, opts.echoLossDb);
  }

  /** Queues an utterance (8 kHz mono); resolves when its last frame went out, with its first and last voiced frames' times. */
  async speak(pcm: Int16Array): Promise<{ startedAt: number; endedAt: number }> {
    this.speechStartedAt = null;
    this.speechEndedAt = null;
    for (let i = 0; i < pcm.length; i += FRAME) {
      const frame = new Int16Array(FRAME);
      frame.set(pcm.subarray(i, i + FRAME));
      this.speech.push(frame);
    }
    while (this.speech.length > 0 && !this.closed) await sleep(5);
    const endedAt = this.speechEndedAt ?? Date.now();
    return { startedAt: this.speechStartedAt ?? endedAt, endedAt };
  }

  /** The first voiced agent frame that arrived after `after`, waiting up to `timeoutMs`; null if none. */
  async agentStartsAfter(after: number, timeoutMs: number): Promise<number | null> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const first = this.agentVoiced.find((t) => t > after);
      if (first !== undefined) return first;
      if (Date.now() > deadline || this.closed) return null;
      await sleep(5);
    }
  }

  /** Waits until the agent has been quiet for `quietMs` (or `timeoutMs` passed); the time of its last voiced frame. */
  async agentQuiet(quietMs: number, timeoutMs: number): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const last = this.agentVoiced[this.agentVoiced.length - 1] ?? 0;
      if (Date.now() - last >= quietMs || Date.now() > deadline || this.closed) return last;
      await sleep(10);
    }
  }

  /** Whether the agent's voice arrived within the last `ms` before `at`. */
  agentVoicedWithin(at: number, ms: number): boolean {
    for (let i = this.agentVoiced.length - 1; i >= 0; i--) {
      const t = this.agentVoiced[i] ?? 0;
      if (t <= at) return t > at - ms;
    }
    return false;
  }

  close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    return new Promise((done) => this.socket.close(() => done()));
  }

  private received(data: Buffer, from: RemoteInfo): void {
    const packet = parseRtp(data);
    if (!packet || packet.payloadType !== 0 || this.closed) return;
    const now = Date.now();
    this.agentPackets++;
    const samples = decodeUlaw(packet.payload);
    if (rms(samples) > VOICE_RMS) this.agentVoiced.push(now);
    this.firstTimestamp ??= packet.timestamp;
    const index = Math.round(((packet.timestamp - this.firstTimestamp) >>> 0) / FRAME);
    // Late beyond its echo's time: not echoed (a line loses nothing, but the far end cannot send it back before it came).
    if (index + this.delayFrames >= this.tick) this.agentFrames.set(index, samples);
    else this.echoDropped++;
    if (!this.remote) {
      this.remote = { address: from.address, port: from.port };
      this.startClock();
    }
  }

  /**
   * One frame every 20 ms on a clock of its own, from the agent's first frame's arrival: late ticks
   * are caught up, a stall of over 100 ms is skipped (its ticks, and the echo they held, lost).
   */
  private startClock(): void {
    const start = Date.now();
    const tick = (): void => {
      if (this.closed) return;
      const now = Date.now();
      const due = Math.floor((now - start) / FRAME_MS);
      if (due - this.tick > 5) this.tick = due - 5;
      while (this.tick <= due) {
        this.send(now);
        this.tick++;
      }
      this.timer = setTimeout(tick, Math.max(1, start + this.tick * FRAME_MS - Date.now()));
    };
    tick();
  }

  private send(now: number): void {
    const remote = this.remote;
    if (!remote) return;
    const out = new Float64Array(FRAME);
    // The echo: the agent's frame of `delayFrames` ticks ago on its own stream (a line's echo is a
    // fixed delay of the signal, whatever the packets' arrival jitter), attenuated.
    const echoed = this.tick - this.delayFrames;
    const echo = this.agentFrames.get(echoed);
    for (const index of this.agentFrames.keys()) if (index <= echoed) this.agentFrames.delete(index);
    if (echo) for (let i = 0; i < FRAME; i++) out[i] = (echo[i] ?? 0) * this.gain;
    const speech = this.speech.shift();
    if (speech) {
      if (rms(speech) > VOICE_RMS) {
        this.callerVoiced.push(now);
        this.speechStartedAt ??= now;
        this.speechEndedAt = now;
      }
      for (let i = 0; i < FRAME; i++) out[i] = (out[i] ?? 0) + (speech[i] ?? 0);
    }
    const pcm = new Int16Array(FRAME);
    for (let i = 0; i < FRAME; i++) pcm[i] = Math.max(-32768, Math.min(32767, Math.round(out[i] ?? 0)));
    const packet = serialiseRtp({
      payloadType: 0,
      marker: this.sent === 0,
      sequence: this.sequence,
      timestamp: this.timestamp,
      ssrc: this.ssrc,
      payload: encodeUlaw(pcm),
    });
    this.sequence = (this.sequence + 1) & 0xffff;
    this.timestamp = (this.timestamp + FRAME) >>> 0;
    this.sent++;
    this.socket.send(packet, remote.port, remote.address);
  }
}

function rms(samples: Int16Array): number {
  let sum = 0;
  for (const s of samples) sum += s * s;
  return samples.length > 0 ? Math.sqrt(sum / samples.length) : 0;
}
