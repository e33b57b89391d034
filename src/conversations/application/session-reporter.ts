import { Injectable, Logger } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { DomainError } from '../../kernel/result';
import { SessionActionCommand } from '../../sessions';
import type { ConversationEnd, ConversationReporter, TurnMetrics } from '../pipeline/conversation-reporter';

/** A media signal, as the sessions context takes it (`SessionActionCommand`'s signal action). */
type SessionSignal = Extract<ConstructorParameters<typeof SessionActionCommand>[2], { type: 'signal' }>['signal'];

/**
 * The first `seq` of a conversation's signals. Each session applies a signal once and in `seq` order
 * (a lower one than the last applied is ignored): the conversation numbers its own from 1000 up; the
 * host's hang-up and recording signals sit at the top of the range (decision 114).
 */
export const FIRST_CONVERSATION_SEQ = 1000;

/** Transcript text is stored up to this length (the sessions context's limit on a turn). */
const MAX_TURN_TEXT = 5000;
/** Tries of one signal before it is given up (a signal is applied once by its seq: retrying is safe). */
const TRIES = 4;

/** The session's end_reason when the agent ends the call. */
const END_REASON: Record<Exclude<ConversationEnd, 'hangup'>, string> = {
  goodbye: 'completed',
  end_call: 'completed',
  transferred: 'transferred',
  max_duration: 'max_duration',
};

/**
 * A ConversationReporter that turns a conversation's reports into the session's signals
 * (`SessionActionCommand`), applied strictly in order through one queue, numbered from
 * FIRST_CONVERSATION_SEQ. Each report resolves once its signal is stored in the session's stream.
 *
 * When the agent ends the conversation, `onEnded` (the host's: a room completes, as on "Hang up")
 * ends the call; without one, a `hangup` signal ends the session. The end of a call that the other
 * party or the medium ended (`hangup`) is the host's to report.
 */
export class SessionReporter implements ConversationReporter {
  private readonly logger = new Logger('SessionReporter');
  private seq = FIRST_CONVERSATION_SEQ;
  private tail: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly commands: Pick<CommandBus, 'execute'>,
    readonly tenantId: string,
    readonly sessionId: string,
    private readonly onEnded?: (reason: ConversationEnd) => Promise<void>,
  ) {}

  turn(entry: { role: 'agent' | 'user'; content: string; t: number }): Promise<void> {
    return this.signal({ kind: 'turn', role: entry.role, content: entry.content.slice(0, MAX_TURN_TEXT), t: entry.t });
  }

  metrics(turn: TurnMetrics): Promise<void> {
    return this.signal({ kind: 'turn_metrics', ...turn });
  }

  functionInvoked(invocation: {
    name: string;
    status: 'succeeded' | 'failed' | 'timeout';
    duration_ms: number;
  }): Promise<void> {
    return this.signal({ kind: 'function_invoked', ...invocation });
  }

  functionTimeout(timeout: { function_id: string; name: string; timeout_ms: number }): Promise<void> {
    return this.signal({ kind: 'function_timeout', ...timeout });
  }

  transfer(transferNumber: string): Promise<void> {
    return this.signal({ kind: 'transfer', transfer_number: transferNumber });
  }

  optOut(): Promise<void> {
    return this.signal({ kind: 'opt_out' });
  }

  async ended(reason: ConversationEnd): Promise<void> {
    if (reason === 'hangup') return this.drained();
    if (this.onEnded) {
      await this.drained();
      return this.onEnded(reason);
    }
    return this.signal({ kind: 'hangup', status: 'completed', end_reason: END_REASON[reason] });
  }

  /** Resolves once every signal queued so far is applied (or given up). */
  private drained(): Promise<void> {
    return this.tail.then(() => undefined);
  }

  private signal(signal: SessionSignal): Promise<void> {
    const seq = this.seq++;
    const applied = this.tail.then(() => this.apply(seq, signal));
    this.tail = applied.catch(() => undefined);
    return applied;
  }

  private async apply(seq: number, signal: SessionSignal): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.commands.execute(
          new SessionActionCommand(this.tenantId, this.sessionId, { type: 'signal', seq, signal }),
        );
        return;
      } catch (err) {
        // A refusal is final (an unknown session); a failure of the store may pass.
        if (err instanceof DomainError || attempt >= TRIES) throw err;
        this.logger.warn(
          `Signal ${seq} (${signal.kind}) of ${this.sessionId} failed, try ${attempt}: ${(err as Error).message}`,
        );
        await new Promise((resolve) => setTimeout(resolve, 200 * 4 ** (attempt - 1)));
      }
    }
  }
}

/** Makes a session's reporter (one per conversation): `Conversations.start({ reporter: reporters.of(…) })`. */
@Injectable()
export class SessionReporters {
  constructor(private readonly commands: CommandBus) {}

  of(tenantId: string, sessionId: string, onEnded?: (reason: ConversationEnd) => Promise<void>): SessionReporter {
    return new SessionReporter(this.commands, tenantId, sessionId, onEnded);
  }
}
