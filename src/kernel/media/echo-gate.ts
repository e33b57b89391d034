/**
 * Media toolkit (src/kernel/media/): the echo gate, the last step after the echo canceller. The
 * canceller (echo-canceller.ts) needs a few seconds of the agent speaking to learn the line's echo:
 * until then, and on a line louder than it learns well, some of the agent's voice is left in what is
 * heard. Heard by the conversation, that rest would be taken for the caller starting to speak, cut
 * the agent off, and stop it speaking long enough for the canceller to learn: the agent interrupting
 * itself over and over.
 *
 * So each heard frame (after the canceller) is compared with what the agent sent recently: its level
 * over the loudest frame sent in the last `windowFrames` (500 ms, which covers the echo's lateness),
 * in dB. While the agent speaks, the gate follows the typical level of its echo (an average of that
 * figure over the frames it takes for echo, `followRate` a frame); a frame more than `marginDb`
 * above it is the caller (double talk: heard as it is), one within the margin is echo only
 * (`isEcho`). Frames taken for the caller move the average too, ten times slower, and the average
 * rises at most `riseDbPerSecond` (1 dB a second): a louder echo path is learnt in seconds, while the
 * caller speaking over the agent, heard as echo now and then, does not raise it over their voice. While
 * the agent is silent nothing is echo; a silent frame heard tells nothing of the echo's level. The conversation hears silence in place of echo; the
 * recording keeps the frame as it came (less the canceller's work).
 *
 * The average starts at 0 dB (a line that returns everything as loud as it was sent) and falls at
 * most `fallDbPerSecond` (10 dB per second of the agent speaking): about as fast as the canceller
 * learns. Measured on flite's speech with the canceller (500 ms tail) on a line returning the echo
 * whole (0 dB, 80 ms late: SIPp's -rtp_echo): the echo left is at a median of -17, -15, -22, -30 dB
 * in the first four seconds, its loudest frames 8 to 13 dB above that, and a word's onset after a
 * pause up to 17 dB above (the canceller lags a new sound), hence the 15 dB margin. The cost: in the
 * first seconds of the agent speaking in a call, the caller cuts it off only by speaking louder than
 * its echo could be (over the agent at 1 s, about 5 dB under it at 2 s). echo-gate.spec.ts holds it
 * to no false start on a whole echo or a -15 dB one, and to a caller speaking over the agent after
 * 4 s starting an utterance within 300 ms. Cost in time: two sums of squares per frame.
 */
export interface EchoGateOptions {
  /** Frames of the agent's past audio the echo may come from (default 25: 500 ms of 20 ms frames). */
  windowFrames?: number;
  /** How far above the echo's typical level a frame must be to be the caller (default 15 dB). */
  marginDb?: number;
  /** The share of each echo frame's level taken into the average (default 0.05: about a second). */
  followRate?: number;
  /** How fast the average may fall (default 10 dB per second of the agent speaking). */
  fallDbPerSecond?: number;
  /** How fast the average may rise (default 1 dB per second of the agent speaking). */
  riseDbPerSecond?: number;
  /** Mean square below which the agent counts as silent (default 100², about -50 dBFS). */
  silentEnergy?: number;
}

/** The quietest level (dB under the agent) the average follows: below that is silence, not echo. */
const FLOOR_DB = -70;

export class EchoGate {
  private readonly window: Float64Array;
  private at = 0;
  private readonly margin: number;
  private readonly follow: number;
  private readonly fall: number;
  private readonly rise: number;
  private readonly silent: number;
  /** The echo's typical level, in dB under the loudest recent frame sent. */
  private level = 0;

  constructor(options: EchoGateOptions = {}) {
    this.window = new Float64Array(options.windowFrames ?? 25);
    this.margin = options.marginDb ?? 15;
    this.follow = options.followRate ?? 0.05;
    this.fall = (options.fallDbPerSecond ?? 10) / 50;
    this.rise = (options.riseDbPerSecond ?? 1) / 50;
    this.silent = options.silentEnergy ?? 100 * 100;
  }

  /** The echo's typical level in dB under what the agent sent. For diagnostics. */
  get echoDb(): number {
    return this.level;
  }

  /**
   * Takes the tick's frame sent (the agent's, silence included) and frame heard (after the
   * canceller); true when the heard frame is only the agent's echo.
   */
  isEcho(heard: Int16Array, sent: Int16Array): boolean {
    this.window[this.at] = meanSquare(sent);
    this.at = (this.at + 1) % this.window.length;
    let reference = 0;
    for (const energy of this.window) if (energy > reference) reference = energy;
    if (reference < this.silent) return false;
    // Silence heard (the echo of a pause between words): echo or not, it says nothing of the echo's level.
    const energy = meanSquare(heard);
    if (energy < this.silent) return true;
    const db = Math.max(FLOOR_DB, 10 * Math.log10(energy / reference));
    const echo = db <= this.level + this.margin;
    const step = (echo ? this.follow : this.follow / 10) * (Math.min(db, 0) - this.level);
    this.level += Math.min(this.rise, Math.max(step, -this.fall));
    return echo;
  }

  /** Forgets what it learnt (a new echo path). */
  reset(): void {
    this.window.fill(0);
    this.level = 0;
  }
}

function meanSquare(frame: Int16Array): number {
  let sum = 0;
  for (const v of frame) sum += v * v;
  return frame.length === 0 ? 0 : sum / frame.length;
}
