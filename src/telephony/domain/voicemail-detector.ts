/**
 * Answering-machine detection on an outbound call (docs/telephony.md, decision 133): a person who
 * picks up says a short "Hello?" and waits; a machine plays a greeting. So the callee's first
 * utterance is measured from the moment media flows: speech that goes on for more than
 * `longSpeechMs` (3.5 s), with pauses shorter than `pauseMs` (a breath between words) counting as
 * speech, and that starts within the first `windowMs` (5 s), is a machine. Anything else (a short
 * greeting, silence) is a person, decided for good at the end of the window or of a short first
 * utterance. Speech is a 20 ms frame whose RMS level is above `threshold`.
 */
export interface VoicemailDetectorOptions {
  longSpeechMs?: number;
  windowMs?: number;
  pauseMs?: number;
  threshold?: number;
}

export type Verdict = 'human' | 'machine' | null;

const FRAME_MS = 20;

export class VoicemailDetector {
  private readonly longSpeechMs: number;
  private readonly windowMs: number;
  private readonly pauseMs: number;
  private readonly threshold: number;
  private elapsedMs = 0;
  private speechStartMs: number | null = null;
  private lastSpeechMs = 0;
  private verdictValue: Verdict = null;

  constructor(options: VoicemailDetectorOptions = {}) {
    this.longSpeechMs = options.longSpeechMs ?? 3500;
    this.windowMs = options.windowMs ?? 5000;
    this.pauseMs = options.pauseMs ?? 400;
    this.threshold = options.threshold ?? 600;
  }

  get verdict(): Verdict {
    return this.verdictValue;
  }

  /** Takes the callee's next 20 ms frame; returns the verdict once there is one (then always the same). */
  push(frame: Int16Array): Verdict {
    if (this.verdictValue) return this.verdictValue;
    const now = this.elapsedMs;
    this.elapsedMs += FRAME_MS;
    if (rms(frame) >= this.threshold) {
      if (this.speechStartMs === null) {
        if (now >= this.windowMs) return (this.verdictValue = 'human');
        this.speechStartMs = now;
      }
      this.lastSpeechMs = now + FRAME_MS;
      if (this.lastSpeechMs - this.speechStartMs > this.longSpeechMs) this.verdictValue = 'machine';
      return this.verdictValue;
    }
    // The first utterance ended (a pause longer than a breath) while still short: a person.
    if (this.speechStartMs !== null && now + FRAME_MS - this.lastSpeechMs >= this.pauseMs) this.verdictValue = 'human';
    else if (this.speechStartMs === null && now + FRAME_MS >= this.windowMs) this.verdictValue = 'human';
    return this.verdictValue;
  }
}

function rms(frame: Int16Array): number {
  let sum = 0;
  for (const v of frame) sum += v * v;
  return frame.length === 0 ? 0 : Math.sqrt(sum / frame.length);
}
