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
}

/** The sessions context's settings (docs/configuration.md, "Calls"). */
export const sessionsSettings = defineSettings<SessionsSettings>({
  title: 'Calls',
  intro:
    "Calls, the test-pool simulator, recordings, dispositions and post-call analyses. After a campaign call whose agent has `dispositions`, one code is picked from the transcript (`session.disposition_set`; [decision 30](decisions/0030-dispositions-evaluated-once-after-session-ended-by-a-model.md)), by the model of `LLM_URL` (Conversations, below) when it is set. After a call whose agent has `analysis`, the call is analysed (`session.analysis_completed`: a summary, structured data, success; [decision 193](decisions/0193-post-call-analysis-after-the-end-by-the-model-or-built-in.md)), by the same model when it is set, else by the built-in analysis. The media gateway and the SIP trunk are the platform's (production telephony, above); where recording links point (`RECORDINGS_URL`) is with its addresses.",
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
  ],
  parse: ({ str, int, duration, problem }) => {
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

    return {
      simTimeScale: Number.isFinite(simTimeScale) && simTimeScale > 0 ? simTimeScale : 1,
      recordingPurgeGraceMs: duration('RECORDING_PURGE_GRACE', '7d'),
      recordingUrlSecret,
      recordingUrlTtlMs,
      callRateCentsPerMinute: rate === null ? 10 : int('CALL_RATE_CENTS_PER_MINUTE', 10, 0, 1_000_000),
      maxQueuedCallsPerTenant: int('MAX_QUEUED_CALLS_PER_TENANT', 1000, 1, 1_000_000),
    };
  },
});
