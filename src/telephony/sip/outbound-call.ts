/**
 * What an outbound call reports while it is set up, and how a final SIP answer maps to an outcome
 * (docs/telephony.md): 486 or 600 busy; 480, 487, 408 or no final answer within the ring timeout no
 * answer; any other failure failed with its code; a 2xx answered.
 */
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

export type CallOutcome =
  | { kind: 'answered'; call: SipCall }
  | { kind: 'busy'; code: number }
  /** `code` is null when our ring timeout ended the attempt. */
  | { kind: 'no_answer'; code: number | null }
  | { kind: 'failed'; code: number };

export function outcomeOfFailure(code: number): CallOutcome {
  if (code === 486 || code === 600) return { kind: 'busy', code };
  if (code === 480 || code === 487 || code === 408) return { kind: 'no_answer', code };
  return { kind: 'failed', code };
}

/** An outbound call being placed: the call itself, its outcome, and ringing as it happens. */
export interface OutboundCall {
  readonly call: SipCall;
  /** Settles once: answered, busy, no answer or failed. Never rejects. */
  readonly outcome: Promise<CallOutcome>;
  /** Called at each 180/183 (with its status). */
  onRinging(listener: (status: number) => void): void;
  /** Gives up: CANCEL before the answer, BYE after. */
  hangUp(): Promise<void>;
}
