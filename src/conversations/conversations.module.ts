import { Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import type { BoundedContext } from '../runtime/bounded-context';
import { APP_CONFIG, AppConfig, settingsOf } from '../config/config';
import { conversationsSettings } from './conversations.config';
import { CHAT_MODEL, SPEECH_RECOGNIZER, SPEECH_SYNTHESIZER } from './engines/engines';
import { EmbeddedRecognizer } from './engines/embedded/embedded-recognizer';
import { EmbeddedSynthesizer } from './engines/embedded/embedded-synthesizer';
import { ToolSecretController } from './api/tool-secret.controller';
import { ToolSecrets } from './application/tool-secrets';
import { conversationsMigrations } from './conversations.migrations';
import { TenantsModule } from '../tenants';

/**
 * The agent that talks (docs/conversations.md): a streaming speech pipeline per session (voice
 * activity, recognition, dialogue with tools, synthesis, barge-in), run by rooms, test persona calls
 * and phone calls through one audio-transport port.
 */
@Module({
  // The tenants' API key guard of its routes (POST /v1/tool_secret/rotate).
  imports: [TenantsModule],
  providers: [
    {
      provide: SPEECH_RECOGNIZER,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) =>
        new EmbeddedRecognizer(settingsOf(config, conversationsSettings).speechModelDir),
    },
    { provide: SPEECH_SYNTHESIZER, useFactory: () => new EmbeddedSynthesizer() },
    { provide: CHAT_MODEL, useValue: null },
    ToolSecrets,
  ],
  controllers: [ToolSecretController],
  exports: [SPEECH_RECOGNIZER, SPEECH_SYNTHESIZER, CHAT_MODEL],
})
export class ConversationsModule implements OnApplicationShutdown {
  static readonly context: BoundedContext = {
    name: 'conversations',
    settings: conversationsSettings,
    migrations: conversationsMigrations,
  };

  constructor(
    @Inject(SPEECH_RECOGNIZER) private readonly recognizer: { close?: () => void },
    @Inject(SPEECH_SYNTHESIZER) private readonly synthesizer: { close?: () => void },
  ) {}

  onApplicationShutdown(): void {
    this.recognizer.close?.();
    this.synthesizer.close?.();
  }
}
