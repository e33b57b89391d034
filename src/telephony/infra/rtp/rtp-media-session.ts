/**
 * One call's media: RTP and RTCP sockets on an even/odd port pair, G.711 both ways, and the
 * conversation pipeline's audio-transport port at 8000 Hz on top of it.
 * - Out: the media clock (src/kernel/media/media-clock.ts) ticks every 20 ms (drift-corrected;
 *   after a stall it catches up a few frames and skips the older ones); each tick asks the agent's
 *   FrameSource for a frame (silence when it has none) and sends it with a steady sequence number and
 *   timestamp. DTMF digits queued with
 *   `sendDtmf` go out as RFC 4733 events in place of audio.
 * - In: packets are decoded into the jitter buffer (src/kernel/media/jitter-buffer.ts, playout); each tick takes one frame from it (or a concealed
 *   one) for the listeners, from the first packet on. RFC 4733 events are reported once per digit.
 * - Who may send (docs/security.md): a packet from outside RTP_ALLOWED_SOURCES is dropped before it is
 *   parsed. Symmetric RTP (NAT): we send to the address in the peer's SDP until its first packet
 *   arrives, then to wherever that packet came from (an allowed source); packets from elsewhere are
 *   ignored after that. An empty payload carries no audio: it is not buffered.
 * - Nothing received or sent can throw out of a socket handler or the clock: a failure to send (a
 *   bad address) or any error of a tick fails this call (`onFailed`), never the process.
 * - RTCP: a sender report with an SDES CNAME every 5 s of the media clock; received RTCP is read and ignored.
 * - A peer that sends nothing for a while (`onPeerSilent`) is reported once: the user agent hangs up.
 * Recording (`record`): each tick's frame sent (left) and frame heard (right) are written at the same
 * place of the recorder's timeline, tick × 160 samples (src/kernel/media/dual-channel-recorder.ts):
 * the two sides stay paired, and a stall the clock skipped is silence on both.
 * `onFrame` gives what the peer says, `onSentFrame` what we send, one call per 20 ms frame.
 */
import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import { randomBytes, randomInt } from 'node:crypto';
import type { AudioTransport, FrameSource } from '../../../conversations/index';
import { JitterBuffer, PacketLossConcealer } from '../../../kernel/media/jitter-buffer';
import type { TimelineRecorder } from '../../../kernel/media/dual-channel-recorder';
import { MediaClock, type MediaTick } from '../../../kernel/media/media-clock';
import { TransportListeners } from '../../../kernel/media/transport-listeners';
import { decodeAlaw, decodeUlaw, encodeAlaw, encodeUlaw } from '../../../kernel/audio/g711';
import { digitPayloads, DtmfReceiver } from './dtmf';
import { parseRtp, serialiseRtp } from './rtp-packet';
import type { RtpPortAllocator } from './rtp-ports';
import type { NegotiatedMedia } from './sdp';

const FRAME_MS = 20;
const FRAME = 160;
/** An RTCP report every 5 s (250 ticks of the media clock). */
const RTCP_INTERVAL_TICKS = 5000 / FRAME_MS;
const MAX_CATCH_UP_FRAMES = 5;
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

type Listener<T> = (value: T) => void;

export class RtpMediaSession implements AudioTransport {
  readonly sampleRate = 8000;
  private readonly ssrc = randomBytes(4).readUInt32BE(0);
  private sequence = randomInt(0, 0xffff);
  private timestamp = randomBytes(4).readUInt32BE(0);
  private media: NegotiatedMedia | null = null;
  private remote: { host: string; port: number } | null = null;
  private latched = false;
  private source: FrameSource | null = null;
  private readonly concealer = new PacketLossConcealer(FRAME);
  private readonly jitter = JitterBuffer.playout({ conceal: (samples) => this.concealer.conceal(samples) });
  private readonly dtmfOut: { payload: Buffer; marker: boolean; startsEvent: boolean }[] = [];
  private dtmfTimestamp = 0;
  private readonly dtmfIn: DtmfReceiver;
  private hearing = false;
  /** When the peer's last packet came (or the media started), for the inactivity check. */
  private lastHeardAt = 0;
  private silenceLimitMs = 0;
  private silentListener: (() => void) | null = null;
  private failedListener: ((error: Error) => void) | null = null;
  private readonly clock = new MediaClock({ maxCatchUp: MAX_CATCH_UP_FRAMES, onError: (error) => this.fail(error) });
  private recorder: TimelineRecorder | null = null;
  /** The clock's tick at which the next RTCP report is due. */
  private nextReportTick = RTCP_INTERVAL_TICKS;
  private octetsSent = 0;
  private closed = false;
  private readonly listeners = new TransportListeners();
  private readonly sentListeners = new Set<Listener<Int16Array>>();
  private readonly dtmfListeners = new Set<Listener<string>>();
  private pacingListener: Listener<number> | null = null;
  private readonly flowing: Promise<void>;
  private markFlowing: () => void = () => undefined;
  readonly stats: MediaStats = { sent: 0, received: 0, lost: 0, late: 0, underruns: 0, dtmfReceived: '' };

  private constructor(
    readonly host: string,
    readonly port: number,
    private readonly rtp: Socket,
    private readonly rtcp: Socket,
    private readonly release: () => void,
    private readonly allows: (address: string) => boolean,
  ) {
    this.dtmfIn = new DtmfReceiver((digit) => {
      this.stats.dtmfReceived += digit;
      for (const l of this.dtmfListeners) l(digit);
    });
    this.flowing = new Promise((resolve) => (this.markFlowing = resolve));
    rtp.on('message', (data, rinfo) => {
      if (!allows(rinfo.address)) return; // before any parsing: a stranger's packet costs one lookup
      try {
        this.receive(data, rinfo);
      } catch (error) {
        this.fail(error);
      }
    });
    rtcp.on('message', () => undefined);
    rtp.on('error', () => undefined);
    rtcp.on('error', () => undefined);
  }

  /**
   * Binds a free even/odd pair of the range on `host`, picked at random; throws when the range is
   * exhausted. `allows` says which source addresses may send (RTP_ALLOWED_SOURCES).
   */
  static async open(
    host: string,
    ports: RtpPortAllocator,
    allows: (address: string) => boolean,
  ): Promise<RtpMediaSession> {
    for (let attempt = 0; attempt < ports.capacity; attempt++) {
      const port = ports.allocate();
      if (port === null) break;
      const rtp = createSocket('udp4');
      const rtcp = createSocket('udp4');
      try {
        await bind(rtp, host, port);
        await bind(rtcp, host, port + 1);
        return new RtpMediaSession(host, port, rtp, rtcp, () => ports.free(port), allows);
      } catch {
        rtp.close();
        rtcp.close();
        // Another program holds this pair: keep it marked as taken and try the next.
      }
    }
    throw new Error('No free RTP port in RTP_PORTS.');
  }

  /** Starts the media once offer and answer agree and the dialog is up (our ACK sent, or the peer's received). */
  start(media: NegotiatedMedia): void {
    if (this.closed || this.media) return;
    this.media = media;
    this.remote = { host: media.remoteHost, port: media.remotePort };
    this.lastHeardAt = performance.now();
    this.clock.start((tick) => this.tick(tick));
  }

  get codec(): NegotiatedMedia | null {
    return this.media;
  }

  /** Resolves at the first audio packet from the peer: the moment to start talking. */
  mediaFlowing(): Promise<void> {
    return this.flowing;
  }

  onFrame(listener: Listener<Int16Array>): () => void {
    return this.listeners.onFrame(listener);
  }

  /** Every 20 ms frame we send (silence included): the agent's side of a dual-channel recording. */
  onSentFrame(listener: Listener<Int16Array>): () => void {
    this.sentListeners.add(listener);
    return () => this.sentListeners.delete(listener);
  }

  onDtmf(listener: Listener<string>): () => void {
    this.dtmfListeners.add(listener);
    return () => this.dtmfListeners.delete(listener);
  }

  /**
   * Reports, for each frame sent, how many milliseconds after its place on the 20 ms clock it left
   * (the outbound jitter the peer sees; a stall that restarts the clock is reported whole, once).
   * For benchmarks and diagnostics; one listener.
   */
  onPacing(listener: Listener<number> | null): void {
    this.pacingListener = listener;
  }

  /** Records the call from the next tick on: what we send on channel 0, what we hear on channel 1, at 8 kHz. */
  record(recorder: TimelineRecorder): void {
    if (recorder.sampleRate !== this.sampleRate)
      throw new Error(`A call's recording is at ${this.sampleRate} Hz, not ${recorder.sampleRate} Hz.`);
    this.recorder = recorder;
  }

  play(source: FrameSource): void {
    this.source = source;
  }

  /** Queues digits (0-9, *, #, A-D) as RFC 4733 events; false when the peer did not offer them. */
  sendDtmf(digits: string): boolean {
    if (this.media?.dtmfPayloadType == null) return false;
    for (const digit of digits) {
      digitPayloads(digit).forEach((p, i) => this.dtmfOut.push({ ...p, startsEvent: i === 0 }));
      for (let gap = 0; gap < 3; gap++)
        this.dtmfOut.push({ payload: Buffer.alloc(0), marker: false, startsEvent: false });
    }
    return true;
  }

  onClosed(listener: () => void): () => void {
    return this.listeners.onClosed(listener);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.clock.stop();
    this.rtp.close();
    this.rtcp.close();
    this.release();
    this.listeners.closed();
  }

  /**
   * Calls `listener` once when no RTP has come from the peer for `limitMs` (from the start of the
   * media on): a peer gone without a BYE. 0 turns the check off.
   */
  onPeerSilent(limitMs: number, listener: () => void): void {
    this.silenceLimitMs = limitMs;
    this.silentListener = listener;
  }

  /** Calls `listener` once when this call's media fails (an error sending or in a tick): the user agent hangs up. */
  onFailed(listener: (error: Error) => void): void {
    this.failedListener = listener;
  }

  /** Tells the failure listener once (the user agent hangs up), and closes the media in any case. */
  private fail(error: unknown): void {
    const listener = this.failedListener;
    this.failedListener = null;
    listener?.(error instanceof Error ? error : new Error(String(error)));
    this.close();
  }

  /** One tick of the media clock: a frame out, a frame in; what it throws fails the call (the clock's onError). */
  private tick(tick: MediaTick): void {
    if (this.closed) return;
    if (this.silenceLimitMs > 0 && this.silentListener && tick.now - this.lastHeardAt > this.silenceLimitMs) {
      const listener = this.silentListener;
      this.silentListener = null;
      listener();
      if (this.closed) return;
    }
    const position = tick.index * FRAME;
    const sent = this.sendFrame();
    if (sent) this.recorder?.write(0, position, sent);
    // After a stall the first frame run is reported as late as the first one skipped: the stall whole, once.
    this.pacingListener?.(tick.lateMs + tick.skipped * FRAME_MS);
    const heard = this.hearFrame();
    if (heard) this.recorder?.write(1, position, heard);
    if (tick.index >= this.nextReportTick) {
      this.nextReportTick = tick.index + RTCP_INTERVAL_TICKS;
      this.sendReport();
    }
  }

  /** Sends the tick's frame; returns the audio it carried (silence for a DTMF event), null before the media starts. */
  private sendFrame(): Int16Array | null {
    const media = this.media;
    if (!media || !this.remote) return null;
    const frame = this.source?.nextFrame() ?? null;
    const dtmf = this.dtmfOut.shift();
    let payloadType = media.payloadType;
    let payload: Buffer;
    let timestamp = this.timestamp;
    let marker = false;
    const sent = dtmf ? new Int16Array(FRAME) : (frame ?? new Int16Array(FRAME));
    if (dtmf && dtmf.payload.length > 0) {
      if (dtmf.startsEvent) this.dtmfTimestamp = this.timestamp;
      payloadType = media.dtmfPayloadType ?? payloadType;
      payload = dtmf.payload;
      timestamp = this.dtmfTimestamp;
      marker = dtmf.marker;
    } else {
      payload = media.codec === 'PCMA' ? encodeAlaw(sent) : encodeUlaw(sent);
    }
    const packet = serialiseRtp({ payloadType, marker, sequence: this.sequence, timestamp, ssrc: this.ssrc, payload });
    this.rtp.send(packet, this.remote.port, this.remote.host); // throws on a bad address: the tick fails the call
    this.sequence = (this.sequence + 1) & 0xffff;
    this.timestamp = (this.timestamp + FRAME) >>> 0;
    this.stats.sent++;
    this.octetsSent += payload.length;
    for (const l of this.sentListeners) l(sent);
    return sent;
  }

  /** The tick's frame from the jitter buffer (or concealed) for the listeners; null before the peer's first packet. */
  private hearFrame(): Int16Array | null {
    if (!this.hearing) return null;
    let frame = this.jitter.pull();
    if (frame) this.concealer.good(frame);
    else frame = this.concealer.conceal();
    Object.assign(this.stats, {
      lost: this.jitter.stats.lost,
      late: this.jitter.stats.late,
      underruns: this.jitter.stats.underruns,
    });
    this.listeners.heard(frame);
    return frame;
  }

  private receive(data: Buffer, from: RemoteInfo): void {
    const media = this.media;
    const packet = parseRtp(data);
    if (!media || !packet) return;
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
      this.markFlowing();
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
    try {
      this.rtcp.send(Buffer.concat([sr, sdes, padded]), this.remote.port + 1, this.remote.host);
    } catch (error) {
      this.fail(error);
    }
  }
}

function bind(socket: Socket, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(port, host, () => {
      socket.off('error', reject);
      resolve();
    });
  });
}
