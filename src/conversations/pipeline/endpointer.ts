/**
 * Endpointing: turns the VAD's per-frame decisions (20 ms frames) into utterances. Speech starts when
 * 4 of the last 5 frames are voiced (80 ms at the soonest: a click or a cough of one or two frames is
 * not a start); it ends after 500 ms without a voiced frame (a pause between words, which flite and
 * people make, is shorter). The frames before the start (the pre-roll, `prerollFrames`) go to the
 * recogniser with it, so the onset the VAD needed time to trust is heard. Decision 110 gives the reasons.
 */
export const ENDPOINTING = {
  frameMs: 20,
  /** Voiced frames among the last `startWindowFrames` that start an utterance. */
  startVoicedFrames: 4,
  startWindowFrames: 5,
  /** Unvoiced frames in a row that end it (25 × 20 ms). */
  endSilenceFrames: 25,
  /** Frames kept before the start (12 × 20 ms). */
  prerollFrames: 12,
} as const;

/** Endpointing settings: ENDPOINTING's, or with another end silence (`agent_config.endpointing_ms`). */
export type EndpointingSettings = { readonly [K in keyof typeof ENDPOINTING]: number };

export type EndpointEvent =
  /** The user started speaking: `audio` is the pre-roll and the frames that made the start, in order. */
  | { type: 'speech_start'; audio: Int16Array[] }
  /** One more frame of the utterance. */
  | { type: 'speech'; frame: Int16Array }
  /** The utterance ended (the silence that ended it went to the recogniser as `speech` frames). */
  | { type: 'speech_end' };

export class Endpointer {
  private speaking = false;
  private readonly recent: boolean[] = [];
  private readonly preroll: Int16Array[] = [];
  private silence = 0;

  constructor(private readonly settings: EndpointingSettings = ENDPOINTING) {}

  get inSpeech(): boolean {
    return this.speaking;
  }

  /** Unvoiced frames in a row so far in the utterance (0 outside one). */
  get silentFrames(): number {
    return this.silence;
  }

  /** The unvoiced frames in a row that end an utterance. */
  get endSilenceFrames(): number {
    return this.settings.endSilenceFrames;
  }

  /** One 20 ms frame (16 kHz) and whether the VAD heard speech in it. */
  push(frame: Int16Array, voiced: boolean): EndpointEvent | null {
    const s = this.settings;
    if (!this.speaking) {
      this.preroll.push(frame);
      if (this.preroll.length > s.prerollFrames + s.startWindowFrames) this.preroll.shift();
      this.recent.push(voiced);
      if (this.recent.length > s.startWindowFrames) this.recent.shift();
      if (this.recent.filter(Boolean).length < s.startVoicedFrames) return null;
      this.speaking = true;
      this.silence = 0;
      this.recent.length = 0;
      return { type: 'speech_start', audio: this.preroll.splice(0) };
    }
    this.silence = voiced ? 0 : this.silence + 1;
    if (this.silence < s.endSilenceFrames) return { type: 'speech', frame };
    this.speaking = false;
    this.silence = 0;
    return { type: 'speech_end' };
  }

  /** Forgets any utterance in progress (the agent's own answer starts, the conversation ends). */
  reset(): void {
    this.speaking = false;
    this.recent.length = 0;
    this.preroll.length = 0;
    this.silence = 0;
  }
}
