/**
 * Whether the caller speaking over the agent is a barge-in (docs/conversations.md, "Interruptions").
 * A cough, a click or a door is short; an acknowledgement ("uh-huh", "okay", "yeah") is short and
 * means "go on"; a barge-in is the caller taking the turn. So speech that starts while the agent is
 * heard does not cut it off at once:
 *
 * - after `pauseAfterMs` (200 ms) of it, the agent's voice is paused (what was not played stays
 *   queued): real speech stops the agent within about that, plus a frame or two;
 * - a burst that ends before that (`burstEndFrames` of silence, 160 ms) was a noise: the agent was
 *   never paused, nothing is reported;
 * - a burst that ends between the two is asked about its words: an acknowledgement, a lone filler
 *   word ("the", "i": what the recogniser makes of a noise), or nothing recognised, lets the agent go
 *   on where it paused; anything else is a barge-in;
 * - speech that goes on to `commitAfterMs` (600 ms) is a barge-in whatever it says.
 *
 * The conversation feeds it one 20 ms frame at a time (voiced or not, from the VAD) and does what each
 * step says. LiveKit's agents take the same course (a minimum interruption of 0.5 s, a false
 * interruption resumed); the figures here are the platform's contract.
 */
export const INTERRUPTION = {
  frameMs: 20,
  /** Speech this long (from its onset) pauses the agent. */
  pauseAfterMs: 200,
  /** Speech this long is a barge-in, whatever its words. */
  commitAfterMs: 600,
  /** Unvoiced frames in a row that end a burst (8 × 20 ms). */
  burstEndFrames: 8,
} as const;

/** What the conversation does now: pause the agent, cut it off, drop a noise, or ask the burst's words. */
export type InterruptionStep = 'pause' | 'commit' | 'noise' | 'words' | null;

export class Interruption {
  private spokenMs = 0;
  private silentFrames = 0;
  private paused = false;
  private settled = false;

  /**
   * `voicedMs`: how much of the speech was heard before the conversation knew it started (the
   * endpointer's start window).
   */
  constructor(voicedMs: number) {
    this.spokenMs = voicedMs;
  }

  /** Whether the agent is paused for it. */
  get isPaused(): boolean {
    return this.paused;
  }

  /** The next frame of the caller: voiced or not. At most one step that settles it ('commit', 'noise', 'words'). */
  frame(voiced: boolean): InterruptionStep {
    if (this.settled) return null;
    const { frameMs, pauseAfterMs, commitAfterMs, burstEndFrames } = INTERRUPTION;
    if (voiced) {
      this.spokenMs += frameMs + this.silentFrames * frameMs;
      this.silentFrames = 0;
    } else if (++this.silentFrames >= burstEndFrames) {
      this.settled = true;
      return this.spokenMs < pauseAfterMs && !this.paused ? 'noise' : 'words';
    }
    if (this.spokenMs >= commitAfterMs) {
      this.settled = true;
      return 'commit';
    }
    if (!this.paused && this.spokenMs >= pauseAfterMs) {
      this.paused = true;
      return 'pause';
    }
    return null;
  }
}

/** Words that mean "go on" when said over the agent (pocketsphinx hears "uh-huh" as "a", "uh", "huh"…). */
const BACKCHANNEL = new Set([
  'uh huh',
  'uh-huh',
  'mm hmm',
  'mhm',
  'hmm',
  'mm',
  'huh',
  'uh',
  'um',
  'ah',
  'oh',
  'a',
  'okay',
  'ok',
  'yeah',
  'yes',
  'yep',
  'yup',
  'right',
  'sure',
  'alright',
  'all right',
  'i see',
  'got it',
  'oh okay',
  'okay okay',
  'yeah yeah',
  'yes yes',
  'uh yeah',
  'oh yeah',
  'mm okay',
]);

/**
 * A lone short word the recogniser makes of a sound that is not speech (a cough, what is left of the
 * agent's echo): in a burst under 600 ms it is no more a barge-in than "uh".
 */
const FILLER = new Set(['the', 'i', 'and', 'in', 'it', 'on', 'of', 'to', 'is', 'an', 'but', 'that', 'this']);

/** Whether `words` (a short burst's) are only an acknowledgement, a lone filler word, or nothing. */
export function isBackchannel(words: string): boolean {
  const text = words
    .toLowerCase()
    .replace(/[^a-z' -]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return text === '' || BACKCHANNEL.has(text) || FILLER.has(text);
}
