/**
 * What an outbound call reports while it is set up: answered (a 2xx), or how it was not
 * (domain/call-outcomes.ts maps a final SIP answer to busy, no answer or failed).
 */
import type { UnansweredOutcome } from '../../domain/call-outcomes';
import type { CallMedia } from './call-media';
import type { SipCall } from './sip-call';

export interface CallOptions {
  /** The callee's number (E.164, `+15551234567`) or user part. */
  to: string;
  /** Our caller ID, put in From. */
  from: string;
  /** The trunk, `sip:host[:port][;transport=udp|tcp]`. */
  trunkUri: string;
  username?: string;
  password?: string;
  /** CANCEL when no final answer came this long after the INVITE. */
  ringTimeoutMs: number;
}

export type CallOutcome<M extends CallMedia = CallMedia> = { kind: 'answered'; call: SipCall<M> } | UnansweredOutcome;

/** An outbound call being placed: the call itself, its outcome, and ringing as it happens. */
export interface OutboundCall<M extends CallMedia = CallMedia> {
  readonly call: SipCall<M>;
  /** Settles once: answered, busy, no answer or failed. Never rejects. */
  readonly outcome: Promise<CallOutcome<M>>;
  /** Called at each 180/183 (with its status). */
  onRinging(listener: (status: number) => void): void;
  /** Gives up: CANCEL before the answer, BYE after. */
  hangUp(): Promise<void>;
}
