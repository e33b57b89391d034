import { createSocket, Socket } from 'node:dgram';
import { EventEmitter } from 'node:events';
import { MediaStreamTrack, RTCPeerConnection, RTCRtpCodecParameters, RtpHeader, RtpPacket } from 'werift';
import type { AudioTransport, FrameSource } from '../../conversations';
import type { TimelineRecorder } from '../../kernel/media/dual-channel-recorder';
import { MediaClock } from '../../kernel/media/media-clock';
import { TransportListeners } from '../../kernel/media/transport-listeners';
import { resample } from '../../kernel/audio/rate-converter';
import { type CandidatePolicy, quote, screenCandidates } from '../domain/ice-candidates';
import { offerProblem } from '../domain/room-offer';
import { callCodecOf, InboundAudio, OutboundAudio, type CallCodec } from './call-media';
import { AgentSetupFailed, OfferRejected } from './agent-offer';

const FRAME_MS = 20;
/** The payload types the agent proposes; an offer's own numbers are kept in the answer. */
const OPUS = 111;
const PCMU = 0;
/** The greeting's rate, as shipped (room-assets.ts). */
const GREETING_RATE = 8000;
/** How long to wait for the agent's own ICE candidates (host candidates only: no STUN, no TURN). */
const GATHER_TIMEOUT_MS = 5_000;
/** The greeting starts this long after the connection is up, so the browser's playout is ready. */
const GREETING_DELAY_MS = 300;
/** How long the agent may take to answer an offer (its sockets, its candidates). */
const SETUP_TIMEOUT_MS = 8_000;
/** At most this many frames are sent at once to catch up after the event loop stalled. */
const MAX_CATCH_UP = 10;

export interface AgentPeerOptions {
  offerSdp: string;
  /**
   * 8 kHz mono samples the agent says once the connection is up, unless `play` was given another
   * source by then (a conversation): the default FrameSource. None: silence until `play`.
   */
  greeting?: Int16Array;
  /** Both directions are recorded at the recorder's rate (recordingRateFor: 16 kHz for an Opus offer). */
  recorder: TimelineRecorder;
  /** The only addresses offered as ICE candidates; null: every interface address. */
  iceHosts: readonly string[] | null;
  /**
   * Which of the participant's candidates the agent may send to (src/rooms/domain/ice-candidates.ts):
   * the offer is screened with it before the WebRTC stack sees it, whoever screened it before.
   */
  candidates: CandidatePolicy;
  /** Called once when the connection fails or closes by itself. */
  onDisconnected?: () => void;
  /**
   * Called once when one of the peer's sockets fails (an error werift would otherwise leave
   * unhandled, which would end the process): the call is then broken; the caller ends it.
   */
  onMediaError?: (err: Error) => void;
  /**
   * Called for each frame sent after the first with how far the time since the previous one strays
   * from 20 ms (a frame sent in a catch-up burst strays by 20): the outbound jitter, for /metrics.
   */
  onFrameSent?: (deviationMs: number) => void;
}

/**
 * The platform's own agent in a room: a WebRTC peer (werift) that answers the participant's offer
 * with Opus (48 kHz) when it is offered, else G.711 μ-law (PCMU, 8 kHz), and is the call's
 * AudioTransport: the participant's audio comes out as 20 ms frames (`onFrame`), and the agent's
 * voice is pulled from a FrameSource (`play`) one frame per 20 ms tick of its real-time clock
 * (silence when it has none): the greeting until a conversation takes over. Both directions are
 * recorded on one timeline. `lastMediaAt` is when audio last came from the participant: the
 * liveness the room's 30 s rule is measured by.
 */
export class AgentPeer implements AudioTransport {
  lastMediaAt: number;
  readonly answerSdp: string;
  /** 48000 for an Opus call, 8000 for PCMU: the rate of the frames both ways. */
  readonly sampleRate: number;
  /** The agent's real-time clock: one frame sent per tick; also the reorder window's clock. */
  private readonly clock = new MediaClock({
    maxCatchUp: MAX_CATCH_UP,
    unref: true,
    // What a tick throws (an encoder, a send) breaks this call, never the process.
    onError: (err) => this.broke(err),
  });
  private closed = false;
  private mediaError: Error | null = null;
  private readonly start = Date.now();
  private source: FrameSource | null;
  private readonly listeners = new TransportListeners();
  private readonly inbound: InboundAudio;
  private readonly outbound: OutboundAudio;

  private constructor(
    private readonly pc: RTCPeerConnection,
    private readonly track: MediaStreamTrack,
    private readonly opts: AgentPeerOptions,
    answerSdp: string,
    readonly codec: CallCodec,
  ) {
    this.answerSdp = answerSdp;
    this.lastMediaAt = this.start;
    this.sampleRate = codec.rate;
    this.source = opts.greeting ? clipSource(resample(opts.greeting, GREETING_RATE, codec.rate), codec.frame) : null;
    this.inbound = new InboundAudio(
      codec,
      opts.recorder,
      () => Date.now() - this.start,
      // A listener's bug must not reach werift's packet handling (nor end the process): it is dropped.
      (frame) => this.listeners.heard(frame),
    );
    this.outbound = new OutboundAudio(codec, opts.recorder);
  }

  onFrame(listener: (frame: Int16Array) => void): () => void {
    return this.listeners.onFrame(listener);
  }

  /** From the next tick on, the agent's frames come from `source` (the greeting is dropped). */
  play(source: FrameSource): void {
    this.source = source;
  }

  onClosed(listener: () => void): () => void {
    return this.listeners.onClosed(listener);
  }

  static async answer(opts: AgentPeerOptions): Promise<AgentPeer> {
    checkOffer(opts.offerSdp);
    // Only the candidates the agent may send to reach werift: no host name (werift would bind mDNS on
    // 0.0.0.0:5353 for a `.local` one), no private address unless allowed, nothing malformed.
    const offerSdp = screenCandidates(opts.offerSdp, opts.candidates).sdp;
    const hosts = opts.iceHosts;
    if (hosts) await bindable(hosts);
    let pc: RTCPeerConnection;
    try {
      pc = new RTCPeerConnection({
        codecs: {
          // In order of preference: the answer keeps this order, and the agent sends the first.
          audio: [
            new RTCRtpCodecParameters({
              mimeType: 'audio/opus',
              clockRate: 48000,
              channels: 2,
              payloadType: OPUS,
              parameters: 'minptime=10;useinbandfec=1',
            }),
            new RTCRtpCodecParameters({ mimeType: 'audio/PCMU', clockRate: 8000, channels: 1, payloadType: PCMU }),
          ],
          video: [],
        },
        iceServers: [],
        iceUseIpv6: hosts ? hosts.some((h) => h.includes(':')) : false,
        ...(hosts
          ? {
              iceAdditionalHostAddresses: [...hosts],
              // One address per family: the sockets are bound to it, so nothing listens elsewhere (and an
              // address the machine does not have yields no candidate: the setup fails, loudly).
              iceInterfaceAddresses: onePerFamily(hosts),
              // Connectivity checks only from the configured addresses, as the answer offers only those.
              iceFilterCandidatePair: (pair) => hosts.includes(pair.protocol.localCandidate?.host ?? ''),
            }
          : {}),
      });
    } catch (err) {
      throw new AgentSetupFailed(`The agent's WebRTC peer could not be created: ${quotedError(err)}`);
    }
    const track = new MediaStreamTrack({ kind: 'audio' });
    let peer: AgentPeer | null = null;
    // Until the peer exists, a socket error is kept and reported as soon as it does.
    let early: Error | null = null;
    const guard = new SocketGuard((err) => (peer ? peer.broke(err) : (early ??= err)));
    pc.onIceCandidate.subscribe(() => guard.cover(pc));
    try {
      const transceiver = pc.addTransceiver(track, { direction: 'sendrecv' });
      // Subscribed before the offer is applied: applying it announces the participant's track.
      transceiver.onTrack.subscribe((remote) => {
        remote.onReceiveRtp.subscribe((rtp) => {
          if (!peer || peer.closed || rtp.header.payloadType !== peer.codec.payloadType) return;
          peer.lastMediaAt = Date.now();
          // Called from werift's socket handler: whatever a packet makes throw fails this call, not the process.
          try {
            peer.inbound.push(rtp.header.sequenceNumber, rtp.header.timestamp, rtp.payload, peer.lastMediaAt);
          } catch (err) {
            peer.broke(err instanceof Error ? err : new Error(String(err)));
          }
        });
      });
      let codec: CallCodec | null = null;
      const negotiate = async (): Promise<string> => {
        try {
          await pc.setRemoteDescription({ type: 'offer', sdp: offerSdp });
        } catch (err) {
          throw new OfferRejected(`The SDP offer could not be applied: ${quotedError(err)}`);
        } finally {
          guard.cover(pc);
        }
        codec = callCodecOf(transceiver.codecs, offerSdp);
        if (!codec) throw new OfferRejected(NO_CODEC);
        await pc.setLocalDescription(await pc.createAnswer());
        await gathered(pc);
        return keepHosts(pc.localDescription?.sdp ?? '', hosts);
      };
      const where = hosts ? ` on ${hosts.join(', ')}` : '';
      // The WebRTC stack waits for its sockets without a bound: a socket that cannot be bound hangs it.
      const answer = await within(
        SETUP_TIMEOUT_MS,
        negotiate(),
        () => new AgentSetupFailed(`The agent found no ICE candidate${where} within ${SETUP_TIMEOUT_MS / 1000} s.`),
      );
      if (!/^a=candidate:/m.test(answer))
        throw new AgentSetupFailed(`The agent has no ICE candidate to offer${where}: no address could be bound.`);
      guard.cover(pc);
      if (early) throw new AgentSetupFailed(`The agent's media socket failed: ${quotedError(early)}`);
      if (!codec) throw new OfferRejected(NO_CODEC);
      peer = new AgentPeer(pc, track, opts, answer, codec);
      const self = peer;
      pc.connectionStateChange.subscribe((state) => {
        if (state === 'connected') self.speak();
        if (state === 'failed' || state === 'closed') self.lost();
      });
      return peer;
    } catch (err) {
      await pc.close().catch(() => undefined);
      if (err instanceof OfferRejected || err instanceof AgentSetupFailed) throw err;
      throw new AgentSetupFailed(`The agent's WebRTC peer could not answer: ${quotedError(err)}`);
    }
  }

  /** Stops sending, closes the connection (the transport's `onClosed` is told); the recording is the caller's to finish. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.clock.stop();
    this.tellClosed();
    await this.pc.close().catch(() => undefined);
    this.inbound.close();
    this.outbound.close();
  }

  private lost(): void {
    if (this.closed) return;
    this.tellClosed();
    this.opts.onDisconnected?.();
  }

  /** A socket of the peer (or a tick of its clock) failed: reported once; the clock stops (the caller closes the peer). */
  private broke(err: Error): void {
    if (this.mediaError || this.closed) return;
    this.mediaError = err;
    this.clock.stop();
    this.tellClosed();
    this.opts.onMediaError?.(err);
  }

  /** The transport's end: its listeners are told once, whichever way the call ended. */
  private tellClosed(): void {
    this.listeners.closed();
  }

  /**
   * Sends 20 ms frames on the media clock, each pulled from the current source (silence when it
   * answers null or there is none); what is sent is recorded. After a stall at most MAX_CATCH_UP
   * frames are sent at once; the source is still pulled once per 20 ms. A source that throws is
   * dropped (silence follows); anything else a tick throws breaks the call. Also the reorder window's clock.
   */
  private speak(): void {
    if (this.clock.running || this.closed || this.mediaError) return;
    const { frame: size, rate } = this.codec;
    const position0 = Math.round(((Date.now() + GREETING_DELAY_MS - this.start) * rate) / 1000);
    const ssrc = (Math.random() * 0xffffffff) >>> 0;
    // The clock ticks from now on (the reorder window needs it); frame 0 goes out GREETING_DELAY_MS from now.
    const lead = GREETING_DELAY_MS / FRAME_MS - 1;
    let lastSent: number | null = null;
    this.clock.start((tick) => {
      this.inbound.tick(Date.now());
      const frame = tick.index - lead;
      if (frame < 0) return;
      // A stall: what is too late to say is skipped, but still taken from the source, which stays in
      // step with the clock (the rest of a sentence is said on time, with a hole, not late).
      for (let skipped = Math.min(tick.skipped, frame); skipped > 0; skipped--) this.pull();
      const header = new RtpHeader({
        payloadType: this.codec.payloadType,
        sequenceNumber: frame & 0xffff,
        timestamp: (frame * size) >>> 0,
        ssrc,
        marker: frame === 0,
      });
      const pcm = this.pull();
      this.track.writeRtp(new RtpPacket(header, this.outbound.payload(pcm, position0 + frame * size)));
      if (lastSent !== null) this.opts.onFrameSent?.(Math.abs(tick.now - lastSent - FRAME_MS));
      lastSent = tick.now;
    });
  }

  /** The source's next frame; a source that throws is dropped (silence from then on). */
  private pull(): Int16Array | null {
    try {
      return this.source?.nextFrame() ?? null;
    } catch {
      this.source = null;
      return null;
    }
  }
}

/** A clip said once, 20 ms at a time (the last frame padded with silence), then nothing. */
export function clipSource(samples: Int16Array, frame: number): FrameSource {
  let at = 0;
  return {
    nextFrame() {
      if (at >= samples.length) return null;
      const out = new Int16Array(frame);
      out.set(samples.subarray(at, at + frame));
      at += frame;
      return out;
    },
  };
}

/**
 * Puts an 'error' listener on every UDP socket of the peer's ICE transports as they appear. werift
 * (0.25) creates them without one and sends on them without a callback, so a failed send (or any
 * socket error) would be an uncaught 'error' event that ends the process. It keeps them in a private
 * field (`Connection.protocols[].transport.socket`), reached here with checks at every step: if a
 * later werift moves them, nothing is covered and the int-spec that breaks a socket fails.
 */
class SocketGuard {
  private readonly covered = new WeakSet<EventEmitter>();

  constructor(private readonly onError: (err: Error) => void) {}

  cover(pc: RTCPeerConnection): void {
    for (const socket of udpSocketsOf(pc)) {
      if (this.covered.has(socket)) continue;
      this.covered.add(socket);
      socket.on('error', (err: Error) => this.onError(err));
    }
    for (const emitter of mdnsOf(pc)) {
      if (this.covered.has(emitter)) continue;
      this.covered.add(emitter);
      emitter.on('error', (err: Error) => this.onError(err));
    }
  }
}

/**
 * The mDNS resolvers of a peer's ICE connections, should werift have made one: it does for a remote
 * candidate whose address contains `.local` (`Connection.lookup.mdnsInstance`, a multicast-dns
 * emitter bound to 0.0.0.0:5353 without an 'error' listener: EADDRINUSE would end the process).
 * The screened offer never has one; this is the second line, checked at every step like the sockets.
 */
function mdnsOf(pc: RTCPeerConnection): EventEmitter[] {
  const found: EventEmitter[] = [];
  for (const { connection } of pc.iceTransports) {
    const mdns: unknown = fieldOf(fieldOf(connection, 'lookup'), 'mdnsInstance');
    if (mdns instanceof EventEmitter) found.push(mdns as EventEmitter);
  }
  return found;
}

/**
 * The UDP sockets of a peer's ICE transports, where werift (0.25) keeps them: a private
 * `Connection.protocols[].transport.socket`, checked at every step (none found if it moves).
 */
export function udpSocketsOf(pc: RTCPeerConnection): Socket[] {
  const sockets: Socket[] = [];
  for (const { connection } of pc.iceTransports) {
    const protocols = fieldOf(connection, 'protocols');
    if (!Array.isArray(protocols)) continue;
    const list: readonly unknown[] = protocols;
    for (const protocol of list) {
      const socket = fieldOf(fieldOf(protocol, 'transport'), 'socket');
      if (socket instanceof Socket) sockets.push(socket);
    }
  }
  return sockets;
}

/** A property of an object its typings do not declare, as unknown. */
function fieldOf(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? Reflect.get(value, key) : undefined;
}

function onePerFamily(hosts: readonly string[]): { udp4?: string; udp6?: string } | undefined {
  const v4 = hosts.filter((h) => !h.includes(':'));
  const v6 = hosts.filter((h) => h.includes(':'));
  if (v4.length > 1 || v6.length > 1) return undefined;
  return { ...(v4[0] ? { udp4: v4[0] } : {}), ...(v6[0] ? { udp6: v6[0] } : {}) };
}

/** Refuses, before any peer exists, an offer that cannot lead to a call with this agent. */
function checkOffer(sdp: string): void {
  const problem = offerProblem(sdp);
  if (problem) throw new OfferRejected(problem);
  if (!/^a=rtpmap:\d+ (PCMU\/8000|opus\/48000)/im.test(sdp)) throw new OfferRejected(NO_CODEC);
}

const NO_CODEC = 'The SDP offer includes neither Opus nor PCMU (G.711 μ-law), the codecs the agent speaks.';

/**
 * Each configured address can be bound, checked before the WebRTC stack tries: werift binds its
 * sockets without an error listener, and a socket that fails to bind would end the process.
 */
async function bindable(hosts: readonly string[]): Promise<void> {
  for (const host of hosts) {
    const socket = createSocket(host.includes(':') ? 'udp6' : 'udp4');
    try {
      await new Promise<void>((resolve, reject) => {
        socket.once('error', reject);
        socket.bind({ address: host, port: 0 }, () => resolve());
      });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? quotedError(err);
      throw new AgentSetupFailed(`The agent has no ICE candidate to offer: ${host} cannot be bound (${code}).`);
    } finally {
      socket.close();
    }
  }
}

function within<T>(ms: number, work: Promise<T>, timedOut: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(timedOut()), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

function gathered(pc: RTCPeerConnection): Promise<void> {
  if (pc.iceGatheringState === 'complete') return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, GATHER_TIMEOUT_MS);
    pc.iceGatheringStateChange.subscribe((state) => {
      if (state !== 'complete') return;
      clearTimeout(timer);
      resolve();
    });
  });
}

/** The answer with only the candidates on the configured addresses (werift also gathers the others). */
function keepHosts(sdp: string, hosts: readonly string[] | null): string {
  if (!hosts) return sdp;
  return sdp
    .split('\r\n')
    .filter((line) => !line.startsWith('a=candidate:') || hosts.includes(line.split(' ')[4] ?? ''))
    .join('\r\n');
}

/** An error's message for the refusal and the log: cut to 200 characters (it may quote the offer). */

/** An error's message for the refusal and the log: cut to 200 characters (it may quote the offer). */
function quotedError(err: unknown): string {
  return quote(err instanceof Error ? err.message : String(err));
}
