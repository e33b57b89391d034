/**
 * What a voice clone's samples must be (docs/voices.md, "Training"), judged on the
 * decoded audio's measurements, never on header fields: the plan allows cloning, at least 3 samples,
 * each at least 30 seconds long and louder than -40 dBFS RMS. The first rule broken, in that order,
 * is the training's error_code; its message names every sample that breaks it.
 */
import type { VoiceCloneErrorCode } from '../voices.events';

export const SAMPLE_RULES = {
  minSamples: 3,
  minSeconds: 30,
  /** RMS below this is too quiet. */
  minRmsDbfs: -40,
} as const;

/** Upload limits (docs/voices.md, "API"): beyond them the request is a 413. */
export const UPLOAD_LIMITS = {
  maxFiles: 25,
  maxFileBytes: 20 * 1024 * 1024,
  maxNameLength: 100,
} as const;

export interface TrainingFailure {
  readonly error_code: VoiceCloneErrorCode;
  readonly error_message: string;
}

export interface MeasuredSample {
  readonly index: number;
  readonly filename: string | null;
  readonly duration_ms: number;
  readonly rms_dbfs: number;
}

const NEEDED = `at least ${SAMPLE_RULES.minSamples} samples of ${SAMPLE_RULES.minSeconds} seconds each are needed`;

/** The rules that need no audio: the plan and the number of samples. Null when both pass. */
export function judgeBeforeMeasuring(input: { plan: string; sampleCount: number }): TrainingFailure | null {
  if (input.plan === 'starter')
    return {
      error_code: 'voice_clone_disabled_on_plan',
      error_message: 'Voice cloning is not available on the starter plan; it is included in the pro plan.',
    };
  if (input.sampleCount < SAMPLE_RULES.minSamples)
    return {
      error_code: 'insufficient_samples',
      error_message: `${capitalise(NEEDED)}; ${input.sampleCount} ${input.sampleCount === 1 ? 'was' : 'were'} uploaded.`,
    };
  return null;
}

/** The rules on the measured audio: length, then loudness. Null when every sample passes. */
export function judgeMeasured(samples: readonly MeasuredSample[]): TrainingFailure | null {
  const short = samples.filter((s) => s.duration_ms < SAMPLE_RULES.minSeconds * 1000);
  if (short.length > 0)
    return {
      error_code: 'sample_too_short',
      error_message:
        `${listSamples(short, (s) => `${(s.duration_ms / 1000).toFixed(1)} s`)} ` +
        `${short.length === 1 ? 'is' : 'are'} shorter than ${SAMPLE_RULES.minSeconds} seconds of audio; ${NEEDED}.`,
    };
  const quiet = samples.filter((s) => s.rms_dbfs < SAMPLE_RULES.minRmsDbfs);
  if (quiet.length > 0)
    return {
      error_code: 'sample_too_quiet',
      error_message:
        `${listSamples(quiet, (s) => `RMS ${s.rms_dbfs.toFixed(1)} dBFS`)} ` +
        `${quiet.length === 1 ? 'is' : 'are'} too quiet: each sample must measure at least ` +
        `${SAMPLE_RULES.minRmsDbfs} dBFS RMS. Record closer to the microphone or raise the input gain.`,
    };
  return null;
}

/** How long samples may be (VOICE_SAMPLE_MAX_DURATION, VOICE_TOTAL_MAX_DURATION): decoding stops past them. */
export interface LengthBounds {
  readonly sampleMaxMs: number;
  readonly totalMaxMs: number;
}

/**
 * How much audio the next sample may decode: its own bound, or what is left of the voice's once the
 * samples measured before it (`measuredMs` together) are counted, whichever is less.
 */
export function decodeBudget(bounds: LengthBounds, measuredMs: number): { maxMs: number; bound: 'sample' | 'total' } {
  const left = Math.max(0, bounds.totalMaxMs - measuredMs);
  return left < bounds.sampleMaxMs ? { maxMs: left, bound: 'total' } : { maxMs: bounds.sampleMaxMs, bound: 'sample' };
}

export interface SampleRef {
  readonly index: number;
  readonly filename: string | null;
}

/** A sample whose decode passed its budget (`decodeBudget`): `sample_too_long` or `samples_too_long`. */
export function tooLong(sample: SampleRef, bound: 'sample' | 'total', bounds: LengthBounds): TrainingFailure {
  const limits =
    `each sample may hold at most ${spell(bounds.sampleMaxMs)} of audio, ` +
    `and the samples of one voice at most ${spell(bounds.totalMaxMs)} together`;
  return bound === 'sample'
    ? {
        error_code: 'sample_too_long',
        error_message: `${name(sample)} is longer than ${spell(bounds.sampleMaxMs)}: ${limits}. Upload shorter recordings.`,
      }
    : {
        error_code: 'samples_too_long',
        error_message:
          `The samples up to ${name(sample).toLowerCase()} hold more than ${spell(bounds.totalMaxMs)} of audio ` +
          `together: ${limits}. Upload fewer or shorter recordings.`,
      };
}

/** A sample whose decode ran past VOICE_DECODE_TIMEOUT: `decode_timeout`. */
export function decodeTimedOut(sample: SampleRef, timeoutMs: number): TrainingFailure {
  return {
    error_code: 'decode_timeout',
    error_message: `${name(sample)} could not be decoded within ${spell(timeoutMs)}. Re-encode it (WAV or FLAC decode fastest) and upload it again.`,
  };
}

/** A sample whose decoding worker died on it, again and again: `decode_failed`. */
export function decodeFailed(sample: SampleRef): TrainingFailure {
  return {
    error_code: 'decode_failed',
    error_message: `${name(sample)} could not be decoded: the decoder failed on it. Re-encode it and upload it again.`,
  };
}

/** `Sample 2 (a.wav)` */
const name = (s: SampleRef): string => `Sample ${s.index + 1}${s.filename ? ` (${s.filename})` : ''}`;

/** 600000 → `10 minutes`, 90000 → `1.5 minutes`, 30000 → `30 seconds`, 250 → `0.25 seconds`. */
export function spell(ms: number): string {
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  if (ms >= 3_600_000 && ms % 360_000 === 0) return plural(ms / 3_600_000, 'hour');
  if (ms >= 60_000 && ms % 6_000 === 0) return plural(ms / 60_000, 'minute');
  return plural(Math.round(ms) / 1000, 'second');
}

/** `Sample 2 (a.wav, 10.0 s)` or `Samples 1 (a.wav, …), 2 (…) and 3 (…)`. */
function listSamples(samples: readonly MeasuredSample[], detail: (s: MeasuredSample) => string): string {
  const items = samples.map((s) => `${s.index + 1} (${s.filename ? `${s.filename}, ` : ''}${detail(s)})`);
  const joined = items.length === 1 ? items[0] : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
  return `${items.length === 1 ? 'Sample' : 'Samples'} ${joined}`;
}

const capitalise = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);
