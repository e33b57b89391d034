/**
 * The SIP user agent's media port over RTP (sip/call-media.ts, decision 185): the SDP offer/answer
 * of sdp.ts, one RtpMediaSession per call on a port pair of `RTP_PORTS` picked at random, and who
 * may send RTP or be named as an SDP's media address (RTP_ALLOWED_SOURCES). An offer is checked
 * (IP literal, port 1-65534, an allowed address, a G.711 codec) before any port is bound; a bad one
 * is refused `488`. telephony.module.ts gives it to the user agent.
 */
import type { AudioTransport } from '../../../conversations/index';
import type { TimelineRecorder } from '../../../kernel/media/dual-channel-recorder';
import type {
  AcceptedOffer,
  CallMedia,
  CallMediaPort,
  MediaBinding,
  MediaRefusal,
  OfferedMedia,
} from '../sip/call-media';
import { type MediaStats, RtpMediaSession } from './rtp-media-session';
import { RtpThread } from './rtp-thread';
import { type PortRange, RtpPortAllocator } from './rtp-ports';
import { buildAnswer, buildOffer, negotiate, type NegotiatedMedia, negotiatedFromAnswer, parseSdp } from './sdp';

export interface RtpCallMediaOptions {
  /** The address RTP binds to (the SIP listen host). */
  host: string;
  /** RTP_PORTS: each call takes an even/odd pair. */
  ports: PortRange;
  /**
   * Who may send RTP, and be an SDP's media address (RTP_ALLOWED_SOURCES, an AllowedSources). The
   * service always gives it (telephony.module.ts); unset, anyone may (the library in tests). The media
   * thread checks packets against the list as it was when the call's ports were bound.
   */
  sources?: { allows(address: string): boolean; list(): string };
  /**
   * A call whose peer sends no RTP for this long (from the start of its media) is lost: the user
   * agent ends it with a BYE, as ended by `error` (a peer gone without a BYE). Default 60 s; 0: never.
   */
  rtpTimeoutMs?: number;
}

/**
 * A phone call's media as the platform uses it: the conversation's audio transport, the moment the
 * peer's audio flows, its recording, digits, and its figures (metrics). RtpMediaSession is one.
 */
export interface PhoneMedia extends CallMedia, AudioTransport {
  /** Resolves at the first audio packet from the peer. */
  mediaFlowing(): Promise<void>;
  onSentFrame(listener: (frame: Int16Array) => void): () => void;
  /** Records both sides from the next tick on (ours on channel 0). */
  record(recorder: TimelineRecorder): void;
  onDtmf(listener: (digit: string) => void): () => void;
  sendDtmf(digits: string): boolean;
  /**
   * What is heard is for a conversation from now on: echo cancelled, echo and key tones masked;
   * `listen(false)`: heard as the line carries it again (a call bridged to a person).
   */
  listen(on?: boolean): void;
  onPacing(listener: ((lateMs: number) => void) | null): void;
  readonly stats: MediaStats;
}

export class RtpCallMedia implements CallMediaPort<RtpMediaSession> {
  private readonly ports: RtpPortAllocator;
  private readonly allows: (address: string) => boolean;
  /** The media thread of this user agent's calls (started with the first). */
  private readonly thread = new RtpThread();

  constructor(private readonly options: RtpCallMediaOptions) {
    this.ports = new RtpPortAllocator(options.ports);
    const sources = options.sources;
    this.allows = sources ? (address) => sources.allows(address) : () => true;
  }

  answer(offerSdp: string): AcceptedOffer<RtpMediaSession> | MediaRefusal {
    let negotiated: NegotiatedMedia;
    try {
      negotiated = negotiate(parseSdp(offerSdp), this.allows);
    } catch (error) {
      return refusal(error);
    }
    return {
      bind: async (binding) => {
        const media = await this.open(binding);
        return {
          sdp: buildAnswer(binding.publicHost, media.port, negotiated),
          media,
          start: () => media.start(negotiated),
        };
      },
    };
  }

  async offer(binding: MediaBinding): Promise<OfferedMedia<RtpMediaSession>> {
    const media = await this.open(binding);
    return {
      sdp: buildOffer(binding.publicHost, media.port),
      media,
      complete: (answerSdp) => {
        let negotiated: NegotiatedMedia;
        try {
          negotiated = negotiatedFromAnswer(parseSdp(answerSdp), this.allows);
        } catch (error) {
          return refusal(error);
        }
        media.start(negotiated);
        return null;
      },
    };
  }

  stateSizes(): Record<'rtp_ports', number> {
    return { rtp_ports: this.ports.used };
  }

  /** A port pair bound, its losses told to the binding (a peer silent too long, a failure). */
  private async open(binding: MediaBinding): Promise<RtpMediaSession> {
    const sources = this.options.sources ? this.options.sources.list() : null;
    const media = await RtpMediaSession.open(this.options.host, this.ports, sources, this.thread);
    media.onPeerSilent(this.options.rtpTimeoutMs ?? 60_000, () => binding.onLost(null));
    media.onFailed((error) => binding.onLost(error));
    return media;
  }
}

function refusal(error: unknown): MediaRefusal {
  return { reject: 488, reason: error instanceof Error ? error.message : String(error) };
}
