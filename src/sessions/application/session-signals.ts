import { Logger } from '@nestjs/common';
import type { CommandBus } from '@nestjs/cqrs';
import { errorMessage } from '../../kernel/errors';
import { DomainError } from '../../kernel/result';
import type { MediaSignal } from '../domain/media-signal';
import { SessionActionCommand } from './session.commands';

/** Anything a live call reports to its session. */
export type SessionSignal = MediaSignal;
/** How the call ended, as its session keeps it (`status`, `end_reason`, `duration_seconds`). */
export type CallHangup = Omit<Extract<MediaSignal, { kind: 'hangup' }>, 'kind'>;
/** The call's recording, stored in the blob store. */
export type CallRecorded = Omit<Extract<MediaSignal, { kind: 'recording_ready' }>, 'kind'>;
/** What a conversation reports while the call is up: turns, their metrics, tools, a transfer, an opt-out. */
export type DuringCallSignal = Exclude<MediaSignal, { kind: 'answered' | 'hangup' | 'recording_ready' }>;

/**
 * Where each kind of signal sits in the session's `seq` order. A session applies a signal once and
 * only above the last one it applied (session.decider.ts), so a call's signals are numbered by phase:
 * the answer first, who answered (answering-machine detection) second, what happens during the call from 1000 up (in the order reported), then the end,
 * then the recording, at the top of the range (below SIGNAL_LIMITS.seq). A late turn is then never
 * applied after the end, and a repeated end or recording (a retried timer) is a no-op
 * (docs/decisions/0114-a-conversations-signals-one-ordered-queue-from-seq-1000.md,
 * docs/decisions/0120-a-rooms-session-ends-and-is-recorded-with-signals-at-the-top.md). The numbers are the sessions context's own: writers from other
 * contexts only say which phase they report.
 */
const SEQ = { answered: 1, screened: 2, duringCall: 1000, hangup: 2_000_000_000, recording: 2_000_000_001 } as const;

/** Tries of one signal before it is given up, by default (a signal is applied once by its seq: retrying is safe). */
const TRIES = 4;

export interface SignalWriterOptions {
  /**
   * Tries of each signal (default 4, 0.2, 0.8 and 3.2 s apart). A caller that is retried anyway (a
   * timer, a sweep inside a transaction) says 1: its own retry comes sooner and holds nothing meanwhile.
   */
  tries?: number;
}

/**
 * One live call's reports to its session (`SessionActionCommand` signals), for the contexts that
 * carry calls (telephony, rooms, conversations): one writer per call. Mid-call signals are applied
 * strictly in order through one queue; each report resolves once its signal is stored in the
 * session's stream. A refusal (an unknown session: DomainError) is final; a failure of the store is
 * tried again, up to 4 times.
 */
export class SessionSignalWriter {
  private readonly logger = new Logger('SessionSignals');
  private next: number = SEQ.duringCall;
  private tail: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly commands: Pick<CommandBus, 'execute'>,
    readonly tenantId: string,
    readonly sessionId: string,
    private readonly options: SignalWriterOptions = {},
  ) {}

  /** The call was answered: the session starts. */
  answered(): Promise<void> {
    return this.apply(SEQ.answered, { kind: 'answered' });
  }

  /**
   * Who answered an outbound call (answering-machine detection), once, after `answered` was stored
   * and before the conversation reports anything.
   */
  screened(amd: Omit<Extract<MediaSignal, { kind: 'amd' }>, 'kind'>): Promise<void> {
    return this.apply(SEQ.screened, { kind: 'amd', ...amd });
  }

  /** A signal during the call, after the ones reported before it. */
  duringCall(signal: DuringCallSignal): Promise<void> {
    const seq = this.next++;
    const applied = this.tail.then(() => this.apply(seq, signal));
    this.tail = applied.catch(() => undefined);
    return applied;
  }

  /** Resolves once every mid-call signal reported so far is applied (or given up). */
  drained(): Promise<void> {
    return this.tail.then(() => undefined);
  }

  /** The call ended (`at`: when, if not now). After every mid-call signal already reported. */
  async hungUp(hangup: CallHangup, at?: Date): Promise<void> {
    await this.drained();
    return this.apply(SEQ.hangup, { kind: 'hangup', ...hangup }, at);
  }

  /** The call's recording is stored. */
  recorded(recording: CallRecorded): Promise<void> {
    return this.apply(SEQ.recording, { kind: 'recording_ready', ...recording });
  }

  private async apply(seq: number, signal: SessionSignal, at?: Date): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.commands.execute(
          new SessionActionCommand(this.tenantId, this.sessionId, { type: 'signal', seq, signal }, at),
        );
        return;
      } catch (err) {
        if (err instanceof DomainError || attempt >= (this.options.tries ?? TRIES)) throw err;
        this.logger.warn(
          `Signal ${seq} (${signal.kind}) of ${this.sessionId} failed, try ${attempt}: ${errorMessage(err)}`,
        );
        await new Promise((resolve) => setTimeout(resolve, 200 * 4 ** (attempt - 1)));
      }
    }
  }
}

/** The writer of one call's signals: `sessionSignals(commandBus, tenantId, sessionId).answered()`. */
export function sessionSignals(
  commands: Pick<CommandBus, 'execute'>,
  tenantId: string,
  sessionId: string,
  options: SignalWriterOptions = {},
): SessionSignalWriter {
  return new SessionSignalWriter(commands, tenantId, sessionId, options);
}
