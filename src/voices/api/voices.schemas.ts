/** The response schemas of the voice clones API (named ones become `components.schemas`). */
import { pageOf, shape } from '../../kernel/http/api-docs';

const nullable = (type: string, description?: string) => ({
  type: [type, 'null'],
  ...(description ? { description } : {}),
});
const nullableTime = { type: ['string', 'null'], format: 'date-time' };
const STATUSES = ['queued', 'training', 'ready', 'failed'];

const SAMPLE = shape('VoiceSample', {
  index: { type: 'integer', minimum: 0 },
  filename: { type: 'string' },
  content_type: { type: 'string' },
  format: { type: 'string', description: 'The container detected from the bytes: wav, flac, mp3 or ogg.' },
  bytes: { type: 'integer', minimum: 0 },
  sha256: { type: 'string' },
  duration_ms: nullable('integer', 'Null until the training job has measured the sample.'),
  duration_seconds: nullable('integer'),
  rms_dbfs: nullable('number'),
  peak_dbfs: nullable('number'),
  sample_rate: nullable('integer'),
  channels: nullable('integer'),
  spectral_centroid_hz: nullable('number'),
});

export const VOICE_CLONE = shape('VoiceClone', {
  voice_id: { type: 'string', description: 'The voice id (`voi_…`), usable as `agent_config.voice_id` once ready.' },
  name: { type: 'string' },
  status: { type: 'string', enum: STATUSES },
  sample_count: { type: 'integer', minimum: 0 },
  samples: { type: 'array', items: SAMPLE },
  error_code: nullable('string', 'Why training failed.'),
  error_message: nullable('string'),
  model: {
    type: ['object', 'null'],
    description: 'The trained model: its provider and reference, and the provider’s own facts about it.',
    properties: { provider: { type: 'string' }, reference: { type: 'string' } },
    required: ['provider', 'reference'],
  },
  created_at: { type: 'string', format: 'date-time' },
  training_started_at: nullableTime,
  ready_at: nullableTime,
  failed_at: nullableTime,
});
export const VOICE_CLONE_PAGE = pageOf('VoiceClonePage', VOICE_CLONE);

export const VOICE_CLONE_QUEUED = shape('VoiceCloneQueued', {
  voice_id: { type: 'string' },
  name: { type: 'string' },
  status: { type: 'string', const: 'queued' },
});

export const VOICE_EXAMPLE = {
  voice_id: 'voi_01jf8w2c4v6b8n0m2q4w',
  name: 'Support voice',
  status: 'ready',
  sample_count: 3,
  samples: [
    {
      index: 0,
      filename: 'sample-1.wav',
      content_type: 'audio/wav',
      format: 'wav',
      bytes: 1_440_044,
      sha256: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
      duration_ms: 30_000,
      duration_seconds: 30,
      rms_dbfs: -21.5,
      peak_dbfs: -3.2,
      sample_rate: 24_000,
      channels: 1,
      spectral_centroid_hz: 1450.2,
    },
  ],
  error_code: null,
  error_message: null,
  model: { provider: 'builtin', reference: 'voi_01jf8w2c4v6b8n0m2q4w' },
  created_at: '2026-11-21T10:00:00.000Z',
  training_started_at: '2026-11-21T10:00:01.000Z',
  ready_at: '2026-11-21T10:00:05.000Z',
  failed_at: null,
};
