import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown, Optional } from '@nestjs/common';
import { APP_CONFIG, AppConfig, settingsOf } from '../../config/config';
import { ConversationCapacity } from '../capacity/conversation-capacity';
import { conversationsSettings } from '../conversations.config';
import { START_WORKERS } from '../../runtime/runtime.module';
import { webhooksSettings } from '../../webhooks';
import { BuiltinDialogue } from '../dialogue/builtin-dialogue';
import type { ConversationAgent, Dialogue } from '../dialogue/dialogue';
import { ModelDialogue } from '../dialogue/model-dialogue';
import { ToolInvoker } from '../dialogue/tool-invoker';
import {
  CHAT_MODEL,
  type ChatModel,
  EMBEDDED_SPEECH_SYNTHESIZER,
  SPEECH_RECOGNIZER,
  SPEECH_SYNTHESIZER,
  type SpeechRecognizer,
  type SpeechSynthesizer,
} from '../engines/engines';
import type { AudioTransport } from '../pipeline/audio-transport';
import { Conversation, type ConversationLine } from '../pipeline/conversation';
import type { ConversationEnd, ConversationReporter } from '../pipeline/conversation-reporter';
import { NO_TELEMETRY, type TurnTelemetry } from '../pipeline/turn-telemetry';

/** Where the tenants' tool signing secrets come from (`POST /v1/tool_secret/rotate`). */
export interface ToolSecretSource {
  /** The tenant's current tool secret (`whsec_…`), null when it has none. */
  secretOf(tenantId: string): Promise<string | null>;
}
export const TOOL_SECRETS = Symbol('TOOL_SECRETS');
/** Until a store is bound: no tenant has a secret, so tool calls fail with a message saying so. */
export const NO_TOOL_SECRETS: ToolSecretSource = { secretOf: () => Promise.resolve(null) };
export const TURN_TELEMETRY = Symbol('TURN_TELEMETRY');

export interface StartConversation {
  tenantId: string;
  sessionId: string;
  agent: ConversationAgent;
  transport: AudioTransport;
  reporter: ConversationReporter;
  /** The session's start: turn times count from it. */
  startedAt: Date;
  /** What the call's line can do besides audio (a phone call's transfer). */
  line?: ConversationLine;
  /** An answering machine took the call: this message is spoken, then the conversation ends. */
  voicemailMessage?: string;
}

export interface ConversationHandle {
  /** Ends the conversation (the host tears the call down): reported as `hangup`. */
  end(): Promise<void>;
  /** Resolves with the reason once the conversation has ended and reported it. */
  finished: Promise<ConversationEnd>;
}

/** Warm recognisers kept ready beyond one per live conversation (each utterance in progress uses one). */
const PREWARM_RECOGNIZERS = 2;
/** At most this many recognisers are loaded at start (the embedded recogniser keeps at most 32 idle). */
const MAX_POOL_AT_START = 32;

/**
 * Starts the agent's conversation of a session on an audio transport (a room's WebRTC peer, a test
 * persona, the media gateway): the dialogue is the model's when a chat model is configured
 * (LLM_URL), the built-in one otherwise; the engines are the module's (embedded or HTTP).
 */
@Injectable()
export class Conversations implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Conversations');
  private readonly live = new Set<Conversation>();
  private warnedUnavailable = false;

  constructor(
    @Inject(SPEECH_RECOGNIZER) private readonly recognizer: SpeechRecognizer,
    @Inject(SPEECH_SYNTHESIZER) private readonly synthesizer: SpeechSynthesizer,
    @Inject(CHAT_MODEL) private readonly model: ChatModel | null,
    @Inject(EMBEDDED_SPEECH_SYNTHESIZER) private readonly apologySynthesizer: SpeechSynthesizer,
    @Inject(TOOL_SECRETS) private readonly secrets: ToolSecretSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Optional() @Inject(TURN_TELEMETRY) private readonly telemetry: TurnTelemetry | null,
    @Optional() @Inject(ConversationCapacity) private readonly capacity: ConversationCapacity | null = null,
    @Optional() @Inject(START_WORKERS) private readonly startWorkers: boolean = true,
  ) {}

  /**
   * The embedded recognisers' pool is loaded at start (RECOGNIZER_POOL; by default one per
   * conversation the instance carries and one spare), so that no conversation waits for a model to
   * load, however busy the machine is when it starts (docs/capacity.md).
   */
  onApplicationBootstrap(): void {
    // An application context that runs no workers (a replay, a projection rebuild) carries no call.
    if (!this.startWorkers) return;
    const { recognizerPool } = settingsOf(this.config, conversationsSettings);
    const pool = recognizerPool ?? Math.min(MAX_POOL_AT_START, (this.capacity?.limits.maxConversations ?? 0) + 1);
    if (pool > 0) this.prewarm(pool);
  }

  start(request: StartConversation): ConversationHandle {
    const { tenantId, sessionId, agent, transport, startedAt } = request;
    const telemetry = this.telemetry ?? NO_TELEMETRY;
    const closeTelemetry = telemetry.opened?.(sessionId, tenantId);
    const reporter = observed(request.reporter, sessionId, telemetry);
    this.prewarm();
    let invoker: ToolInvoker | null = null;
    let dialogue: Dialogue;
    if (this.model) {
      invoker = new ToolInvoker({
        tenantId,
        sessionId,
        secretOf: (id) => this.secrets.secretOf(id),
        allowPrivateUrls: settingsOf(this.config, webhooksSettings).allowPrivateUrls,
        reporter,
      });
      dialogue = new ModelDialogue(agent, this.model, invoker, transport.keypad ?? null);
    } else {
      dialogue = new BuiltinDialogue(agent);
    }
    const conversation = new Conversation({
      sessionId,
      agent,
      transport,
      reporter,
      recognizer: this.recognizer,
      synthesizer: this.synthesizer,
      apologySynthesizer: this.apologySynthesizer,
      dialogue,
      startedAt,
      telemetry,
      ...(request.line ? { line: request.line } : {}),
      ...(request.voicemailMessage !== undefined ? { voicemailMessage: request.voicemailMessage } : {}),
    });
    this.live.add(conversation);
    void conversation.finished.then((reason) => {
      this.live.delete(conversation);
      invoker?.close();
      closeTelemetry?.();
      this.logger.debug(`The conversation of ${sessionId} ended (${reason}).`);
    });
    conversation.start();
    return { end: () => conversation.end('hangup'), finished: conversation.finished };
  }

  get liveConversations(): number {
    return this.live.size;
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([...this.live].map((c) => c.end('hangup')));
  }

  /** Embedded engines load their models ahead of the first utterance (no-op for HTTP engines). */
  private prewarm(recognizers = this.live.size + PREWARM_RECOGNIZERS): void {
    const warmable = (engine: object): engine is { prewarm(count?: number): void } =>
      typeof (engine as { prewarm?: unknown }).prewarm === 'function';
    try {
      if (warmable(this.recognizer)) this.recognizer.prewarm(recognizers);
      if (warmable(this.synthesizer)) this.synthesizer.prewarm();
    } catch (err) {
      // Not built here (EngineUnavailable names what to install): the conversation goes on and each
      // utterance it cannot hear or say is logged; the call itself is not refused.
      if (!this.warnedUnavailable) this.logger.warn((err as Error).message);
      this.warnedUnavailable = true;
    }
  }
}

/** The host's reporter, with tool calls also sent to the telemetry. */
function observed(reporter: ConversationReporter, sessionId: string, telemetry: TurnTelemetry): ConversationReporter {
  return {
    turn: (entry) => reporter.turn(entry),
    metrics: (turn) => reporter.metrics(turn),
    functionInvoked: (invocation) => {
      telemetry.toolCall(sessionId, invocation);
      return reporter.functionInvoked(invocation);
    },
    functionTimeout: (timeout) => reporter.functionTimeout(timeout),
    transfer: (number) => reporter.transfer(number),
    transferFailed: (number, failure) => reporter.transferFailed(number, failure),
    optOut: () => reporter.optOut(),
    ended: (reason) => reporter.ended(reason),
  };
}
