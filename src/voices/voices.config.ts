import { availableParallelism } from 'node:os';
import { defineSettings } from '../config/config-section';

/** Voice clones (docs/voices.md "Bounds and quotas"): decoding threads, decoding bounds, per-tenant quotas. */
export interface VoiceLimits {
  /** Decoding worker threads at most (VOICE_DECODE_WORKERS). */
  decodeWorkers: number;
  /** Time bound of one sample's decode in training; its worker is terminated past it. */
  decodeTimeoutMs: number;
  /** Decoded audio one sample may hold, and all of a voice's samples together. */
  sampleMaxMs: number;
  totalMaxMs: number;
  /** Voice clones a tenant may keep (deleted ones do not count), and bytes of their stored samples. */
  clonesPerTenant: number;
  storageBytesPerTenant: number;
  /** Uploads one process handles at once (VOICE_UPLOADS_IN_FLIGHT); one more is a 429. */
  uploadsInFlight: number;
}

/** The voices context's settings (docs/configuration.md, "Voice clones"). */
export const voicesSettings = defineSettings<VoiceLimits>({
  title: 'Voice clones',
  intro:
    "Bounds that keep one tenant's uploads from stalling the others; see [voices.md](voices.md#bounds-and-quotas).",
  variables: [
    {
      variable: 'VOICE_DECODE_WORKERS',
      default: 'cores − 1 (at least 1, at most 4)',
      meaning:
        'Worker threads that decode voice samples: an integer from 1 to the number of cores. Decoding never runs on the event loop.',
    },
    {
      variable: 'VOICE_DECODE_TIMEOUT',
      default: '`30s`',
      meaning:
        "Duration from 1 ms to 10 m: how long one sample's decode in training may take; past it its worker is terminated and the training fails with `decode_timeout`.",
    },
    {
      variable: 'VOICE_SAMPLE_MAX_DURATION',
      default: '`10m`',
      meaning:
        'Duration from 30 s to 4 h: decoded audio one sample may hold; past it decoding stops and the training fails with `sample_too_long`.',
    },
    {
      variable: 'VOICE_TOTAL_MAX_DURATION',
      default: '`30m`',
      meaning:
        "Duration from 90 s to 24 h: decoded audio all of a voice's samples may hold together; past it, `samples_too_long`.",
    },
    {
      variable: 'VOICE_CLONES_PER_TENANT',
      default: '`25`',
      meaning:
        'Voice clones a tenant may keep (deleted ones do not count): an integer from 1 to 1000000. One more is a `422 voice_quota_exceeded`.',
    },
    {
      variable: 'VOICE_STORAGE_MB_PER_TENANT',
      default: '`1024`',
      meaning:
        "MB (1,048,576 bytes) of sample files a tenant's voice clones may hold: an integer from 1 to 10000000. An upload past it is a `422 storage_quota_exceeded`.",
    },
    {
      variable: 'VOICE_UPLOADS_IN_FLIGHT',
      default: '`8`',
      meaning:
        'Voice uploads (`POST /v1/voice_clones`) one process handles at once: an integer from 1 to 64, well below the database pool (30). One more is a `429 rate_limited` with `Retry-After`.',
    },
  ],
  parse: ({ int, durationWithin }) => {
    const cores = availableParallelism();
    return {
      // One core is left to the event loop; never more threads than cores.
      decodeWorkers: int('VOICE_DECODE_WORKERS', Math.max(1, Math.min(cores - 1, 4)), 1, Math.max(1, cores)),
      decodeTimeoutMs: durationWithin('VOICE_DECODE_TIMEOUT', '30s', 1, 600_000, '1ms to 10m'),
      sampleMaxMs: durationWithin('VOICE_SAMPLE_MAX_DURATION', '10m', 30_000, 4 * 3_600_000, '30s to 4h'),
      totalMaxMs: durationWithin('VOICE_TOTAL_MAX_DURATION', '30m', 90_000, 24 * 3_600_000, '90s to 24h'),
      clonesPerTenant: int('VOICE_CLONES_PER_TENANT', 25, 1, 1_000_000),
      storageBytesPerTenant: int('VOICE_STORAGE_MB_PER_TENANT', 1024, 1, 10_000_000) * 1024 * 1024,
      uploadsInFlight: int('VOICE_UPLOADS_IN_FLIGHT', 8, 1, 64),
    };
  },
});
