import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { BLOB_STORE, type BlobStore } from '../../infra/blobs/blob-store.port';
import { errorMessage } from '../../kernel/errors';
import { type CallHangup, SessionPartials, sessionSignals, storeRecordingFile } from '../../sessions';
import type { ConversationAgent } from '../dialogue/dialogue';
import type { AudioTransport } from '../pipeline/audio-transport';
import type { ConversationEnd, TransferOutcome, WarmTransfer } from '../pipeline/conversation-reporter';
import { type ConversationHandle, Conversations } from './conversations.service';
import { SessionReporter } from './session-reporter';

/** How the agent ends a call: everything but the other side going away (`hangup`). */
export type AgentEnd = Exclude<ConversationEnd, 'hangup'>;

/** What a transport knows that the host does not: how to take its line down. */
export interface CallLine<E> {
  /** Our side of the end (a BYE, closing a peer). Called once, after the conversation ended. */
  hangUp(ending: E): Promise<void>;
  /**
   * Hands the other party to `number` while the conversation waits (a phone call's REFER; with
   * `warm`, a call of its own to `number`, briefed, then bridged); resolves with the outcome.
   * Absent: the agent's transfer ends the call `transferred`, the line's to act on.
   */
  transfer?(number: string, warm?: WarmTransfer): Promise<TransferOutcome>;
}

/** Who hears of the call's life: its session (`CallHost.toSession`), or a room that reports for it. */
export interface CallSink<E> {
  /** The call is up. The conversation starts once this is stored, and the end waits for it. */
  answered(): Promise<void>;
  /**
   * Told as soon as the end begins, before the conversation and the line are taken down (optional:
   * a room records its final state, completed or failed, at once, as of that moment).
   */
  ending?(ending: E): Promise<void>;
  /** The call ended, as `ending` says. Called once, after the line is down. */
  ended(ending: E): Promise<void>;
  /** The recording is stored in the blob store under `recordingId`. */
  recorded(recording: { recordingId: string; seconds: number }): Promise<void>;
}

/** The call's recording: where it is written, and the recorder the transport writes into. */
export interface CallRecording {
  /** The recording id (`rec_…`); the WAV is written at `path` (sessions' `recordingPath`). */
  id: string;
  path: string;
  recorder: {
    /** Writes the WAV; resolves with its length in seconds. */
    finish(): Promise<number>;
    /** Drops it (a call that broke, or failed before it was stored). */
    discard(): Promise<void>;
  };
}

export interface HostCall<E> {
  tenantId: string;
  sessionId: string;
  agent: ConversationAgent;
  line: CallLine<E>;
  sink: CallSink<E>;
  recording: CallRecording | null;
  /** The ending when the agent ends the call (goodbye, end_call, its maximum length, a transfer). */
  agentEnded(reason: AgentEnd): E;
  /** Whether a call that ended so keeps its recording (default: always). A call that broke does not. */
  keepsRecording?(ending: E): boolean;
}

/** One call carried by a host: the conversation on it, and its end, once. */
export interface HostedCall<E> {
  /**
   * The agent talks on `transport` (once), as soon as the answer is stored: resolves when it
   * listens (or the call ended first); rejects when the answer could not be stored (the call is
   * the caller's to end). Turn times count from `startedAt`. With `voicemailMessage` (an answering
   * machine took the call), the agent speaks it and ends the call (`message_left`).
   */
  converse(transport: AudioTransport, startedAt: Date, options?: { voicemailMessage?: string }): Promise<void>;
  /**
   * Ends the call, once, in this order: the conversation ends (its last reports stored), the line is
   * hung up, the sink hears `ended` (after `answered`), then the recording is finished, stored and
   * reported. Any later call returns the first one's promise. Never rejects: a step that fails is
   * logged, and an unstored recording is dropped.
   */
  end(ending: E): Promise<void>;
  /** Resolves with the ending as soon as the end begins (whoever began it). */
  readonly ending: Promise<E>;
  /**
   * Resolves once the conversation has finished, whatever finished it (the agent, the transport
   * closing, the service shutting down), or the end has begun: the media path then ends the call.
   */
  readonly conversationOver: Promise<void>;
  /** Whether the end has begun. */
  readonly isEnding: boolean;
  /** Resolves once the sink stored the answer (a report that must come after it waits for this). */
  readonly answerStored: Promise<void>;
}

/**
 * Carries calls for every media path (docs/architecture.md, "The media plane"): a phone call
 * (telephony's PhoneCalls), a room's WebRTC call (rooms' RoomCalls), a test persona call
 * (PersonaCallRunner). The media path builds the transport and knows how to hang up; the host runs
 * the agent's conversation on it, turns its reports into the session's signals, and owns the end:
 * whoever ends first (the agent, the other side, the medium, a shutdown), the sequence runs once.
 */
@Injectable()
export class CallHost {
  private readonly logger = new Logger('CallHost');

  constructor(
    @Inject(Conversations) private readonly conversations: Pick<Conversations, 'start'>,
    @Inject(CommandBus) private readonly commands: Pick<CommandBus, 'execute'>,
    @Inject(BLOB_STORE) private readonly blobs: BlobStore,
    /** The live views' partial words (sessions'); absent, they are dropped. */
    @Optional() private readonly partials?: SessionPartials,
  ) {}

  /** Hosts a call that is up: the sink hears `answered` now. */
  open<E>(call: HostCall<E>): HostedCall<E> {
    return new Hosted(call, this.conversations, this.commands, this.blobs, this.logger, this.partials);
  }

  /**
   * The sink of a call reported straight to its session: answered, the end (`hangup`, as
   * `hangupOf` says) and the recording (`recording_ready`, both channels).
   */
  toSession<E>(tenantId: string, sessionId: string, hangupOf: (ending: E) => CallHangup): CallSink<E> {
    const signals = sessionSignals(this.commands, tenantId, sessionId);
    return {
      answered: () => signals.answered(),
      ended: (ending) => signals.hungUp(hangupOf(ending)),
      recorded: ({ recordingId, seconds }) =>
        signals.recorded({ recording_id: recordingId, duration_seconds: Math.round(seconds), channels: 'dual' }),
    };
  }
}

class Hosted<E> implements HostedCall<E> {
  private readonly answered: Promise<void>;
  private conversation: ConversationHandle | null = null;
  private done: Promise<void> | null = null;
  private began: (ending: E) => void = () => undefined;
  private over: () => void = () => undefined;
  readonly ending: Promise<E>;
  readonly conversationOver: Promise<void>;

  constructor(
    private readonly call: HostCall<E>,
    private readonly conversations: Pick<Conversations, 'start'>,
    private readonly commands: Pick<CommandBus, 'execute'>,
    private readonly blobs: BlobStore,
    private readonly logger: Logger,
    private readonly partials?: SessionPartials,
  ) {
    this.ending = new Promise((resolve) => (this.began = resolve));
    this.conversationOver = new Promise((resolve) => (this.over = resolve));
    void this.ending.then(() => this.over());
    this.answered = call.sink.answered();
    // Told here or awaited by the end: never an unhandled rejection.
    this.answered.catch((err: unknown) =>
      logger.error(`session ${call.sessionId}: reporting the answer failed: ${errorMessage(err)}`),
    );
  }

  get isEnding(): boolean {
    return this.done !== null;
  }

  get answerStored(): Promise<void> {
    return this.answered;
  }

  converse(transport: AudioTransport, startedAt: Date, options: { voicemailMessage?: string } = {}): Promise<void> {
    return this.answered.then(() => {
      if (this.done || this.conversation) return;
      const { tenantId, sessionId, agent } = this.call;
      const signals = sessionSignals(this.commands, tenantId, sessionId);
      this.conversation = this.conversations.start({
        tenantId,
        sessionId,
        agent,
        transport,
        startedAt,
        ...(this.call.line.transfer
          ? { line: { transfer: (number: string, warm?: WarmTransfer) => this.transfer(number, warm) } }
          : {}),
        ...(options.voicemailMessage !== undefined ? { voicemailMessage: options.voicemailMessage } : {}),
        // Not awaited by the reporter: ending the call ends the conversation, which is still reporting this end.
        reporter: new SessionReporter(
          signals,
          (reason) => {
            void this.end(this.call.agentEnded(reason));
            return Promise.resolve();
          },
          this.partials,
        ),
      });
      void this.conversation.finished.then(() => this.over());
    });
  }

  private transfer(number: string, warm?: WarmTransfer): Promise<TransferOutcome> {
    const line = this.call.line;
    if (this.done || !line.transfer) return Promise.resolve({ ok: false, reason: 'not_supported', sip_code: null });
    return warm ? line.transfer(number, warm) : line.transfer(number);
  }

  end(ending: E): Promise<void> {
    if (this.done) return this.done;
    this.began(ending);
    this.done = this.runEnd(ending);
    return this.done;
  }

  private async runEnd(ending: E): Promise<void> {
    const { sessionId, line, sink, recording } = this.call;
    let stored = false;
    try {
      await sink
        .ending?.(ending)
        .catch((err: unknown) =>
          this.logger.error(`session ${sessionId}: reporting the end failed: ${errorMessage(err)}`),
        );
      // The conversation's last reports are stored before the sink hears `ended` (the session's hang-up:
      // its writer is another than the conversation's, so this order is what keeps them before it).
      await this.conversation?.end();
      await line
        .hangUp(ending)
        .catch((err: unknown) => this.logger.warn(`session ${sessionId}: hanging up failed: ${errorMessage(err)}`));
      await this.answered.catch(() => undefined);
      await sink.ended(ending);
      if (recording && (this.call.keepsRecording?.(ending) ?? true)) {
        const seconds = await recording.recorder.finish();
        await storeRecordingFile(this.blobs, recording.id, recording.path);
        stored = true;
        await sink.recorded({ recordingId: recording.id, seconds });
      }
    } catch (err) {
      this.logger.error(`session ${sessionId}: ending the call failed: ${errorMessage(err)}`);
    } finally {
      if (recording && !stored) await recording.recorder.discard().catch(() => undefined);
    }
  }
}
