/**
 * One call's RTP on the media thread (rtp-thread.worker.ts): the RTP and RTCP sockets on an even/odd
 * port pair, G.711 both ways, the jitter buffer, RFC 4733 digits and RTCP reports. It has no clock of
 * its own: the media thread's 20 ms clock calls `tick` for every stream at once, and what a tick did
 * (the frame sent, the frame heard, the figures) is reported to the call's session on the main thread
 * (rtp-media-session.ts).
 * - Out: each tick sends the next frame of the agent's audio that the session queued ahead
 *   (`queue`), or silence when none is queued, with a steady sequence number and timestamp. Queued
 *   digits go out as RFC 4733 events in place of audio. `flush` drops what is queued (a barge-in).
 * - In: packets are decoded into the jitter buffer (src/kernel/media/jitter-buffer.ts, playout); each
 *   tick takes one frame from it (or a concealed one), from the first packet on. Keys come as RFC
 *   4733 events or as tones in that audio (dtmf-detector.ts); one press is told once. Once the
 *   call is a conversation's (`listen`), the echo of the agent's voice is taken out of each heard frame (src/kernel/media/echo-canceller.ts), with
 *   the frame sent at the same tick as reference; what is left of it is told apart from the caller
 *   by the echo gate (echo-gate.ts). A frame that is only echo, or a key's tone, is `masked` in the
 *   tick's report: the conversation hears silence there, so neither is taken for speech. Without the echo canceller built, the gate works on the audio as it comes.
 * - Who may send (docs/security.md): a packet from outside RTP_ALLOWED_SOURCES is dropped before it is
 *   parsed. Symmetric RTP (NAT): we send to the address in the peer's SDP until its first packet
 *   arrives, then to wherever that packet came from (an allowed source); packets from elsewhere are
 *   ignored after that. An empty payload carries no audio: it is not buffered.
 * - Nothing received can throw out of a socket handler (an error goes to `onError`); a failure to
 *   send (a bad address) is thrown by `tick`, and the thread fails that stream alone.
 * - RTCP: a sender report with an SDES CNAME every 5 s of ticks; received RTCP is read and ignored.
 */
import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import { randomBytes, randomInt } from 'node:crypto';
import { EchoCanceller } from '../../../kernel/media/echo-canceller';
import { EchoGate } from '../../../kernel/media/echo-gate';
import { JitterBuffer, PacketLossConcealer } from '../../../kernel/media/jitter-buffer';
import { decodeAlaw, decodeUlaw, encodeAlaw, encodeUlaw } from '../../../kernel/audio/g711';
import { DtmfDetector } from '../../domain/dtmf-detector';
import { digitPayloads, DtmfReceiver } from './dtmf';
import { parseRtp, serialiseRtp } from './rtp-packet';
import type { NegotiatedMedia } from './sdp';

export const FRAME = 160;
/** An RTCP report every 5 s (250 ticks). */
const RTCP_INTERVAL_TICKS = 250;
/**
 * The echo path the canceller learns: a line's echo comes up to 300 ms late, the jitter buffer adds
 * its depth (60 ms), and the peer's own buffer some more.
 */
const ECHO_TAIL_MS = 500;
const ECHO_TAIL_TICKS = ECHO_TAIL_MS / 20;
/** A tick this much later than the one before it (a 20 ms clock) is a stall of the thread. */
const STALL_MS = 100;
/** The same key by the other way (event, tone) within this long is the same press. */
const DUPLICATE_KEY_MS = 400;
/** Seconds between 1900 (NTP) and 1970 (Unix). */
const NTP_OFFSET = 2_208_988_800;

export interface MediaStats {
  sent: number;
  received: number;
  lost: number;
  late: number;
  underruns: number;
  dtmfReceived: string;
}

/** What one tick of one stream did, for its session on the main thread. */
export interface StreamTick {
  /** The stream's own tick number (0 at its first tick): the place on the recording's timeline. */
  index: number;
  /** The queued frame sent (its number), or -1 when silence or a digit went out. */
  sent: number;
  /** The frame heard (decoded or concealed, the agent's echo cancelled), or null before the peer's first packet. */
  heard: Int16Array | null;
  /** The frame heard is not the caller's voice: only what is left of the agent's echo (echo-gate.ts), or a key's tone. */
  masked: boolean;
  /** The highest frame number dropped by a flush since the last tick (-1: none). */
  flushed: number;
  /** Digits received since the last tick. */
  digits: string;
  /** The peer's first audio packet came (once). */
  flowing: boolean;
  /** No RTP from the peer for the silence limit (once). */
  silent: boolean;
}

export class RtpStream {
  private readonly ssrc = randomBytes(4).readUInt32BE(0);
  private sequence = randomInt(0, 0xffff);
  private timestamp = randomBytes(4).readUInt32BE(0);
  private media: NegotiatedMedia | null = null;
  private remote: { host: string; port: number } | null = null;
  private latched = false;
  /** The agent's frames queued ahead by the session, with their numbers. */
  private readonly out: { n: number; frame: Int16Array }[] = [];
  private flushedUpTo = -1;
  private readonly concealer = new PacketLossConcealer(FRAME);
  private readonly jitter = JitterBuffer.playout({ conceal: (samples) => this.concealer.conceal(samples) });
  private readonly dtmfOut: { payload: Buffer; marker: boolean; startsEvent: boolean }[] = [];
  private dtmfTimestamp = 0;
  private readonly dtmfIn: DtmfReceiver;
  /** Keys played as tones in the audio (a peer or a line that sends no RFC 4733 events). */
  private readonly tones = new DtmfDetector();
  /** The last digit reported, and when (performance.now()): the same key by the other way soon after is the same press. */
  private lastDigit: { digit: string; by: 'event' | 'tone'; at: number } = { digit: '', by: 'event', at: -Infinity };
  /** Takes the agent's echo out of what is heard (null: not built here). */
  private echo: EchoCanceller | null = null;
  /** When the last tick ran (performance.now(); -1 before the first). */
  private lastTickAt = -1;
  /** Ticks in a row the agent sent silence (its echo is over once they pass the tail). */
  private quietTicks = 0;
  /** Tells the echo left from the caller (null until `listen`). */
  private gate: EchoGate | null = null;
  /** The samples the last tick sent (silence, or while a digit went out), the echo canceller's reference. */
  private lastSent: Int16Array = SILENCE;
  private digits = '';
  private hearing = false;
  private flowingToTell = false;
  private lastHeardAt = 0;
  private silenceLimitMs = 0;
  /** The thread's tick at which this stream's first tick ran (-1 before). */
  private firstTick = -1;
  private nextReportTick = RTCP_INTERVAL_TICKS;
  private octetsSent = 0;
  private closed = false;
  readonly stats: MediaStats = { sent: 0, received: 0, lost: 0, late: 0, underruns: 0, dtmfReceived: '' };

  private constructor(
    readonly host: string,
    readonly port: number,
    private readonly rtp: Socket,
    private readonly rtcp: Socket,
    allows: (address: string) => boolean,
    private readonly onError: (error: Error) => void,
  ) {
    this.dtmfIn = new DtmfReceiver((digit) => this.digit(digit, 'event'));
    rtp.on('message', (data, rinfo) => {
      if (!allows(rinfo.address)) return; // before any parsing: a stranger's packet costs one lookup
      try {
        this.receive(data, rinfo);
      } catch (error) {
        this.onError(error instanceof Error ? error : new Error(String(error)));
      }
    });
    rtcp.on('message', () => undefined);
    rtp.on('error', () => undefined);
    rtcp.on('error', () => undefined);
  }

  /** Binds the pair `port`, `port + 1` on `host`; rejects when either is taken. */
  static async bind(
    host: string,
    port: number,
    allows: (address: string) => boolean,
    onError: (error: Error) => void,
  ): Promise<RtpStream> {
    const rtp = createSocket('udp4');
    const rtcp = createSocket('udp4');
    try {
      await bindSocket(rtp, host, port);
      await bindSocket(rtcp, host, port + 1);
      return new RtpStream(host, port, rtp, rtcp, allows, onError);
    } catch (error) {
      rtp.close();
      rtcp.close();
      throw error;
    }
  }

  /** Starts the media (offer and answer agreed, the dialog up): the next tick is the stream's first. */
  start(media: NegotiatedMedia, silenceLimitMs: number): void {
    if (this.closed || this.media) return;
    this.media = media;
    this.remote = { host: media.remoteHost, port: media.remotePort };
    this.silenceLimitMs = silenceLimitMs;
    this.lastHeardAt = performance.now();
  }

  /**
   * From now on what is heard is for a conversation: the agent's echo is cancelled (when the
   * canceller is built here), and frames of echo only, or of a key's tone, are `masked`. Before, it is
   * heard as the line carries it. `listen(false)` goes back to that (a call bridged to a person: what
   * we send is their voice, and the caller's own, however soft, must reach them whole).
   */
  listen(on = true): void {
    if (this.closed || on === (this.gate !== null)) return;
    if (on) {
      this.gate = new EchoGate();
      this.echo = EchoCanceller.create({ sampleRate: 8000, frameSize: FRAME, tailMs: ECHO_TAIL_MS });
    } else {
      this.gate = null;
      this.echo?.close();
      this.echo = null;
    }
  }

  get started(): boolean {
    return this.media !== null && !this.closed;
  }

  /** Frames of the agent's audio, numbered by the session, to send one per tick after those queued. */
  queue(frames: { n: number; frame: Int16Array }[]): void {
    for (const f of frames) if (f.n > this.flushedUpTo) this.out.push(f);
  }

  /** Drops every frame queued up to number `upTo` (a barge-in): the next tick sends silence. */
  flush(upTo: number): void {
    this.flushedUpTo = Math.max(this.flushedUpTo, upTo);
    while (this.out.length > 0 && (this.out[0]?.n ?? Infinity) <= upTo) this.out.shift();
  }

  /** Queues digits as RFC 4733 events (the session checked that the peer offered them). */
  sendDtmf(digits: string): void {
    for (const digit of digits) {
      digitPayloads(digit).forEach((p, i) => this.dtmfOut.push({ ...p, startsEvent: i === 0 }));
      for (let gap = 0; gap < 3; gap++)
        this.dtmfOut.push({ payload: Buffer.alloc(0), marker: false, startsEvent: false });
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.rtp.close();
    this.rtcp.close();
    this.echo?.close();
    this.echo = null;
  }

  /** One tick of the thread's clock (`threadTick`, its number); throws what sending threw. */
  tick(threadTick: number, now: number): StreamTick {
    if (this.firstTick < 0) this.firstTick = threadTick;
    // A stall of the thread (ticks run late, then caught up in a burst) moves the echo's lateness: what
    // the gate learnt of its level no longer holds, so it starts again from the worst (a whole echo).
    if (this.lastTickAt >= 0 && now - this.lastTickAt > STALL_MS) this.gate?.reset();
    this.lastTickAt = now;
    const index = threadTick - this.firstTick;
    let silent = false;
    if (this.silenceLimitMs > 0 && now - this.lastHeardAt > this.silenceLimitMs) {
      this.silenceLimitMs = 0;
      silent = true;
    }
    const sent = this.sendFrame();
    const raw = this.hearFrame();
    // The canceller learns on every frame, but its output is used only while the agent's voice may be
    // coming back (it spoke within the echo tail): it colours the caller's voice enough to cost the
    // recogniser words ("let me talk to a real person" heard as "let me doctor area per ten").
    this.quietTicks = isSilent(this.lastSent) ? this.quietTicks + 1 : 0;
    const cancelled = raw ? this.cancelEcho(raw) : raw;
    const heard = this.quietTicks > ECHO_TAIL_TICKS ? raw : cancelled;
    const masked =
      heard !== null && this.gate !== null && (this.gate.isEcho(heard, this.lastSent) || this.tones.sounding);
    if (index >= this.nextReportTick) {
      this.nextReportTick = index + RTCP_INTERVAL_TICKS;
      this.sendReport();
    }
    const report: StreamTick = {
      index,
      sent,
      heard,
      masked,
      flushed: this.flushedUpTo,
      digits: this.digits,
      flowing: this.flowingToTell,
      silent,
    };
    this.digits = '';
    this.flowingToTell = false;
    return report;
  }

  /**
   * The heard frame with the agent's echo cancelled; as it came without a canceller. A canceller
   * that fails is dropped (the call goes on without it), never the call.
   */
  private cancelEcho(raw: Int16Array): Int16Array {
    if (!this.echo) return raw;
    try {
      return this.echo.cancel(raw, this.lastSent);
    } catch {
      this.echo.close();
      this.echo = null;
      return raw;
    }
  }

  /** Sends the tick's frame; returns the number of the queued frame it carried, -1 for silence or a digit. */
  private sendFrame(): number {
    const media = this.media;
    this.lastSent = SILENCE;
    if (!media || !this.remote) return -1;
    const dtmf = this.dtmfOut.shift();
    const queued = dtmf ? undefined : this.out.shift();
    let payloadType = media.payloadType;
    let payload: Buffer;
    let timestamp = this.timestamp;
    let marker = false;
    if (dtmf && dtmf.payload.length > 0) {
      if (dtmf.startsEvent) this.dtmfTimestamp = this.timestamp;
      payloadType = media.dtmfPayloadType ?? payloadType;
      payload = dtmf.payload;
      timestamp = this.dtmfTimestamp;
      marker = dtmf.marker;
    } else {
      const samples = queued?.frame ?? SILENCE;
      this.lastSent = samples;
      payload = media.codec === 'PCMA' ? encodeAlaw(samples) : encodeUlaw(samples);
    }
    const packet = serialiseRtp({ payloadType, marker, sequence: this.sequence, timestamp, ssrc: this.ssrc, payload });
    this.rtp.send(packet, this.remote.port, this.remote.host); // throws on a bad address: the tick fails the call
    this.sequence = (this.sequence + 1) & 0xffff;
    this.timestamp = (this.timestamp + FRAME) >>> 0;
    this.stats.sent++;
    this.octetsSent += payload.length;
    return queued ? queued.n : -1;
  }

  /**
   * A key pressed, from an RFC 4733 event or a tone in the audio. A peer may send both for one press
   * (the event comes first: the audio waits in the jitter buffer): the same key by the other way
   * within DUPLICATE_KEY_MS is that press, told once.
   */
  private digit(digit: string, by: 'event' | 'tone'): void {
    const now = performance.now();
    const last = this.lastDigit;
    if (last.digit === digit && last.by !== by && now - last.at < DUPLICATE_KEY_MS) return;
    this.lastDigit = { digit, by, at: now };
    this.stats.dtmfReceived += digit;
    this.digits += digit;
  }

  private hearFrame(): Int16Array | null {
    if (!this.hearing) return null;
    let frame = this.jitter.pull();
    if (frame) {
      this.concealer.good(frame);
      const digit = this.tones.push(frame);
      if (digit) for (const d of digit) this.digit(d, 'tone');
    } else frame = this.concealer.conceal();
    this.stats.lost = this.jitter.stats.lost;
    this.stats.late = this.jitter.stats.late;
    this.stats.underruns = this.jitter.stats.underruns;
    return frame;
  }

  private receive(data: Buffer, from: RemoteInfo): void {
    const media = this.media;
    const packet = parseRtp(data);
    if (!media || !packet || this.closed) return;
    const known = packet.payloadType === media.payloadType || packet.payloadType === media.dtmfPayloadType;
    if (!known) return;
    if (!this.latched) {
      this.latched = true;
      this.remote = { host: from.address, port: from.port };
    } else if (from.address !== this.remote?.host || from.port !== this.remote.port) {
      return;
    }
    this.stats.received++;
    this.lastHeardAt = performance.now();
    if (packet.payloadType === media.dtmfPayloadType) {
      this.dtmfIn.receive(packet.timestamp, packet.payload);
      return;
    }
    if (packet.payload.length === 0) return; // no audio: nothing to buffer
    const samples = media.codec === 'PCMA' ? decodeAlaw(packet.payload) : decodeUlaw(packet.payload);
    this.jitter.push(packet.sequence, samples);
    if (!this.hearing) {
      this.hearing = true;
      this.flowingToTell = true;
    }
  }

  /** A compound RTCP packet: sender report (RFC 3550 section 6.4.1) and SDES with our CNAME. */
  private sendReport(): void {
    if (!this.remote || this.closed) return;
    const sr = Buffer.alloc(28);
    sr[0] = 0x80;
    sr[1] = 200;
    sr.writeUInt16BE(6, 2);
    sr.writeUInt32BE(this.ssrc, 4);
    const now = Date.now() / 1000 + NTP_OFFSET;
    sr.writeUInt32BE(Math.floor(now) >>> 0, 8);
    sr.writeUInt32BE(Math.floor((now % 1) * 2 ** 32) >>> 0, 12);
    sr.writeUInt32BE(this.timestamp, 16);
    sr.writeUInt32BE(this.stats.sent >>> 0, 20);
    sr.writeUInt32BE(this.octetsSent >>> 0, 24);
    const cname = Buffer.from(`rtp@${this.host}`);
    const items = Buffer.concat([Buffer.from([1, cname.length]), cname, Buffer.from([0])]);
    const padded = Buffer.concat([items, Buffer.alloc((4 - (items.length % 4)) % 4)]);
    const sdes = Buffer.alloc(8);
    sdes[0] = 0x81;
    sdes[1] = 202;
    sdes.writeUInt16BE((8 + padded.length) / 4 - 1, 2);
    sdes.writeUInt32BE(this.ssrc, 4);
    this.rtcp.send(Buffer.concat([sr, sdes, padded]), this.remote.port + 1, this.remote.host);
  }
}

const SILENCE = new Int16Array(FRAME);

/** A frame the agent sent with no voice in it (mean level under about -50 dBFS). */
function isSilent(frame: Int16Array): boolean {
  if (frame === SILENCE) return true;
  let sum = 0;
  for (const v of frame) sum += v * v;
  return sum / frame.length < 100 * 100;
}

function bindSocket(socket: Socket, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(port, host, () => {
      socket.off('error', reject);
      resolve();
    });
  });
}
