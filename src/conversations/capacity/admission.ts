/**
 * Whether this instance takes one more conversation (docs/capacity.md): the decision, pure. It
 * looks at what the instance carries (`active`, capped by MAX_CONVERSATIONS) and at the headroom
 * measured over the last window: how late the event loop ran, how late the media clocks' 20 ms
 * ticks ran, and how long the recogniser's oldest finished utterance has waited for its words.
 * A strained window closes admission until `coolDownWindows` calm windows have followed it, so that
 * a load which has just been admitted shows in the figures before more is let in. An instance that carries nothing
 * always admits: its strain is not the calls' doing, and refusing would leave it idle forever.
 */

export interface Headroom {
  /** The event loop's delay, 99th percentile over the window (ms). */
  loopDelayP99Ms: number;
  /** The media clocks' tick lateness, 99th percentile over the window (ms); 0 without ticks. */
  frameLatenessP99Ms: number;
  /** How long the recogniser's oldest finished utterance has waited for its words (ms). */
  recognizerOldestMs: number;
}

export interface AdmissionLimits {
  /** MAX_CONVERSATIONS: at most this many at once, whatever the headroom. */
  maxConversations: number;
  /** Strained when the loop's delay p99 is above this (the 20 ms frames need the loop). */
  loopDelayMs: number;
  /** Strained when the ticks' lateness p99 is above this (the jitter budget of admitted calls). */
  frameLatenessMs: number;
  /** Strained when an utterance has waited longer than this for its words. */
  recognizerWaitMs: number;
  /** Calm windows that must follow a strained one before admission opens again. */
  coolDownWindows: number;
}

export const DEFAULT_LIMITS: Omit<AdmissionLimits, 'maxConversations'> = {
  loopDelayMs: 40,
  frameLatenessMs: 15,
  recognizerWaitMs: 1_500,
  coolDownWindows: 2,
};

/** What strains the instance, worst first; empty when nothing does. */
export type Strain = 'event_loop' | 'frame_lateness' | 'recognizer';

export function strainsOf(headroom: Headroom, limits: AdmissionLimits): Strain[] {
  const strains: Strain[] = [];
  if (headroom.loopDelayP99Ms > limits.loopDelayMs) strains.push('event_loop');
  if (headroom.frameLatenessP99Ms > limits.frameLatenessMs) strains.push('frame_lateness');
  if (headroom.recognizerOldestMs > limits.recognizerWaitMs) strains.push('recognizer');
  return strains;
}

/** Why a conversation was refused: the explicit cap, or the measured headroom. */
export type RefusalReason = 'max_conversations' | 'headroom';

export type Admission = { admit: true } | { admit: false; reason: RefusalReason | 'draining' };

/**
 * The admission state between windows: `closedFor` calm windows still to come before a recent strain
 * stops closing admission. A new
 * window's figures go through `afterWindow`; each request through `admits`.
 */
export interface AdmissionState {
  closedFor: number;
  strains: Strain[];
}

export const OPEN: AdmissionState = { closedFor: 0, strains: [] };

export function afterWindow(state: AdmissionState, headroom: Headroom, limits: AdmissionLimits): AdmissionState {
  const strains = strainsOf(headroom, limits);
  if (strains.length > 0) return { closedFor: limits.coolDownWindows, strains };
  const closedFor = Math.max(0, state.closedFor - 1);
  return { closedFor, strains: closedFor > 0 ? state.strains : [] };
}

export function admits(state: AdmissionState, active: number, limits: AdmissionLimits): Admission {
  if (active >= limits.maxConversations) return { admit: false, reason: 'max_conversations' };
  if (active > 0 && state.closedFor > 0) return { admit: false, reason: 'headroom' };
  return { admit: true };
}
