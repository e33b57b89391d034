/**
 * The port behind which a voice is trained once its samples have passed the platform's checks
 * (sample-rules.ts). The built-in trainer (infra/builtin-voice-trainer.ts) only fingerprints the
 * measured audio and declares the voice ready; a hosted voice-cloning provider fits the same port:
 * its adapter uploads the samples, starts a job keyed by the voice id (so that asking again never
 * starts a second one), answers `pending` until the job is done, and then `ready` with the
 * provider's voice reference (or `failed`). The training timer calls `train` again after
 * `retryAfterMs` while it is pending, and retries with back-off when it throws.
 */
import type { SampleMeasurement } from './audio-meter';
import type { SampleFormat } from './audio-format';
import type { TrainingFailure } from './sample-rules';

export interface TrainingSample {
  readonly index: number;
  /** The stored file's bytes, read from the blob store when asked (a provider's adapter uploads them). */
  readonly open: () => Promise<AsyncIterable<Uint8Array>>;
  readonly format: SampleFormat;
  readonly sha256: string;
  readonly measurement: SampleMeasurement;
}

export interface TrainingRequest {
  readonly tenantId: string;
  readonly voiceId: string;
  readonly name: string;
  readonly samples: readonly TrainingSample[];
}

/** What the voice is, for whoever synthesises speech with it: the provider and its reference. */
export interface VoiceModel {
  readonly provider: string;
  readonly reference: string;
  /** Provider-specific facts shown with the voice (the built-in trainer's fingerprint). */
  readonly summary: Readonly<Record<string, unknown>>;
}

export type TrainingOutcome =
  | { readonly kind: 'ready'; readonly model: VoiceModel }
  | ({ readonly kind: 'failed' } & TrainingFailure)
  | { readonly kind: 'pending'; readonly retryAfterMs: number };

export interface VoiceTrainer {
  readonly provider: string;
  train(request: TrainingRequest): Promise<TrainingOutcome>;
}

export const VOICE_TRAINER = Symbol('VOICE_TRAINER');
