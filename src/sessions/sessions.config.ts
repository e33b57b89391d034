import { defineSettings } from '../config/config-section';

export interface SessionsSettings {
  simTimeScale: number;
  recordingPurgeGraceMs: number;
  /** Key of recording links; null: derived from the webhook secret key (see recording-links.ts). */
  recordingUrlSecret: string | null;
  recordingUrlTtlMs: number;
  callRateCentsPerMinute: number;
  /** Production calls a tenant may have queued (not yet started) at once; one more is a 429 (MAX_QUEUED_CALLS_PER_TENANT). */
  maxQueuedCallsPerTenant: number;
  /** OpenAI-compatible chat-completions base URL (e.g. `http://127.0.0.1:11434/v1`) for dispositions; null: built-in evaluator. */
  llmUrl: string | null;
  /** Bearer of LLM_URL; null: requests carry no Authorization (Ollama, llama.cpp, vLLM without a key). */
  llmApiKey: string | null;
  /** Model asked at LLM_URL; set whenever llmUrl is. */
  llmModel: string | null;
}

/** The sessions context's settings (docs/configuration.md, "Calls"). */
export const sessionsSettings = defineSettings<SessionsSettings>({
  title: 'Calls',
  intro:
    "Calls, the test-pool simulator, recordings and dispositions. After a campaign call whose agent has `dispositions`, one code is picked from the transcript (`session.disposition_set`; [decisions.md](decisions.md) #30). The media gateway and the SIP trunk are the platform's (production telephony, above); where recording links point (`RECORDINGS_URL`) is with its addresses.",
  variables: [
    {
      variable: 'SIM_TIME_SCALE',
      default: '`1`',
      meaning:
        'Clock factor of the test-pool simulator: a number greater than 0 and at most 1000. With `0.01`, a 60 s simulated call takes 0.6 s, and every other simulated delay shrinks the same way. Test calls with `test_persona` speak in real time: it does not apply to them (docs/conversations-api.md).',
    },
    {
      variable: 'CALL_RATE_CENTS_PER_MINUTE',
      default: '`10`',
      meaning: 'Price of a production call per started minute: an integer from 0 to 1000000.',
    },
    {
      variable: 'MAX_QUEUED_CALLS_PER_TENANT',
      default: '`1000`',
      meaning:
        'Production calls a tenant may have queued at once (placed and not started: they wait while its balance is depleted): an integer from 1 to 1000000. One more is `429` `rate_limited`, its message naming the cap; test calls are not counted. See [credits.md](credits.md#while-depleted).',
    },
    {
      variable: 'RECORDING_PURGE_GRACE',
      default: '`7d`',
      meaning: 'Duration: the grace window before an opted-out recording is purged.',
    },
    {
      variable: 'RECORDING_URL_SECRET',
      default: 'derived',
      meaning:
        'Key of the signed recording links: at least 32 characters. Unset: derived from the webhook secret key. See [calls-and-test-pool.md](calls-and-test-pool.md#recording-links).',
    },
    {
      variable: 'RECORDING_URL_TTL',
      default: '`7d`',
      meaning: 'Duration from 1 s to 366 d: how long a recording link stays valid.',
    },
    {
      variable: 'LLM_URL',
      default: 'unset: built-in evaluator',
      meaning:
        "Base URL of an OpenAI-compatible chat-completions server (`http:` or `https:`), such as `https://api.openai.com/v1`, vLLM's or llama.cpp server's `http://host:8000/v1`, or Ollama's `http://127.0.0.1:11434/v1`. Requests go to `LLM_URL/chat/completions` (the base's query string is kept), with a JSON-schema-constrained answer and a 20 s timeout. Test-mode calls always use the built-in evaluator.",
    },
    {
      variable: 'LLM_API_KEY',
      default: 'unset: no `Authorization` header',
      meaning: 'Sent as `Authorization: Bearer …`. A secret: never logged.',
    },
    {
      variable: 'LLM_MODEL',
      default: 'none; required when `LLM_URL` is set',
      meaning:
        'The model name sent in each request and reported as `model` in the event. There is no default, because each server names its models differently.',
    },
  ],
  parse: ({ str, int, duration, url, problem }) => {
    const scaleText = str('SIM_TIME_SCALE') ?? '1';
    const simTimeScale = Number(scaleText);
    if (!Number.isFinite(simTimeScale) || simTimeScale <= 0 || simTimeScale > 1000) {
      problem(`SIM_TIME_SCALE must be a positive number such as 1 or 0.01 (got "${scaleText}")`);
    }
    const rate = str('CALL_RATE_CENTS_PER_MINUTE');

    const recordingUrlSecret = str('RECORDING_URL_SECRET');
    if (recordingUrlSecret !== null && recordingUrlSecret.length < 32) {
      problem('RECORDING_URL_SECRET must be at least 32 characters (for example: openssl rand -base64 32)');
    }
    const recordingUrlTtlMs = duration('RECORDING_URL_TTL', '7d');
    if (recordingUrlTtlMs < 1000 || recordingUrlTtlMs > 366 * 86_400_000) {
      problem(`RECORDING_URL_TTL must be a duration from 1s to 366d (got "${str('RECORDING_URL_TTL') ?? ''}")`);
    }

    const llmUrl = url('LLM_URL', ['http:', 'https:']);
    const llmModel = str('LLM_MODEL');
    // No default model: each server (OpenAI, vLLM, Ollama, llama.cpp) names its own.
    if (str('LLM_URL') !== null && llmModel === null) {
      problem('LLM_MODEL is required when LLM_URL is set (the model the server is to use)');
    }
    return {
      simTimeScale: Number.isFinite(simTimeScale) && simTimeScale > 0 ? simTimeScale : 1,
      recordingPurgeGraceMs: duration('RECORDING_PURGE_GRACE', '7d'),
      recordingUrlSecret,
      recordingUrlTtlMs,
      callRateCentsPerMinute: rate === null ? 10 : int('CALL_RATE_CENTS_PER_MINUTE', 10, 0, 1_000_000),
      maxQueuedCallsPerTenant: int('MAX_QUEUED_CALLS_PER_TENANT', 1000, 1, 1_000_000),
      llmUrl,
      llmApiKey: str('LLM_API_KEY'),
      llmModel,
    };
  },
});
