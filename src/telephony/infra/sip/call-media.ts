/**
 * The port the SIP user agent takes a call's media through (decision 185): signalling negotiates and
 * binds nothing itself. It hands the port the peer's SDP and puts the port's SDP in its own messages;
 * the port decides what is acceptable, binds the media, and starts it when told. The user agent is
 * given one (`SipUserAgentOptions.media`); the RTP one is `RtpCallMedia` (rtp-call-media.ts).
 * - Inbound: `answer(offer)` checks the INVITE's offer before the call is routed (a refusal is the
 *   `488`); nothing is bound until `bind`, once the call is routed (after the `180`); the 200 carries
 *   the SDP it returns, and `start` runs at the ACK.
 * - Outbound: `offer` binds the media and gives the INVITE's SDP; `complete` takes the 2xx's answer
 *   and starts the media, or refuses it (the call is hung up and fails `488`).
 * - A media that is lost by itself (the peer silent too long, an error sending) says so through
 *   `onLost`: the user agent hangs the call up, ended by `error`.
 */

/** What the user agent needs of a call's media: to close it when the call ends (more than once is a no-op). */
export interface CallMedia {
  close(): void;
}

/** An SDP the media cannot take: no audio stream or codec it speaks, or a media address not allowed. */
export interface MediaRefusal {
  reject: 488;
  /** Why, for traces and tests; the 488 itself says no more. */
  reason: string;
}

/** What the user agent gives when media is bound. */
export interface MediaBinding {
  /** The address peers reach this agent at (SIP_PUBLIC_HOST or derived): the SDP's, unless the media knows better. */
  publicHost: string;
  /**
   * Told once when the media is lost by itself: `null` when the peer sent nothing for too long, else
   * the error. The user agent reports the error and hangs up.
   */
  onLost(error: Error | null): void;
}

/** An inbound offer the media can take: nothing is bound yet. */
export interface AcceptedOffer<M extends CallMedia> {
  /** Binds the media (the call is routed) and answers the offer with it; throws when it cannot (`503`). */
  bind(binding: MediaBinding): Promise<BoundAnswer<M>>;
}

export interface BoundAnswer<M extends CallMedia> {
  /** Our SDP answer, for the 200. */
  sdp: string;
  media: M;
  /** Starts the media, kept until the ACK of our 200 comes (not before: RFC 3261 section 13.3.1.4). */
  start: () => void;
}

export interface OfferedMedia<M extends CallMedia> {
  /** Our SDP offer, for the INVITE. */
  sdp: string;
  media: M;
  /** The answer of the 2xx: starts the media, or refuses the answer (null: started). */
  complete(answerSdp: string): MediaRefusal | null;
}

export interface CallMediaPort<M extends CallMedia = CallMedia> {
  /** Checks an incoming INVITE's offer, before the call is routed; binds nothing. */
  answer(offerSdp: string): AcceptedOffer<M> | MediaRefusal;
  /** Binds the media of an outbound call and makes its offer; throws when it cannot. */
  offer(binding: MediaBinding): Promise<OfferedMedia<M>>;
  /** What it holds now, by kind (the user agent's state gauges: `rtp_ports`). */
  stateSizes(): Record<string, number>;
}
