/** The voices context's part of the event catalog: voice_clone.*. */
import { defineEvents } from '../catalog/event-fragment';
import { integer, object, oneOf, text, timestamp } from '../catalog/payload-schema';

export const VOICE_CLONE_ERROR_CODES = [
  'insufficient_samples',
  'sample_too_short',
  'sample_too_quiet',
  'voice_clone_disabled_on_plan',
  'sample_too_long',
  'samples_too_long',
  'decode_timeout',
  'decode_failed',
] as const;
export type VoiceCloneErrorCode = (typeof VOICE_CLONE_ERROR_CODES)[number];

export interface VoiceCloneTrainingStartedData {
  voice_id: string;
  name: string;
  samples: number;
}

export interface VoiceCloneTrainingSucceededData {
  voice_id: string;
  name: string;
  ready_at: string;
}

export interface VoiceCloneTrainingFailedData {
  voice_id: string;
  name: string;
  error_code: VoiceCloneErrorCode;
  error_message: string;
}

const voiceCloneTrainingStarted = object<VoiceCloneTrainingStartedData>({
  voice_id: text(),
  name: text(),
  samples: integer('Number of uploaded samples.'),
});

const voiceCloneTrainingSucceeded = object<VoiceCloneTrainingSucceededData>({
  voice_id: text(),
  name: text(),
  ready_at: timestamp(),
});

const voiceCloneTrainingFailed = object<VoiceCloneTrainingFailedData>({
  voice_id: text(),
  name: text(),
  error_code: oneOf(VOICE_CLONE_ERROR_CODES),
  error_message: text('Free text.'),
});

export type VoiceClonePayloads = {
  'voice_clone.training_started': VoiceCloneTrainingStartedData;
  'voice_clone.training_succeeded': VoiceCloneTrainingSucceededData;
  'voice_clone.training_failed': VoiceCloneTrainingFailedData;
};

// Example values shared with the other contexts' examples, so the documented events tell one consistent story.
const EX = {
  voice: 'voi_01jf8x3e7r9t1y5u2i8o',
} as const;

export const voiceCloneEvents = defineEvents<VoiceClonePayloads>({
  groups: { voice_clone: 'Voice clone events' },
  events: {
    'voice_clone.training_started': {
      description: 'Samples were uploaded and the training job picked them up.',
      payload: voiceCloneTrainingStarted,
      example: { voice_id: EX.voice, name: 'Support voice', samples: 4 },
    },
    'voice_clone.training_succeeded': {
      description: 'Training finished; the voice can be used in campaigns and sessions.',
      payload: voiceCloneTrainingSucceeded,
      example: { voice_id: EX.voice, name: 'Support voice', ready_at: '2026-03-01T09:14:52.330Z' },
    },
    'voice_clone.training_failed': {
      description: 'Training failed; error_code says why.',
      payload: voiceCloneTrainingFailed,
      example: {
        voice_id: 'voi_01jf8x4r2t6y8u0i2o4p',
        name: 'Sales voice',
        error_code: 'insufficient_samples',
        error_message: 'At least 3 samples of 30 seconds each are needed.',
      },
    },
  },
});
