/**
 * What the outbound dialer and the inbound answerer need from the user agent: the transactions, the
 * addresses to advertise, the RTP ports, and the calls it tracks by Call-ID.
 */
import type { RtpPortAllocator } from '../rtp/rtp-ports';
import type { LocalAddress, SipCall } from './sip-call';
import type { SipMessage } from './sip-message';
import type { Flow } from './sip-transport';
import type { TransactionLayer } from './transactions';

export interface UserAgentCore {
  readonly transactions: TransactionLayer;
  readonly rtpPorts: RtpPortAllocator;
  /** The address RTP binds to and SDP advertises. */
  readonly mediaHost: string;
  readonly userAgentName: string;
  /** Whether an address may send RTP and be named as the media address of an SDP (RTP_ALLOWED_SOURCES). */
  rtpAllows(address: string): boolean;
  /** Our address in Via and Contact for requests over `flow`. */
  localAddress(flow: Flow): LocalAddress;
  /** Keeps `call` findable by its Call-ID until it ends. */
  track(call: SipCall): void;
  /** Sends outside any transaction (the ACK of a 2xx). */
  send(message: SipMessage, flow: Flow): void;
  /** Sends BYE (once) and ends the call. */
  hangUp(call: SipCall): Promise<void>;
}
