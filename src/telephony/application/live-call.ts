import type { ConversationAgent, ConversationSlot, HostedCall } from '../../conversations';
import type { CallEnding } from '../domain/call-outcomes';
import type { PhoneMedia } from '../infra/rtp/rtp-call-media';
import type { OutboundCall } from '../infra/sip/outbound-call';
import type { SipCall } from '../infra/sip/sip-call';
import type { Bridge } from './warm-transfer';

/** One call held by this process (phone-calls.ts), from its INVITE to the release of its places. */
export interface LiveCall {
  tenantId: string;
  sessionId: string;
  agent: ConversationAgent;
  /** Outbound calls hold a place in the carrier's budget and are screened for answering machines. */
  outbound: boolean;
  call: SipCall<PhoneMedia> | null;
  /** An outbound call still being set up: giving it up sends CANCEL (a BYE once answered). */
  placed: OutboundCall | null;
  /** The answered call, carried by conversations' CallHost; null until answered. */
  hosted: HostedCall<CallEnding> | null;
  /** Our number on this call (the caller ID of a warm transfer's call); null when unknown. */
  ownNumber: string | null;
  /** When the call was answered (a warm transfer's bridge lasts until the agent's max duration from it). */
  answeredAt: number | null;
  /** A REFER is under way, or a warm transfer bridged: the line going down is the transfer done. */
  transferring: boolean;
  /** A warm transfer's two legs, bridged: the call ends when they do. */
  bridge: Bridge | null;
  /** Set once the call is over, whichever way (answered or not): the place in the budget is given back then. */
  over: Promise<void> | null;
  /** Its place among this instance's conversations (conversations' capacity), given back with the budget's. */
  slot: ConversationSlot;
  /**
   * Whether its session exists: an inbound call's is made while the call is answered (false: it
   * could not be, the call goes down); every signal of the call waits for it. True for an outbound one.
   */
  created: Promise<boolean>;
}
