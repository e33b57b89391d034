/**
 * Answering-machine detection (AMD) on an outbound call: from the callee's audio (8 kHz, pushed 20 ms
 * at a time from the answer) and, when the platform recognises it, the callee's words, it decides
 * once whether a person or a machine answered and, for a machine, when to start speaking the message.
 * Pure: no timers, no I/O; its clock is the audio pushed (blocks of 160 samples, 20 ms each).
 * docs/voicemail-detection.md gives its figures on a labelled set (bench/voicemail.bench.ts).
 *
 * **The evidence**, strongest first:
 * - *A beep* (beep-detector.ts: a steady 400–2,000 Hz tone of 200 ms or more): a machine, decided as
 *   soon as the tone has lasted 200 ms (`sounding`). A person does not hum a pure tone.
 * - *Cue words*: a greeting's vocabulary ("leave a message", "not available", "after the tone",
 *   "voicemail", "mailbox", "can't take your call"…: `MACHINE_CUES`). A phrase scores 2, a word that
 *   only suggests a greeting ("message", "tone", "reached", "sorry"…) 1, and `cueScore` (2) is a
 *   machine. A suggestive word alone never is: a person may answer "sorry?" or "you've reached
 *   Northwind Dental", and the recogniser hears odd words in noise. The list also holds the
 *   recogniser's usual mishearing of "message" on telephone audio ("methods").
 * - *Cadence*. A person says something short ("Hello?", "Yeah?", "Northwind Dental, how can I help
 *   you?") and waits for the caller; a machine talks on (3–15 s, with pauses between sentences) and
 *   then beeps or records. So the callee's *turn* is measured: it starts with talk and ends with a
 *   silence; pauses shorter than `humanSilenceMs` (between words, sentences) are part of it.
 *   - A turn that reaches `longSpeechMs` (6 s) with talk in at least `minVoicedShare` (50 %) of it is
 *     a machine: a person answering, even with a business's long "Thank you for calling…", stops
 *     within about 5 s for the caller.
 *   - A turn that ended is a person once the silence after it reaches `humanSilenceMs` (1.2 s) after
 *     a short turn (up to `shortTurnMs`, 1.8 s: "Hello?", "Hi, who's calling?"), or
 *     `longTurnSilenceMs` (2 s) after a longer one: a longer turn is more often a greeting, and a
 *     greeting's beep comes 0.2–1.5 s after its last word, so the detector listens longer for it.
 *     The silence is counted from the last loud block, which the soft end of a word often falls
 *     below: 1.2 s of it is about 1 s after the word.
 *   - A turn shorter than `minTurnMs` (120 ms), then silence, is a click or a breath, not an answer:
 *     forgotten (the greeting may be yet to come).
 * - *Waiting for the words*. With `awaitWords`, a person is not decided before the words of the turn
 *   came (a final `words()` call after its last talk), for at most `wordsWaitMs` (2 s) after that
 *   talk: a short greeting without a beep ("Hi, it's Sam, leave a message") has a person's cadence
 *   and only its words tell. The platform's words come once its endpointer heard 500 ms of silence
 *   and the recogniser finished, about when the silence rule is met anyway. Without `awaitWords` (no
 *   recogniser on the call), cadence and beep decide alone.
 * - *Nothing*: no talk in the first `initialSilenceMs` (5 s), or no decision by `maxMs` (12 s): the
 *   result is `unknown` (the platform then greets as it would a person).
 *
 * Taking a person for a machine is the worst error (the agent hangs up on them, or speaks to them as
 * to a recorder); taking a machine for a person only costs a message not left. So each rule for
 * `machine` is one a person answering cannot plausibly meet, and the doubtful cases (a short greeting
 * with neither beep nor cue words, a long pause before the beep) fall to `human`.
 *
 * **Talk** is told by level. A block's level is its RMS after a one-pole high-pass near 190 Hz (which
 * removes hum, DC and most rumble). It is speech when it is at least `marginDb` (9 dB) above the
 * line's noise floor, at least `minLevelDbfs` (-50 dBFS), and, once talk was heard, within
 * `foregroundDb` (10 dB) of the loud level of the talk so far: a television or other people talking
 * behind someone who answers are quieter than that person's own voice into the phone, and without
 * this rule they would make a long turn of a short "Hello?". The noise floor follows the quietest
 * blocks (it falls half-way to a quieter block at once, rises 2.5 dB a second at most); the loud
 * level follows talk blocks (30 % of the way up to a louder one, 1 % down to a quieter one). Talking
 * starts when 3 of the last 5 blocks are speech (a click is not) and stops 200 ms after the last.
 *
 * **The message cue** (for a machine): the moment to start the message. Right after the beep ends
 * (`beep`); or, when no beep came, once the greeting has been silent for `beepGraceMs` (2 s)
 * (`silence`); or at `cueTimeoutMs` (30 s after the answer) in any case (`timeout`), so that an
 * endless greeting or music does not hold the call.
 *
 * Cost: a high-pass and a sum of squares per block, plus the beep detector's (about 15 µs for a loud
 * block): far under 1 % of a core per call. `words()` runs a dozen regular expressions over the text.
 */
import { BeepDetector } from './beep-detector';
import { SampleBlocks } from '../../kernel/audio/sample-blocks';

export type AmdResult = 'human' | 'machine' | 'unknown';

/** What settled the result: a beep, cue words, the turn's cadence, silence throughout, or the window's end. */
export type AmdReason = 'beep' | 'words' | 'cadence' | 'silence' | 'timeout';

export type AmdEvent =
  /** Once: the result, and when (ms of audio from the answer). */
  | { type: 'decided'; result: AmdResult; decidedAfterMs: number; reason: AmdReason }
  /** Once, for a machine, after `decided`: start the message now (`atMs`, ms of audio from the answer). */
  | { type: 'message_cue'; atMs: number; by: 'beep' | 'silence' | 'timeout' };

/** Every setting, in ms and dB; the defaults and their reasons are in the comment above. */
export interface AnsweringMachineDetectorOptions {
  awaitWords?: boolean;
  wordsWaitMs?: number;
  humanSilenceMs?: number;
  minTurnMs?: number;
  shortTurnMs?: number;
  longTurnSilenceMs?: number;
  longSpeechMs?: number;
  minVoicedShare?: number;
  initialSilenceMs?: number;
  maxMs?: number;
  beepGraceMs?: number;
  cueTimeoutMs?: number;
  cueScore?: number;
  marginDb?: number;
  foregroundDb?: number;
  minLevelDbfs?: number;
}

/**
 * A greeting's vocabulary, matched on lower-case words (apostrophes kept, other punctuation dropped).
 * Weight 2: a phrase a person picking up does not say; 1: a word that only suggests a greeting.
 */
export const MACHINE_CUES: readonly { pattern: RegExp; weight: number }[] = [
  { pattern: /\bleave (?:\w+ ){0,3}(?:messages?|methods?|name|number|details)\b/, weight: 2 },
  { pattern: /\bplease leave\b/, weight: 2 },
  { pattern: /\b(?:after|at) the (?:tone|beep|signal)\b/, weight: 2 },
  { pattern: /\b(?:not|isn't) available\b|\bunavailable\b/, weight: 2 },
  { pattern: /\bvoice ?mail\b|\bmail ?box\b|\bvoice messag/, weight: 2 },
  { pattern: /\brecord (?:\w+ ){0,2}(?:messages?|methods?)\b/, weight: 2 },
  {
    pattern:
      /\b(?:can't|cannot|can not|unable to|not able to) (?:take|answer|get to|come to|pick up) (?:\w+ ){0,2}(?:call|phone)\b/,
    weight: 2,
  },
  { pattern: /\b(?:get|call) (?:right )?back to you\b|\bcall you back\b|\breturn (?:\w+ )?call\b/, weight: 2 },
  {
    pattern: /\bthe (?:person|party|subscriber|customer|number) you (?:are |have )?(?:calling|called|dialed)\b/,
    weight: 2,
  },
  { pattern: /\bmissed (?:\w+ )?call\b|\baway from (?:\w+ )?(?:desk|phone)\b/, weight: 2 },
  { pattern: /\bmessages?\b/, weight: 1 },
  { pattern: /\b(?:tone|beep)\b/, weight: 1 },
  { pattern: /\breached\b/, weight: 1 },
  { pattern: /\bsorry\b/, weight: 1 },
  { pattern: /\bavailable\b/, weight: 1 },
  { pattern: /\brecord(?:ing)?\b/, weight: 1 },
];

/** How much `text` sounds like a greeting: the sum of the weights of the cues it holds. */
export function machineCueScore(text: string): number {
  const words = ` ${text
    .toLowerCase()
    .replace(/[’‘]/g, "'")
    .replace(/[^a-z0-9' ]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()} `;
  return MACHINE_CUES.reduce((score, cue) => score + (cue.pattern.test(words) ? cue.weight : 0), 0);
}

const BLOCK = 160;
const BLOCK_MS = 20;
/** Talking starts when this many of the last `ONSET_WINDOW` blocks are speech, and stops `HANGOVER_MS` after the last. */
const ONSET_BLOCKS = 3;
const ONSET_WINDOW = 5;
const HANGOVER_MS = 200;
/** The high-pass's pole: a corner near 190 Hz at 8 kHz. */
const HIGH_PASS = 0.85;
/** How fast the noise floor may rise (dB per block: 2.5 dB/s), and the lowest it goes. */
const FLOOR_RISE_DB = 0.05;
const FLOOR_MIN_DBFS = -75;
/** How far a talk block moves the loud level towards its own: when louder (attack), when quieter (release). */
const LOUD_ATTACK = 0.3;
const LOUD_RELEASE = 0.01;

export class AnsweringMachineDetector {
  private readonly awaitWords: boolean;
  private readonly wordsWaitMs: number;
  private readonly humanSilenceMs: number;
  private readonly minTurnMs: number;
  private readonly shortTurnMs: number;
  private readonly longTurnSilenceMs: number;
  private readonly longSpeechMs: number;
  private readonly minVoicedShare: number;
  private readonly initialSilenceMs: number;
  private readonly maxMs: number;
  private readonly beepGraceMs: number;
  private readonly cueTimeoutMs: number;
  private readonly cueScore: number;
  private readonly marginDb: number;
  private readonly foregroundDb: number;
  private readonly minLevelDbfs: number;

  private readonly beeps = new BeepDetector();
  private readonly samples = new SampleBlocks(BLOCK);
  /** Audio taken so far (ms): the end of the last full block. */
  private nowMs = 0;
  /** Events not yet returned (a long push can hold two). */
  private readonly pending: AmdEvent[] = [];

  /** The high-pass's memory: the last input and output. */
  private lastInput = 0;
  private lastOutput = 0;
  private levelDb = FLOOR_MIN_DBFS;
  private floorDb: number | null = null;
  /** The loud level of the talk heard (dB); null before any talk. */
  private loudDb: number | null = null;
  private readonly recent: boolean[] = [];
  private talking = false;
  private talkStartMs = 0;
  private lastSpeechEndMs = 0;
  /** The current turn's start (null before the first talk, or after a click) and its talk so far (ms). */
  private turnStartMs: number | null = null;
  private turnTalkMs = 0;
  /** When final words last came (ms of audio), or -1. */
  private wordsAtMs = -1;

  private resultValue: AmdResult | null = null;
  private decidedAtMs: number | null = null;
  private beepEndedAtMs: number | null = null;
  private cued = false;

  constructor(options: AnsweringMachineDetectorOptions = {}) {
    this.awaitWords = options.awaitWords ?? false;
    this.wordsWaitMs = options.wordsWaitMs ?? 2000;
    this.humanSilenceMs = options.humanSilenceMs ?? 1200;
    this.minTurnMs = options.minTurnMs ?? 120;
    this.shortTurnMs = options.shortTurnMs ?? 1800;
    this.longTurnSilenceMs = options.longTurnSilenceMs ?? 2000;
    this.longSpeechMs = options.longSpeechMs ?? 6000;
    this.minVoicedShare = options.minVoicedShare ?? 0.5;
    this.initialSilenceMs = options.initialSilenceMs ?? 5000;
    this.maxMs = options.maxMs ?? 12000;
    this.beepGraceMs = options.beepGraceMs ?? 2000;
    this.cueTimeoutMs = options.cueTimeoutMs ?? 30000;
    this.cueScore = options.cueScore ?? 2;
    this.marginDb = options.marginDb ?? 9;
    this.foregroundDb = options.foregroundDb ?? 10;
    this.minLevelDbfs = options.minLevelDbfs ?? -50;
  }

  /** The result once decided, else null. */
  get result(): AmdResult | null {
    return this.resultValue;
  }

  /** When it was decided (ms of audio from the answer), else null. */
  get decidedAfterMs(): number | null {
    return this.decidedAtMs;
  }

  /** Audio taken so far, in ms (whole 20 ms blocks). */
  get elapsedMs(): number {
    return this.nowMs;
  }

  /** The callee is talking (by the level rule above) at the end of the audio taken. */
  get speaking(): boolean {
    return this.talking;
  }

  /**
   * The callee's next audio (8 kHz: 20 ms frames of 160 samples, or any length, gathered into 20 ms
   * blocks). Returns the decision or the message cue when one falls in it, else null.
   */
  push(frame: Int16Array): AmdEvent | null {
    this.samples.push(frame, () => {
      this.step();
    });
    return this.pending.shift() ?? null;
  }

  /**
   * The recognised words of the callee's speech: an utterance's once it ended (`final`), or the words
   * so far of one in progress (`final` false: evidence of a machine all the same, but a person is not
   * decided before the final words of the turn). Returns the decision when the words make it.
   */
  words(text: string, final = true): AmdEvent | null {
    if (final) this.wordsAtMs = this.nowMs;
    if (this.resultValue === null && machineCueScore(text) >= this.cueScore) this.decide('machine', 'words');
    return this.pending.shift() ?? null;
  }

  /** One 20 ms block: its level, the beep, then the rules that decide or cue. */
  private step(): void {
    const speech = this.isSpeech();
    const beep = this.beeps.push(this.samples.block);
    const startMs = this.nowMs;
    this.nowMs += BLOCK_MS;
    this.follow(speech, startMs);
    if (beep) this.beepEndedAtMs = this.nowMs;
    // A decision taken in an earlier block may be followed by its cue (never both in one block).
    if (this.resultValue === 'machine') this.cue();
    else if (this.resultValue === null) this.evaluate();
  }

  private evaluate(): void {
    if (this.beeps.sounding || this.beepEndedAtMs !== null) return this.decide('machine', 'beep');
    const now = this.nowMs;
    if (this.turnStartMs === null) {
      if (now >= this.initialSilenceMs) this.decide('unknown', 'silence');
      return;
    }
    const end = this.talking ? now : this.lastSpeechEndMs;
    const turnMs = end - this.turnStartMs;
    const talkMs = this.turnTalkMs + (this.talking ? now - this.talkStartMs : 0);
    if (turnMs >= this.longSpeechMs && talkMs >= this.minVoicedShare * turnMs) return this.decide('machine', 'cadence');
    if (!this.talking) {
      const silenceMs = now - this.lastSpeechEndMs;
      const needed = turnMs <= this.shortTurnMs ? this.humanSilenceMs : this.longTurnSilenceMs;
      const heard = !this.awaitWords || this.wordsAtMs >= this.lastSpeechEndMs || silenceMs >= this.wordsWaitMs;
      if (turnMs < this.minTurnMs && silenceMs >= this.humanSilenceMs) this.turnStartMs = null;
      else if (silenceMs >= needed && heard) return this.decide('human', 'cadence');
    }
    if (now >= this.maxMs) this.decide('unknown', 'timeout');
  }

  /** For a machine: the moment to speak, once. */
  private cue(): void {
    if (this.cued) return;
    const now = this.nowMs;
    let by: 'beep' | 'silence' | 'timeout' | null = null;
    if (this.beepEndedAtMs !== null) by = 'beep';
    else if (!this.talking && !this.beeps.sounding && now - this.lastSpeechEndMs >= this.beepGraceMs) by = 'silence';
    else if (now >= this.cueTimeoutMs) by = 'timeout';
    if (!by) return;
    this.cued = true;
    this.pending.push({ type: 'message_cue', atMs: now, by });
  }

  private decide(result: AmdResult, reason: AmdReason): void {
    this.resultValue = result;
    this.decidedAtMs = this.nowMs;
    this.pending.push({ type: 'decided', result, decidedAfterMs: this.nowMs, reason });
  }

  /** Talking and the turn, given this block's speech flag (`startMs`: the block's start). */
  private follow(speech: boolean, startMs: number): void {
    this.recent.push(speech);
    if (this.recent.length > ONSET_WINDOW) this.recent.shift();
    if (this.talking) {
      if (speech) {
        this.lastSpeechEndMs = this.nowMs;
        this.followLoud();
      } else if (this.nowMs - this.lastSpeechEndMs >= HANGOVER_MS) {
        this.talking = false;
        this.turnTalkMs += this.lastSpeechEndMs - this.talkStartMs;
      }
      return;
    }
    if (this.recent.filter(Boolean).length < ONSET_BLOCKS) return;
    // Talking (again): it began with the first speech block of the window.
    const begun = startMs - (this.recent.length - 1 - this.recent.indexOf(true)) * BLOCK_MS;
    if (this.turnStartMs === null || begun - this.lastSpeechEndMs >= this.humanSilenceMs) {
      // A new turn: the first, or one after the other side was given time to speak.
      this.turnStartMs = begun;
      this.turnTalkMs = 0;
    }
    this.talking = true;
    this.talkStartMs = Math.max(begun, this.lastSpeechEndMs);
    this.lastSpeechEndMs = this.nowMs;
    this.followLoud();
  }

  private followLoud(): void {
    const level = this.levelDb;
    if (this.loudDb === null) this.loudDb = level;
    else this.loudDb += (level - this.loudDb) * (level > this.loudDb ? LOUD_ATTACK : LOUD_RELEASE);
  }

  /** Whether the block is speech by level: high-passed RMS against the noise floor and the loud level. */
  private isSpeech(): boolean {
    let squares = 0;
    let x1 = this.lastInput;
    let y1 = this.lastOutput;
    for (const x of this.samples.block) {
      const y = x - x1 + HIGH_PASS * y1;
      squares += y * y;
      x1 = x;
      y1 = y;
    }
    this.lastInput = x1;
    this.lastOutput = y1;
    const level = Math.max(FLOOR_MIN_DBFS, 10 * Math.log10(squares / BLOCK / (32768 * 32768) + 1e-12));
    this.levelDb = level;
    if (this.floorDb === null) this.floorDb = level;
    else if (level < this.floorDb) this.floorDb += (level - this.floorDb) / 2;
    else this.floorDb = Math.min(level, this.floorDb + FLOOR_RISE_DB);
    const foreground = this.loudDb === null || level >= this.loudDb - this.foregroundDb;
    return foreground && level >= this.minLevelDbfs && level >= this.floorDb + this.marginDb;
  }
}
