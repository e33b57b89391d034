/**
 * What the outbound dialer and the inbound answerer need from the user agent: the transactions, the
 * addresses to advertise, the media port, and the calls it tracks by Call-ID.
 */
import type { CallMedia, CallMediaPort } from './call-media';
import type { LocalAddress, SipCall } from './sip-call';
import type { SipMessage } from './sip-message';
import type { Flow } from './sip-transport';
import type { TransactionLayer } from './transactions';

export interface UserAgentCore<M extends CallMedia = CallMedia> {
  readonly transactions: TransactionLayer;
  /** Where calls get their media (call-media.ts). */
  readonly media: CallMediaPort<M>;
  readonly userAgentName: string;
  /** Our address in Via and Contact for requests over `flow`. */
  localAddress(flow: Flow): LocalAddress;
  /** Keeps `call` findable by its Call-ID until it ends. */
  track(call: SipCall<M>): void;
  /** Sends outside any transaction (the ACK of a 2xx). */
  send(message: SipMessage, flow: Flow): void;
  /** Sends BYE (once) and ends the call. */
  hangUp(call: SipCall<M>): Promise<void>;
  /** The call's media was lost by itself (call-media.ts `onLost`): the error reported, the call hung up (`error`). */
  mediaLost(call: SipCall<M>, error: Error | null): void;
}
