/**
 * A voice clone, one stream per voice (`voice_clone-<voice id>`): its uploaded samples, the training
 * job's progress and its outcome.
 *
 *   queued ──start──▶ training ──(every sample measured)──▶ ready     (voice_clone.training_succeeded)
 *                         └────────────────────────────────▶ failed    (voice_clone.training_failed)
 *   any ──delete──▶ deleted
 *
 * The training job (application/voice-training.ts) measures one sample per run and records each
 * measurement here, so a crash resumes with the next sample; every command is a no-op when repeated.
 * Which rule a failure breaks is decided by sample-rules.ts; this decider keeps the order of things.
 */
import type { Decider, DomainEvent } from '../../kernel/decider';
import { defineEdge } from '../../kernel/event-edge';
import { DomainError, notFound } from '../../kernel/result';
import { streamName } from '../../kernel/stream-name';
import type {
  VoiceCloneTrainingFailedData,
  VoiceCloneTrainingStartedData,
  VoiceCloneTrainingSucceededData,
} from '../voices.events';
import type { SampleFormat } from './audio-format';
import type { SampleMeasurement } from './audio-meter';
import type { TrainingFailure } from './sample-rules';
import type { VoiceModel } from './voice-trainer';

/** A stored sample file, as uploaded. `path` is relative to DATA_DIR/voices. */
export interface SampleFile {
  readonly filename: string | null;
  readonly content_type: string | null;
  readonly format: SampleFormat;
  readonly bytes: number;
  readonly sha256: string;
  readonly path: string;
}

export type VoiceCloneEvent =
  | DomainEvent<'voice_clone.uploaded', { voice_id: string; name: string; samples: readonly SampleFile[] }>
  | DomainEvent<'voice_clone.training_started', VoiceCloneTrainingStartedData>
  | DomainEvent<'voice_clone.sample_measured', { voice_id: string; index: number; measurement: SampleMeasurement }>
  | DomainEvent<'voice_clone.model_trained', { voice_id: string; model: VoiceModel }>
  | DomainEvent<'voice_clone.training_succeeded', VoiceCloneTrainingSucceededData>
  | DomainEvent<'voice_clone.training_failed', VoiceCloneTrainingFailedData>
  | DomainEvent<'voice_clone.deleted', { voice_id: string; deleted_at: string }>;

export const VOICE_CLONE_EVENT_TYPES: readonly VoiceCloneEvent['type'][] = [
  'voice_clone.uploaded',
  'voice_clone.training_started',
  'voice_clone.sample_measured',
  'voice_clone.model_trained',
  'voice_clone.training_succeeded',
  'voice_clone.training_failed',
  'voice_clone.deleted',
];

export type VoiceCloneCommand =
  | { type: 'upload'; voiceId: string; name: string; samples: readonly SampleFile[] }
  | { type: 'start_training' }
  | { type: 'record_measurement'; index: number; measurement: SampleMeasurement }
  | ({ type: 'fail' } & TrainingFailure)
  | { type: 'succeed'; model: VoiceModel; at: string }
  | { type: 'delete'; at: string };

export type VoiceCloneStatus = 'queued' | 'training' | 'ready' | 'failed' | 'deleted';

export interface VoiceClone {
  readonly status: VoiceCloneStatus;
  readonly voiceId: string;
  readonly name: string;
  readonly samples: readonly SampleFile[];
  /** By sample index; null until measured. */
  readonly measurements: readonly (SampleMeasurement | null)[];
  readonly failure: TrainingFailure | null;
}

export type VoiceCloneState = { status: 'none' } | VoiceClone;

export const voiceCloneStream = streamName('voice_clone');

/** Its stored events read back (event-edge.ts): each type's required fields. */
export const voiceCloneEdge = defineEdge<VoiceCloneEvent>({
  'voice_clone.uploaded': { voice_id: true, name: true, samples: true },
  'voice_clone.training_started': { voice_id: true, name: true, samples: true },
  'voice_clone.sample_measured': { voice_id: true, index: true, measurement: true },
  'voice_clone.model_trained': { voice_id: true, model: true },
  'voice_clone.training_succeeded': { voice_id: true, name: true, ready_at: true },
  'voice_clone.training_failed': { voice_id: true, name: true, error_code: true, error_message: true },
  'voice_clone.deleted': { voice_id: true, deleted_at: true },
});

export const voiceCloneDecider: Decider<VoiceCloneCommand, VoiceCloneState, VoiceCloneEvent> = {
  edge: voiceCloneEdge,
  initialState: () => ({ status: 'none' }),
  evolve,
  decide,
};

/** The index of the first sample not measured yet, or -1 when all are. */
export const nextUnmeasured = (voice: VoiceClone): number => voice.measurements.findIndex((m) => m === null);

function evolve(state: VoiceCloneState, event: VoiceCloneEvent): VoiceCloneState {
  if (event.type === 'voice_clone.uploaded') {
    return {
      status: 'queued',
      voiceId: event.data.voice_id,
      name: event.data.name,
      samples: event.data.samples,
      measurements: event.data.samples.map(() => null),
      failure: null,
    };
  }
  if (state.status === 'none') return state;
  switch (event.type) {
    case 'voice_clone.training_started':
      return { ...state, status: 'training' };
    case 'voice_clone.sample_measured': {
      const measurements = [...state.measurements];
      measurements[event.data.index] = event.data.measurement;
      return { ...state, measurements };
    }
    case 'voice_clone.model_trained':
      return state;
    case 'voice_clone.training_succeeded':
      return { ...state, status: 'ready' };
    case 'voice_clone.training_failed':
      return {
        ...state,
        status: 'failed',
        failure: { error_code: event.data.error_code, error_message: event.data.error_message },
      };
    case 'voice_clone.deleted':
      return { ...state, status: 'deleted' };
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}

function decide(command: VoiceCloneCommand, state: VoiceCloneState): VoiceCloneEvent[] {
  if (command.type === 'upload') {
    if (state.status !== 'none') return []; // the same upload stored twice stores it once
    if (command.samples.length === 0)
      throw new DomainError('invalid_request', 'At least one sample file is needed.', 'samples');
    return [
      {
        type: 'voice_clone.uploaded',
        data: { voice_id: command.voiceId, name: command.name, samples: command.samples },
      },
    ];
  }
  if (state.status === 'none' || state.status === 'deleted') throw notFound('voice clone', 'voice_id');
  const who = { voice_id: state.voiceId, name: state.name };
  switch (command.type) {
    case 'start_training':
      return state.status === 'queued'
        ? [{ type: 'voice_clone.training_started', data: { ...who, samples: state.samples.length } }]
        : [];
    case 'record_measurement':
      if (state.status !== 'training' || state.measurements[command.index] !== null) return [];
      return [
        {
          type: 'voice_clone.sample_measured',
          data: { voice_id: state.voiceId, index: command.index, measurement: command.measurement },
        },
      ];
    case 'fail':
      if (state.status !== 'training') return [];
      return [
        {
          type: 'voice_clone.training_failed',
          data: { ...who, error_code: command.error_code, error_message: command.error_message },
        },
      ];
    case 'succeed':
      // Only once every sample has been measured and judged (the job judges before it trains).
      if (state.status !== 'training' || nextUnmeasured(state) !== -1) return [];
      return [
        { type: 'voice_clone.model_trained', data: { voice_id: state.voiceId, model: command.model } },
        { type: 'voice_clone.training_succeeded', data: { ...who, ready_at: command.at } },
      ];
    case 'delete':
      return [{ type: 'voice_clone.deleted', data: { voice_id: state.voiceId, deleted_at: command.at } }];
    default: {
      const unreachable: never = command;
      return unreachable;
    }
  }
}
