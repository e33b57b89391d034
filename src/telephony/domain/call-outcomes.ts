/**
 * How a phone call's end is told to its session (docs/telephony.md): the `hangup` a call that was
 * never answered, or that ended, reports through sessions' signal writer.
 */
import type { CallHangup } from '../../sessions';

/** How a call was not answered (docs/telephony.md); `code` is null when our ring timeout ended the attempt. */
export type UnansweredOutcome =
  { kind: 'busy'; code: number } | { kind: 'no_answer'; code: number | null } | { kind: 'failed'; code: number };

/** A final SIP failure: 486 or 600 busy; 480, 487 or 408 no answer; any other failed with its code. */
export function outcomeOfFailure(code: number): UnansweredOutcome {
  if (code === 486 || code === 600) return { kind: 'busy', code };
  if (code === 480 || code === 487 || code === 408) return { kind: 'no_answer', code };
  return { kind: 'failed', code };
}

/** A call that was never answered: 486/600 busy; 480/487/408/ring timeout no answer; any other `sip_<code>`. */
export function unansweredSignal(outcome: UnansweredOutcome): CallHangup {
  switch (outcome.kind) {
    case 'busy':
      return { status: 'busy', end_reason: 'busy' };
    case 'no_answer':
      return { status: 'no_answer', end_reason: 'no_answer' };
    case 'failed':
      return { status: 'failed', end_reason: `sip_${outcome.code}` };
  }
}

/** How an answered call ended. */
export type CallEnding =
  /** The other party hung up (BYE). */
  | { by: 'remote' }
  /** The other party's RTP stopped for SIP's RTP timeout, with no BYE. */
  | { by: 'lost' }
  /** The caller never acknowledged our 200 (Timer H): ended with a BYE. */
  | { by: 'unacknowledged' }
  /** The agent ended it (goodbye, end_call, its maximum length, a transfer). */
  | { by: 'agent'; reason: 'goodbye' | 'end_call' | 'max_duration' | 'transferred' }
  /** An answering machine took the call (answering-machine-detector.ts); `messageLeft`: the agent spoke its message. */
  | { by: 'voicemail'; messageLeft?: boolean }
  /** This process stopped while the call was up. */
  | { by: 'shutdown' }
  /** The call could not be placed or run (an exception of ours, not a SIP answer). */
  | { by: 'error' };

const AGENT_END_REASON = {
  goodbye: 'completed',
  end_call: 'completed',
  max_duration: 'max_duration',
  transferred: 'transferred',
} as const;

export function endSignal(ending: CallEnding): CallHangup {
  switch (ending.by) {
    case 'remote':
      return { status: 'completed', end_reason: 'completed' };
    case 'lost':
      return { status: 'completed', end_reason: 'connection_lost' };
    case 'agent':
      return { status: 'completed', end_reason: AGENT_END_REASON[ending.reason] };
    case 'voicemail':
      return {
        status: 'voicemail',
        end_reason: 'voicemail',
        ...(ending.messageLeft ? { voicemail_message_left: true } : {}),
      };
    case 'unacknowledged':
      return { status: 'failed', end_reason: 'sip_no_ack' };
    case 'shutdown':
      return { status: 'failed', end_reason: 'media_lost' };
    case 'error':
      return { status: 'failed', end_reason: 'sip_error' };
  }
}
