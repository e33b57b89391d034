import { Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import type { BoundedContext } from '../runtime/bounded-context';
import { APP_CONFIG, AppConfig, settingsOf } from '../config/config';
import { conversationsSettings } from './conversations.config';
import { CHAT_MODEL, SPEECH_RECOGNIZER, SPEECH_SYNTHESIZER } from './engines/engines';
import { EmbeddedRecognizer } from './engines/embedded/embedded-recognizer';
import { EmbeddedSynthesizer } from './engines/embedded/embedded-synthesizer';
import { Conversations, NO_TOOL_SECRETS, TOOL_SECRETS, TURN_TELEMETRY } from './application/conversations.service';
import { SessionReporters } from './application/session-reporter';
import { NO_TELEMETRY } from './pipeline/turn-telemetry';

/**
 * The agent that talks (docs/conversations.md): a streaming speech pipeline per session (voice
 * activity, recognition, dialogue with tools, synthesis, barge-in), run by rooms, test persona calls
 * and phone calls through one audio-transport port.
 */
@Module({
  providers: [
    {
      provide: SPEECH_RECOGNIZER,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) =>
        new EmbeddedRecognizer(settingsOf(config, conversationsSettings).speechModelDir),
    },
    { provide: SPEECH_SYNTHESIZER, useFactory: () => new EmbeddedSynthesizer() },
    { provide: CHAT_MODEL, useValue: null },
    // Bound by the integration: the sessions context's ToolSecrets (useExisting) and the telemetry.
    { provide: TOOL_SECRETS, useValue: NO_TOOL_SECRETS },
    { provide: TURN_TELEMETRY, useValue: NO_TELEMETRY },
    Conversations,
    SessionReporters,
  ],
  exports: [SPEECH_RECOGNIZER, SPEECH_SYNTHESIZER, CHAT_MODEL, Conversations, SessionReporters],
})
export class ConversationsModule implements OnApplicationShutdown {
  static readonly context: BoundedContext = { name: 'conversations', settings: conversationsSettings };

  constructor(
    @Inject(SPEECH_RECOGNIZER) private readonly recognizer: { close?: () => void },
    @Inject(SPEECH_SYNTHESIZER) private readonly synthesizer: { close?: () => void },
  ) {}

  onApplicationShutdown(): void {
    this.recognizer.close?.();
    this.synthesizer.close?.();
  }
}
