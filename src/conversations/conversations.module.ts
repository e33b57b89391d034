import { Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import type { BoundedContext } from '../runtime/bounded-context';
import { APP_CONFIG, AppConfig, settingsOf } from '../config/config';
import { conversationsSettings, dialogueModel } from './conversations.config';
import { DispositionModel, PersonaCalls } from '../sessions';
import { PersonaCallRunner } from './application/persona-call-runner';
import { CHAT_MODEL, EMBEDDED_SPEECH_SYNTHESIZER, SPEECH_RECOGNIZER, SPEECH_SYNTHESIZER } from './engines/engines';
import { EmbeddedRecognizer } from './engines/embedded/embedded-recognizer';
import { EmbeddedSynthesizer } from './engines/embedded/embedded-synthesizer';
import { CachingSynthesizer } from './engines/synthesis-cache';
import { ConversationTelemetry } from './infra/telemetry';
import { Conversations, TOOL_SECRETS, TURN_TELEMETRY } from './application/conversations.service';
import { CallHost } from './application/call-host';
import { ConversationCapacity } from './capacity/conversation-capacity';
import { ToolSecretController } from './api/tool-secret.controller';
import { ToolSecrets } from './application/tool-secrets';
import { conversationsMigrations } from './conversations.migrations';
import { TenantsModule } from '../tenants';

/**
 * The agent that talks (docs/conversations.md): a streaming speech pipeline per session (voice
 * activity, recognition, dialogue with tools, synthesis, barge-in), run by rooms, test persona calls
 * and phone calls through one audio-transport port. Each engine is the OpenAI-compatible adapter when
 * its URL is set (STT_URL, TTS_URL, LLM_URL), else the embedded one (docs/speech-engines.md). The
 * adapters (and the `openai` library) are loaded only when their URL is set (decision 176).
 */
/* Global for sessions' two ports it provides: DispositionModel (the LLM_* settings are this context's) and PersonaCalls. */
@Global()
@Module({
  // The tenants' API key guard of its routes (POST /v1/tool_secret/rotate).
  imports: [TenantsModule],
  providers: [
    {
      provide: SPEECH_RECOGNIZER,
      inject: [APP_CONFIG],
      useFactory: async (config: AppConfig) => {
        const { stt, sttProvider, speechModelDir } = settingsOf(config, conversationsSettings);
        if (!stt) return new EmbeddedRecognizer(speechModelDir);
        if (sttProvider === 'deepgram')
          return new (await import('./engines/deepgram/deepgram-recognizer.js')).DeepgramRecognizer(stt);
        return new (await import('./engines/openai/openai-recognizer.js')).OpenAiRecognizer(stt);
      },
    },
    // Its helpers start on first use: with TTS_URL set it costs nothing until an apology needs it.
    { provide: EMBEDDED_SPEECH_SYNTHESIZER, useFactory: () => new EmbeddedSynthesizer() },
    {
      provide: SPEECH_SYNTHESIZER,
      inject: [APP_CONFIG, EMBEDDED_SPEECH_SYNTHESIZER],
      useFactory: async (config: AppConfig, embedded: EmbeddedSynthesizer) => {
        const { tts, ttsProvider } = settingsOf(config, conversationsSettings);
        const engine = !tts
          ? embedded
          : ttsProvider === 'elevenlabs'
            ? new (await import('./engines/elevenlabs/elevenlabs-synthesizer.js')).ElevenLabsSynthesizer(tts)
            : new (await import('./engines/openai/openai-synthesizer.js')).OpenAiSynthesizer(tts);
        // Every call of an agent opens with the same line: synthesised once (synthesis-cache.ts).
        return new CachingSynthesizer(engine);
      },
    },
    {
      provide: CHAT_MODEL,
      inject: [APP_CONFIG],
      useFactory: async (config: AppConfig) => {
        const { llm, llmMaxTokens } = settingsOf(config, conversationsSettings);
        if (!llm) return null;
        const { OpenAiChatModel, CHAT_LIMITS } = await import('./engines/openai/openai-chat-model.js');
        return new OpenAiChatModel(llm, CHAT_LIMITS, llmMaxTokens);
      },
    },
    ConversationTelemetry,
    ToolSecrets,
    { provide: TOOL_SECRETS, useExisting: ToolSecrets },
    {
      provide: TURN_TELEMETRY,
      inject: [ConversationTelemetry],
      useFactory: (telemetry: ConversationTelemetry) => telemetry.forPipeline(),
    },
    Conversations,
    CallHost,
    ConversationCapacity,
    PersonaCallRunner,
    { provide: PersonaCalls, useExisting: PersonaCallRunner },
    {
      provide: DispositionModel,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig): DispositionModel => ({ endpoint: dialogueModel(config) }),
    },
  ],
  controllers: [ToolSecretController],
  exports: [Conversations, CallHost, ConversationCapacity, DispositionModel, PersonaCalls],
})
export class ConversationsModule implements OnApplicationShutdown {
  static readonly context: BoundedContext = {
    name: 'conversations',
    settings: conversationsSettings,
    migrations: conversationsMigrations,
  };

  constructor(
    @Inject(SPEECH_RECOGNIZER) private readonly recognizer: { close?: () => void },
    @Inject(EMBEDDED_SPEECH_SYNTHESIZER) private readonly synthesizer: { close?: () => void },
  ) {}

  onApplicationShutdown(): void {
    this.recognizer.close?.();
    this.synthesizer.close?.();
  }
}
