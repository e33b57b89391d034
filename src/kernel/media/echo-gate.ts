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
 * in dB (silence counts as -70 dB). While the agent speaks, the gate keeps the levels of the last
 * `historyFrames` (2 s) it took for echo, and their 90th percentile is the echo's loud level; a frame
 * more than `marginDb` (8 dB) above it, and at least -40 dBFS (`callerEnergy`: a caller speaking
 * into a phone is louder; the canceller's leftovers on a good line are not), is the caller (double talk: heard as it is, and neither it nor
 * the 500 ms after it learnt from, so the caller's softer syllables over the agent do not teach the
 * gate that the echo is loud), one
 * within is echo only (`isEcho`). While the agent is silent nothing is echo. The conversation hears
 * silence in place of echo; the recording keeps the frame as it came (less the canceller's work).
 *
 * The history starts at 0 dB (a line that returns everything as loud as it was sent), so for about
 * the first two seconds of the agent speaking in a call only a caller louder than the agent cuts it
 * off; then the estimate is the line's own: about -70 dB on a line that returns no echo. Measured
 * on flite's speech with the canceller (500 ms tail) on a line returning the echo whole (0 dB, 80 ms
 * late: SIPp's -rtp_echo): the echo left has its 90th percentile at -6, -10, -17 and -24 dB in the
 * first four seconds, its loudest frames 2 to 4 dB above, and a word's onset after a pause up to 5 dB
 * above (the canceller lags a new sound): hence the 8 dB margin. echo-gate.spec.ts holds it to no
 * false start on a whole echo or a -15 dB one, and to a caller speaking over the agent (after 2 s on
 * a line without echo, after 4 s on a -15 dB one) starting an utterance within 300 ms. Cost: two
 * sums of squares and a sort of 100 numbers per frame (a few µs).
 */
export interface EchoGateOptions {
  /** Frames of the agent's past audio the echo may come from (default 25: 500 ms of 20 ms frames). */
  windowFrames?: number;
  /** Frames taken for echo whose levels make the estimate (default 100: 2 s of the agent speaking). */
  historyFrames?: number;
  /** How far above the echo's loud level a frame must be to be the caller (default 8 dB). */
  marginDb?: number;
  /** Mean square below which a frame is silence (default 100², about -50 dBFS). */
  silentEnergy?: number;
  /** Mean square a frame needs, while the agent speaks, to be the caller at all (default 330², about -40 dBFS). */
  callerEnergy?: number;
}

/** The level given to silence heard (dB under the agent): an echo below hearing. */
const FLOOR_DB = -70;
/** After a frame taken for the caller, this many frames are not learnt from (500 ms: double talk). */
const HOLD_AFTER_CALLER_FRAMES = 25;
/** The share of the echo's frames the estimate stays above (its 90th percentile). */
const LOUD_SHARE = 0.9;

export class EchoGate {
  private readonly window: Float64Array;
  private at = 0;
  /** The levels of the last frames taken for echo, in dB under the agent; 0 dB until learnt. */
  private readonly history: Float64Array;
  private next = 0;
  private readonly sorted: Float64Array;
  private readonly margin: number;
  private readonly silent: number;
  private readonly caller: number;
  private level = 0;
  /** Frames left during which nothing is learnt (the caller spoke just before). */
  private holdFrames = 0;

  constructor(options: EchoGateOptions = {}) {
    this.window = new Float64Array(options.windowFrames ?? 25);
    this.history = new Float64Array(options.historyFrames ?? 100);
    this.sorted = new Float64Array(this.history.length);
    this.margin = options.marginDb ?? 8;
    this.silent = options.silentEnergy ?? 100 * 100;
    this.caller = options.callerEnergy ?? 330 * 330;
  }

  /** The echo's loud level in dB under what the agent sent. For diagnostics. */
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
    const energy = meanSquare(heard);
    const db = energy < this.silent ? FLOOR_DB : Math.max(FLOOR_DB, 10 * Math.log10(energy / reference));
    if (db > this.level + this.margin && energy >= this.caller) {
      // The caller is speaking: their softer syllables are not learnt as echo for a while.
      this.holdFrames = HOLD_AFTER_CALLER_FRAMES;
      return false;
    }
    if (this.holdFrames > 0) this.holdFrames--;
    else this.learn(Math.min(db, 0));
    return true;
  }

  /** Forgets what it learnt (a new echo path). */
  reset(): void {
    this.window.fill(0);
    this.history.fill(0);
    this.level = 0;
  }

  /** One more frame of echo: the estimate is the 90th percentile of the last ones. */
  private learn(db: number): void {
    this.history[this.next] = db;
    this.next = (this.next + 1) % this.history.length;
    this.sorted.set(this.history);
    this.sorted.sort();
    this.level = this.sorted[Math.floor(LOUD_SHARE * (this.sorted.length - 1))] ?? 0;
  }
}

function meanSquare(frame: Int16Array): number {
  let sum = 0;
  for (const v of frame) sum += v * v;
  return frame.length === 0 ? 0 : sum / frame.length;
}
