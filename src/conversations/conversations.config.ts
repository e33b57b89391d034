import { type AppConfig, settingsOf } from '../config/config';
import { defineSettings } from '../config/config-section';
import { DEFAULT_LLM_MAX_TOKENS, type EngineEndpoint } from './engines/engines';
import { v1BaseUrl } from './engines/openai/v1-base-url';

export { DEFAULT_LLM_MAX_TOKENS, type EngineEndpoint };

/** STT_PROVIDER: the API STT_URL speaks (docs/speech-engines.md). */
export type SttProvider = 'openai' | 'deepgram';
/** TTS_PROVIDER: the API TTS_URL speaks. */
export type TtsProvider = 'openai' | 'elevenlabs';

export interface ConversationsSettings {
  /** Speech recognition at STT_URL (`sttProvider`'s API); null: the embedded pocketsphinx. */
  stt: EngineEndpoint | null;
  sttProvider: SttProvider;
  /** Speech synthesis at TTS_URL (`ttsProvider`'s API); null: the embedded flite. */
  tts: EngineEndpoint | null;
  ttsProvider: TtsProvider;
  /** The dialogue model over streamed `/v1/chat/completions`; null: the built-in dialogue. */
  llm: EngineEndpoint | null;
  /** `max_tokens` of each dialogue model request (LLM_MAX_TOKENS): the longest answer the model may give. */
  llmMaxTokens: number;
  /** The pocketsphinx model folder of the embedded recogniser. */
  speechModelDir: string;
  /** Where traces go over OTLP/HTTP (`OTEL_EXPORTER_OTLP_ENDPOINT`); null: spans are not exported. */
  otlpEndpoint: string | null;
  /** OTEL_SERVICE_NAME: the spans' `service.name`. */
  serviceName: string;
  /** MAX_CONVERSATIONS: conversations this instance carries at once; null: derived from the cores (capacity.ts). */
  maxConversations: number | null;
  /** CAPACITY_HEADROOM: `measured` (admission also follows the measured headroom) or `off` (MAX_CONVERSATIONS only). */
  capacityHeadroom: 'measured' | 'off';
  /** DRAIN_TIMEOUT: how long a stopping instance waits for its conversations to end (ms). */
  drainTimeoutMs: number;
  /** RECOGNIZER_POOL: embedded recognisers loaded at start; null: one per conversation the instance carries and one spare (at most 32). */
  recognizerPool: number | null;
}

/** Each provider's default model, when `<PREFIX>_MODEL` is unset. */
const DEFAULT_MODELS = {
  openai: { STT: 'whisper-1', TTS: 'tts-1' },
  deepgram: 'nova-3',
  elevenlabs: 'eleven_flash_v2_5',
};

const ENGINES = [
  { prefix: 'STT', path: '/v1/audio/transcriptions', model: 'whisper-1', what: 'speech recognition' },
  { prefix: 'TTS', path: '/v1/audio/speech', model: 'tts-1', what: 'speech synthesis' },
  {
    prefix: 'LLM',
    path: '/v1/chat/completions (streamed, with tool calls)',
    model: null,
    what: 'the dialogue',
  },
] as const;

/** The conversations context's settings (docs/configuration.md, "Conversations"). */
export const conversationsSettings = defineSettings<ConversationsSettings>({
  title: 'Conversations',
  intro:
    'See [speech-engines.md](speech-engines.md). Each engine is an OpenAI-compatible HTTP API when its URL is set; unset, the embedded engine serves, offline.',
  variables: [
    ...ENGINES.flatMap(({ prefix, path, model, what }) => [
      {
        variable: `${prefix}_URL`,
        default: 'unset',
        meaning:
          `Base URL (http or https) of an OpenAI-compatible API for ${what}, with or without its trailing \`/v1\` (decision 106): the platform calls \`${path}\` under it. Unset: the embedded engine.` +
          (prefix === 'LLM'
            ? " The same model derives campaign calls' dispositions (`session.disposition_set`, a JSON-schema-constrained answer, 20 s timeout; test-mode calls always use the built-in evaluator). Examples: `https://api.openai.com/v1`, vLLM's or llama.cpp server's `http://host:8000/v1`, Ollama's `http://127.0.0.1:11434/v1`."
            : ''),
      },
      {
        variable: `${prefix}_API_KEY`,
        default: 'unset',
        meaning: `Bearer key sent to \`${prefix}_URL\`; unset, no \`Authorization\` header.`,
      },
      {
        variable: `${prefix}_MODEL`,
        default: model === null ? 'none; required when `LLM_URL` is set' : `\`${model}\``,
        meaning:
          `The \`model\` named in requests to \`${prefix}_URL\`` +
          (model === null
            ? ', and reported as `model` in `session.disposition_set`. No default: each server names its models differently.'
            : '.'),
      },
    ]),
    {
      variable: 'STT_PROVIDER',
      default: '`openai`',
      meaning:
        "The API at `STT_URL`: `openai` (`/v1/audio/transcriptions`, one request per utterance once it ended) or `deepgram` (Deepgram's live streaming API through `@deepgram/sdk`, its WebSocket derived from `STT_URL`, e.g. `https://api.deepgram.com`: words while the caller speaks, and the provider's endpointing ends the turn). `STT_MODEL` defaults to `nova-3` with `deepgram`.",
    },
    {
      variable: 'TTS_PROVIDER',
      default: '`openai`',
      meaning:
        "The API at `TTS_URL`: `openai` (`/v1/audio/speech`, its body streamed: the first chunk plays as it arrives) or `elevenlabs` (ElevenLabs' stream-input WebSocket, e.g. `https://api.elevenlabs.io`: each answer's text is sent clause by clause as the model writes it). `TTS_MODEL` defaults to `eleven_flash_v2_5` with `elevenlabs`; the key goes in `xi-api-key`.",
    },
    {
      variable: 'LLM_MAX_TOKENS',
      default: `\`${DEFAULT_LLM_MAX_TOKENS}\``,
      meaning:
        'The `max_tokens` of every dialogue request to `LLM_URL` (16 to 8192): the longest answer the model may give to one user turn, tool calls included (about 4 characters per token; a spoken line is synthesised in pieces of at most 400 characters, docs/conversations.md).',
    },
    {
      variable: 'SPEECH_MODEL_DIR',
      default: '`/usr/share/pocketsphinx/model/en-us`',
      meaning: "The embedded recogniser's pocketsphinx model folder (Debian's `pocketsphinx-en-us`).",
    },
    {
      variable: 'MAX_CONVERSATIONS',
      default: 'see text',
      meaning:
        'Conversations (phone calls, room calls, test persona calls) this instance carries at once (1 to 10000); beyond it, and whenever the measured headroom is short, new ones are refused or wait ([capacity.md](capacity.md)). Unset: 4 per core with the embedded recogniser, 25 per core with `STT_URL`.',
    },
    {
      variable: 'CAPACITY_HEADROOM',
      default: '`measured`',
      meaning:
        '`measured`: a new conversation is also refused while the measured headroom is short (the event loop or the 20 ms media ticks running late, the recogniser falling behind; [capacity.md](capacity.md)). `off`: only `MAX_CONVERSATIONS` counts.',
    },
    {
      variable: 'DRAIN_TIMEOUT',
      default: '`10m`',
      meaning:
        'Duration from 0 s to 1 h: on `SIGTERM` the instance takes no new conversation (SIP `OPTIONS` and `INVITE` answered `503`, `/ready` `503` `draining`) and waits up to this long for the ones it carries to end before it stops; those still going then end as on any shutdown. `0s`: no wait ([capacity.md](capacity.md)).',
    },
    {
      variable: 'RECOGNIZER_POOL',
      default: 'see text',
      meaning:
        'Embedded recognisers (pocketsphinx helper processes, each with its model loaded) started with the instance, 0 to 32, so that no conversation waits for a model to load: more are started as conversations need them. Unset: `MAX_CONVERSATIONS` + 1, at most 32. Not used with `STT_URL`.',
    },
    {
      variable: 'OTEL_EXPORTER_OTLP_ENDPOINT',
      default: 'unset',
      meaning:
        'OTLP/HTTP collector base URL: spans of every conversation turn are exported to `<url>/v1/traces`. Unset: no export.',
    },
    {
      variable: 'OTEL_SERVICE_NAME',
      default: 'voice-agent-platform',
      meaning: 'The `service.name` of the exported spans (the OpenTelemetry standard variable).',
    },
  ],
  parse: ({ str, url, int, durationWithin, problem }) => {
    // Every variable is read whatever the others say: the documentation test reads them once.
    const sttProvider = str('STT_PROVIDER') ?? 'openai';
    if (sttProvider !== 'openai' && sttProvider !== 'deepgram')
      problem(`STT_PROVIDER must be openai or deepgram (got "${sttProvider}")`);
    const ttsProvider = str('TTS_PROVIDER') ?? 'openai';
    if (ttsProvider !== 'openai' && ttsProvider !== 'elevenlabs')
      problem(`TTS_PROVIDER must be openai or elevenlabs (got "${ttsProvider}")`);
    const endpoint = (prefix: string, defaultModel: string | null): EngineEndpoint | null => {
      const base = url(`${prefix}_URL`, ['http:', 'https:']);
      const apiKey = str(`${prefix}_API_KEY`);
      const model = str(`${prefix}_MODEL`) ?? defaultModel;
      if (str(`${prefix}_URL`) !== null && model === null) {
        problem(`${prefix}_MODEL is required when ${prefix}_URL is set (the model the server is to use)`);
      }
      return base && model ? { url: base.replace(/\/+$/, ''), apiKey, model } : null;
    };
    const headroom = str('CAPACITY_HEADROOM') ?? 'measured';
    if (headroom !== 'measured' && headroom !== 'off')
      problem(`CAPACITY_HEADROOM must be measured or off (got "${headroom}")`);
    return {
      stt: endpoint('STT', sttProvider === 'deepgram' ? DEFAULT_MODELS.deepgram : DEFAULT_MODELS.openai.STT),
      sttProvider: sttProvider === 'deepgram' ? 'deepgram' : 'openai',
      tts: endpoint('TTS', ttsProvider === 'elevenlabs' ? DEFAULT_MODELS.elevenlabs : DEFAULT_MODELS.openai.TTS),
      ttsProvider: ttsProvider === 'elevenlabs' ? 'elevenlabs' : 'openai',
      // No default model: each server (OpenAI, vLLM, Ollama, llama.cpp) names its own.
      llm: endpoint('LLM', null),
      llmMaxTokens: int('LLM_MAX_TOKENS', DEFAULT_LLM_MAX_TOKENS, 16, 8192),
      speechModelDir: str('SPEECH_MODEL_DIR') ?? '/usr/share/pocketsphinx/model/en-us',
      otlpEndpoint: url('OTEL_EXPORTER_OTLP_ENDPOINT', ['http:', 'https:']),
      serviceName: str('OTEL_SERVICE_NAME') ?? 'voice-agent-platform',
      maxConversations: str('MAX_CONVERSATIONS') === null ? null : int('MAX_CONVERSATIONS', 1, 1, 10_000),
      capacityHeadroom: headroom === 'off' ? 'off' : 'measured',
      drainTimeoutMs: durationWithin('DRAIN_TIMEOUT', '10m', 0, 3_600_000, '0s to 1h'),
      recognizerPool: str('RECOGNIZER_POOL') === null ? null : int('RECOGNIZER_POOL', 0, 0, 32),
    };
  },
});

/**
 * The dialogue model (LLM_URL, LLM_API_KEY, LLM_MODEL) for another context: the sessions' disposition
 * evaluator asks the same model. `url` ends with `/v1` (decision 106), a query string kept.
 */
export function dialogueModel(config: AppConfig): EngineEndpoint | null {
  const { llm } = settingsOf(config, conversationsSettings);
  return llm ? { ...llm, url: v1BaseUrl(llm.url) } : null;
}
