import type { SessionPartials, SessionSignalWriter } from '../../sessions';
import type {
  ConversationEnd,
  ConversationReporter,
  TransferFailure,
  TurnMetrics,
} from '../pipeline/conversation-reporter';

/** Transcript text is stored up to this length (the sessions context's limit on a turn). */
const MAX_TURN_TEXT = 5000;

/** The session's end_reason when the agent ends the call. */
const END_REASON: Record<Exclude<ConversationEnd, 'hangup'>, string> = {
  goodbye: 'completed',
  end_call: 'completed',
  transferred: 'transferred',
  message_left: 'voicemail',
  max_duration: 'max_duration',
};

/**
 * A ConversationReporter that turns a conversation's reports into its session's signals, through
 * sessions' SessionSignalWriter (one ordered queue; each report resolves once stored).
 *
 * When the agent ends the conversation, `onEnded` (the call host's) ends the call; without one, the
 * session's `hangup` is written here. The end of a call that the other party or the medium ended
 * (`hangup`) is the host's to report.
 *
 * Partial words (a streaming recogniser's) go to the session's live views through `partials`
 * (sessions' SessionPartials: never stored, best effort); without it they are dropped.
 */
export class SessionReporter implements ConversationReporter {
  constructor(
    private readonly signals: SessionSignalWriter,
    private readonly onEnded?: (reason: Exclude<ConversationEnd, 'hangup'>) => Promise<void>,
    private readonly partials?: Pick<SessionPartials, 'publish'>,
  ) {}

  turn(entry: { role: 'agent' | 'user'; content: string; dtmf?: string; t: number }): Promise<void> {
    return this.signals.duringCall({
      kind: 'turn',
      role: entry.role,
      content: entry.content.slice(0, MAX_TURN_TEXT),
      ...(entry.dtmf ? { dtmf: entry.dtmf } : {}),
      t: entry.t,
    });
  }

  partial(entry: { content: string; t: number }): void {
    this.partials?.publish(this.signals.sessionId, { content: entry.content.slice(0, MAX_TURN_TEXT), t: entry.t });
  }

  metrics(turn: TurnMetrics): Promise<void> {
    return this.signals.duringCall({ kind: 'turn_metrics', ...turn });
  }

  functionInvoked(invocation: {
    name: string;
    status: 'succeeded' | 'failed' | 'timeout';
    duration_ms: number;
  }): Promise<void> {
    return this.signals.duringCall({ kind: 'function_invoked', ...invocation });
  }

  functionTimeout(timeout: { function_id: string; name: string; timeout_ms: number }): Promise<void> {
    return this.signals.duringCall({ kind: 'function_timeout', ...timeout });
  }

  transfer(transferNumber: string): Promise<void> {
    return this.signals.duringCall({ kind: 'transfer', transfer_number: transferNumber });
  }

  transferFailed(transferNumber: string, failure: TransferFailure): Promise<void> {
    return this.signals.duringCall({ kind: 'transfer_failed', transfer_number: transferNumber, ...failure });
  }

  optOut(): Promise<void> {
    return this.signals.duringCall({ kind: 'opt_out' });
  }

  async ended(reason: ConversationEnd): Promise<void> {
    if (reason === 'hangup') return this.signals.drained();
    if (this.onEnded) {
      await this.signals.drained();
      return this.onEnded(reason);
    }
    return this.signals.hungUp({ status: 'completed', end_reason: END_REASON[reason] });
  }
}
