import { createSocket, Socket } from 'node:dgram';
import { MediaStreamTrack, RTCPeerConnection, RTCRtpCodecParameters, RtpHeader, RtpPacket } from 'werift';
import { decodeUlaw, encodeUlaw } from '../../kernel/audio/g711';
import { offerProblem } from '../domain/room-offer';
import { CallRecorder, RECORDING_RATE } from './call-recorder';

/** The participant's offer cannot be answered (not SDP, no audio, no PCMU): the request's fault, not the agent's. */
export class OfferRejected extends Error {}

/** The agent's side could not be set up (no usable address, the WebRTC stack failed): the room fails with `code`. */
export class AgentSetupFailed extends Error {
  constructor(
    message: string,
    readonly code: 'agent_unreachable' | 'relay_authentication_failed' | 'recording_failed' = 'agent_unreachable',
  ) {
    super(message);
  }
}

/** 20 ms of 8 kHz audio: one RTP packet of PCMU. */
const FRAME = 160;
const FRAME_MS = 20;
const PCMU = 0;
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
  /** 8 kHz mono samples the agent says once the connection is up. */
  greeting: Int16Array;
  recorder: CallRecorder;
  /** The only addresses offered as ICE candidates; null: every interface address. */
  iceHosts: readonly string[] | null;
  /** Called once when the connection fails or closes by itself. */
  onDisconnected?: () => void;
  /**
   * Called once when one of the peer's sockets fails (an error werift would otherwise leave
   * unhandled, which would end the process): the call is then broken; the caller ends it.
   */
  onMediaError?: (err: Error) => void;
}

/**
 * The platform's own agent in a room: a WebRTC peer (werift) that answers the participant's offer
 * with G.711 μ-law (PCMU), says the greeting, then keeps sending silence while it listens, and
 * records both directions on one timeline. `lastMediaAt` is when audio last came from the
 * participant: the liveness the room's 30 s rule is measured by.
 */
export class AgentPeer {
  lastMediaAt: number;
  readonly answerSdp: string;
  private pacer: NodeJS.Timeout | null = null;
  private closed = false;
  private mediaError: Error | null = null;
  private readonly start = Date.now();

  private constructor(
    private readonly pc: RTCPeerConnection,
    private readonly track: MediaStreamTrack,
    private readonly opts: AgentPeerOptions,
    answerSdp: string,
  ) {
    this.answerSdp = answerSdp;
    this.lastMediaAt = this.start;
  }

  static async answer(opts: AgentPeerOptions): Promise<AgentPeer> {
    checkOffer(opts.offerSdp);
    const hosts = opts.iceHosts;
    if (hosts) await bindable(hosts);
    let pc: RTCPeerConnection;
    try {
      pc = new RTCPeerConnection({
        codecs: {
          audio: [
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
      throw new AgentSetupFailed(`The agent's WebRTC peer could not be created: ${describe(err)}`);
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
      const received: { at: number; ts: number; position: number } = { at: 0, ts: 0, position: -1 };
      transceiver.onTrack.subscribe((remote) => {
        remote.onReceiveRtp.subscribe((rtp) => {
          if (!peer || rtp.header.payloadType !== PCMU) return;
          peer.lastMediaAt = Date.now();
          peer.heard(received, rtp.header.timestamp, decodeUlaw(rtp.payload));
        });
      });
      const negotiate = async (): Promise<string> => {
        try {
          await pc.setRemoteDescription({ type: 'offer', sdp: opts.offerSdp });
        } catch (err) {
          throw new OfferRejected(`The SDP offer could not be applied: ${describe(err)}`);
        }
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
      if (early) throw new AgentSetupFailed(`The agent's media socket failed: ${describe(early)}`);
      peer = new AgentPeer(pc, track, opts, answer);
      const self = peer;
      pc.connectionStateChange.subscribe((state) => {
        if (state === 'connected') self.speak();
        if (state === 'failed' || state === 'closed') self.lost();
      });
      return peer;
    } catch (err) {
      await pc.close().catch(() => undefined);
      if (err instanceof OfferRejected || err instanceof AgentSetupFailed) throw err;
      throw new AgentSetupFailed(`The agent's WebRTC peer could not answer: ${describe(err)}`);
    }
  }

  /** Stops sending, closes the connection; the recording is the caller's to finish. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.pacer) clearInterval(this.pacer);
    this.pacer = null;
    await this.pc.close().catch(() => undefined);
  }

  private lost(): void {
    if (this.closed) return;
    this.opts.onDisconnected?.();
  }

  /** A socket of the peer failed: reported once; the pacer stops (the caller closes the peer). */
  private broke(err: Error): void {
    if (this.mediaError || this.closed) return;
    this.mediaError = err;
    if (this.pacer) clearInterval(this.pacer);
    this.pacer = null;
    this.opts.onMediaError?.(err);
  }

  /**
   * Places a packet of the participant's audio on the timeline by its RTP timestamp, anchored at the
   * arrival of the first packet; re-anchored when the timestamps stray from the clock by more than a
   * second (the browser restarted its stream).
   */
  private heard(anchor: { at: number; ts: number; position: number }, ts: number, samples: Int16Array): void {
    const now = Date.now();
    const byClock = Math.round(((now - this.start) * RECORDING_RATE) / 1000);
    let position = anchor.position < 0 ? -1 : anchor.position + ((ts - anchor.ts) >>> 0);
    if (position < 0 || Math.abs(position - byClock) > RECORDING_RATE) {
      anchor.at = now;
      anchor.ts = ts;
      anchor.position = byClock;
      position = byClock;
    }
    this.opts.recorder.write(1, position, samples);
  }

  /** Sends 20 ms frames on the clock: the greeting, then silence; what is sent is recorded. */
  private speak(): void {
    if (this.pacer || this.closed || this.mediaError) return;
    const t0 = Date.now() + GREETING_DELAY_MS;
    const position0 = Math.round(((t0 - this.start) * RECORDING_RATE) / 1000);
    const ssrc = (Math.random() * 0xffffffff) >>> 0;
    const greeting = this.opts.greeting;
    let frame = 0;
    this.pacer = setInterval(() => {
      const due = Math.floor((Date.now() - t0) / FRAME_MS) + 1;
      if (due - frame > MAX_CATCH_UP) frame = due - MAX_CATCH_UP; // a stall: skip what is too late to say
      for (; frame < due; frame++) {
        const samples = greeting.subarray(frame * FRAME, frame * FRAME + FRAME);
        const pcm = samples.length === FRAME ? samples : padded(samples);
        const header = new RtpHeader({
          payloadType: PCMU,
          sequenceNumber: frame & 0xffff,
          timestamp: (frame * FRAME) >>> 0,
          ssrc,
          marker: frame === 0,
        });
        this.track.writeRtp(new RtpPacket(header, encodeUlaw(pcm)));
        if (samples.length > 0) this.opts.recorder.write(0, position0 + frame * FRAME, pcm);
      }
    }, FRAME_MS);
    this.pacer.unref();
  }
}

/**
 * Puts an 'error' listener on every UDP socket of the peer's ICE transports as they appear. werift
 * (0.25) creates them without one and sends on them without a callback, so a failed send (or any
 * socket error) would be an uncaught 'error' event that ends the process. It keeps them in a private
 * field (`Connection.protocols[].transport.socket`), reached here with checks at every step: if a
 * later werift moves them, nothing is covered and the int-spec that breaks a socket fails.
 */
class SocketGuard {
  private readonly covered = new WeakSet<Socket>();

  constructor(private readonly onError: (err: Error) => void) {}

  cover(pc: RTCPeerConnection): void {
    for (const socket of udpSocketsOf(pc)) {
      if (this.covered.has(socket)) continue;
      this.covered.add(socket);
      socket.on('error', (err: Error) => this.onError(err));
    }
  }
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

function padded(samples: Int16Array): Int16Array {
  const out = new Int16Array(FRAME);
  out.set(samples);
  return out;
}

/** Refuses, before any peer exists, an offer that cannot lead to a call with this agent. */
function checkOffer(sdp: string): void {
  const problem = offerProblem(sdp);
  if (problem) throw new OfferRejected(problem);
  if (!/^a=rtpmap:\d+ PCMU\/8000/im.test(sdp))
    throw new OfferRejected('The SDP offer does not include PCMU (G.711 μ-law), the codec the agent speaks.');
}

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
      const code = (err as NodeJS.ErrnoException).code ?? describe(err);
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

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
