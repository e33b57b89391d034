import { Logger } from '@nestjs/common';
import type { Dialogue, DialogueAction, ConversationAgent } from '../dialogue/dialogue';
import type { RecognitionStream, SpeechRecognizer, SpeechSynthesizer } from '../engines/engines';
import type { AudioTransport } from './audio-transport';
import type {
  ConversationEnd,
  ConversationReporter,
  TransferOutcome,
  TurnMetrics,
  WarmTransfer,
} from './conversation-reporter';
import { ENDPOINTING, Endpointer } from './endpointer';
import { OutputQueue } from './output-queue';
import { RateConverter } from '../../kernel/audio/rate-converter';
import { SpokenAnswer, type AnswerTiming } from './spoken-answer';
import { NO_TELEMETRY, type TurnTelemetry } from './turn-telemetry';
import { VoiceActivityDetector } from './voice-activity';
import { INTERRUPTION, Interruption, isBackchannel } from './interruption';
import { briefingOf } from '../dialogue/phrases';
import { warmBriefing } from './warm-briefing';

const DEFAULT_MAX_DURATION_SECONDS = 3600;
/** The recogniser and the VAD take 20 ms frames at 16 kHz. */
const ENGINE_RATE = 16000;
const ENGINE_FRAME = 320;
/** Keys pressed less than this apart are one keypad turn; `#` ends one at once. */
export const KEYS_GAP_MS = 1200;
/** A keypad turn holds at most this many keys (then it is answered). */
const MAX_KEYS = 32;

/** What the call's line can do besides audio: a phone call transfers (a REFER, or warm: a bridge); others cannot. */
export interface ConversationLine {
  /**
   * Hands the caller to `number`; resolves once it went through (the line is then the target's) or
   * failed. With `warm`, the line calls `number` itself and has the agent brief whoever answers
   * before it connects the caller to them.
   */
  transfer?(number: string, warm?: WarmTransfer): Promise<TransferOutcome>;
}

export interface ConversationDeps {
  sessionId: string;
  agent: ConversationAgent;
  transport: AudioTransport;
  reporter: ConversationReporter;
  recognizer: SpeechRecognizer;
  synthesizer: SpeechSynthesizer;
  dialogue: Dialogue;
  /** The session's start: turn times (`t`) and metrics count from it. */
  startedAt: Date;
  telemetry?: TurnTelemetry;
  /** The line's controls (absent: a transfer ends the conversation as `transferred`, the medium's to act on). */
  line?: ConversationLine;
  /**
   * An answering machine took the call: the agent speaks this message in place of its opening, hears
   * nothing, and ends (`message_left`) once it was played.
   */
  voicemailMessage?: string;
}

/**
 * One session's conversation, from start to end (docs/conversations.md):
 *
 * 1. It speaks the dialogue's opening line, then listens. Every 20 ms frame heard is converted to
 *    16 kHz, given to the VAD and the endpointer; while the user speaks it streams to the recogniser.
 * 2. At the end of an utterance it gets the words, reports the user turn, and asks the dialogue. The
 *    answer is synthesised sentence by sentence and queued; the transport pulls the frames on its own
 *    clock. Nothing is heard before the user turn is stored.
 * 3. Barge-in: speech starting while an answer is being prepared (unless the agent is not
 *    `interruptible`) aborts it at once; speech over an answer being played pauses it after 200 ms
 *    and cuts it off after 600 ms, while a shorter noise or acknowledgement ("uh-huh") lets it go on
 *    (interruption.ts). A cut flushes the queue, aborts synthesis and the model, and reports the
 *    answer cut to what was played.
 * 4. Keys pressed (a phone call's keypad) are a user turn too: keys less than KEYS_GAP_MS apart, or
 *    up to `#`, are reported as one turn (`dtmf`, no words) and answered by the dialogue; a key
 *    cuts the agent off as speech does.
 * 5. Each answered turn reports its TurnMetrics. Transfer, opt-out, goodbye and end_call act once
 *    their line is spoken; `max_duration_seconds` and the transport closing end it at once. Nothing
 *    is reported after the end. A transfer the line carries out (a REFER) is awaited with the caller's
 *    audio ignored: done, the conversation ends `transferred`; failed, it is reported, the agent says
 *    so and the conversation goes on.
 *
 * Per frame it does little (resampling and the VAD); the engines run in child processes.
 */
export class Conversation {
  private readonly logger = new Logger('Conversation');
  private readonly queue: OutputQueue;
  private readonly vad = new VoiceActivityDetector();
  private readonly endpointer = new Endpointer();
  private readonly toEngineRate: RateConverter | null;
  private pendingInput = new Int16Array(0);
  private readonly interruptible: boolean;
  private readonly telemetry: TurnTelemetry;
  private readonly unsubscribe: (() => void)[] = [];
  private maxDuration: NodeJS.Timeout | null = null;
  /** The user's utterance being recognised. */
  private utterance: Utterance | null = null;
  /** Speech over the agent not yet known to be a barge-in (interruption.ts), and its utterance. */
  private interruption: { gate: Interruption; utterance: Utterance } | null = null;
  /** The answer being prepared or played; null while the agent is silent. */
  private answer: SpokenAnswer | null = null;
  private answers = 0;
  private ended = false;
  /** Keys being pressed: one turn once the caller stops (KEYS_GAP_MS) or presses `#`. */
  private keys: { digits: string; startedAt: number; lastAt: number; timer: NodeJS.Timeout | null } | null = null;
  /**
   * A transfer is under way: what the caller says or presses meanwhile is not answered. The line
   * going down during a cold one is the transfer done; during a warm one, the caller gone.
   */
  private transferring: 'cold' | 'warm' | null = null;
  /** The user's first and last utterances (a warm transfer's briefing tells them). */
  private readonly userWords: string[] = [];
  private resolveFinished!: (reason: ConversationEnd) => void;
  /** Resolves with the reason once the end is reported. */
  readonly finished = new Promise<ConversationEnd>((resolve) => (this.resolveFinished = resolve));

  constructor(private readonly deps: ConversationDeps) {
    const rate = deps.transport.sampleRate;
    this.queue = new OutputQueue(rate, () => this.now());
    this.queue.onUnderrun(() => this.telemetry.underrun(this.deps.sessionId));
    this.toEngineRate = rate === ENGINE_RATE ? null : new RateConverter(rate, ENGINE_RATE);
    this.interruptible = deps.agent.interruptible !== false && deps.voicemailMessage === undefined;
    this.telemetry = deps.telemetry ?? NO_TELEMETRY;
  }

  start(): void {
    const { transport, agent, dialogue } = this.deps;
    this.unsubscribe.push(transport.onFrame((frame) => this.hear(frame)));
    // The line going down while a transfer is under way is the transfer done (the caller's side hung up on us).
    this.unsubscribe.push(
      transport.onClosed(() => void this.end(this.transferring === 'cold' ? 'transferred' : 'hangup')),
    );
    if (transport.keypad) this.unsubscribe.push(transport.keypad.onDigit((digit) => this.pressed(digit)));
    transport.play(this.queue);
    const seconds = agent.max_duration_seconds ?? DEFAULT_MAX_DURATION_SECONDS;
    this.maxDuration = setTimeout(() => void this.end('max_duration'), seconds * 1000);
    this.maxDuration.unref();
    const message = this.deps.voicemailMessage;
    const opening = this.newAnswer(Promise.resolve(), null);
    opening.say(message ?? dialogue.opening());
    void opening
      .queued()
      .then(() => {
        if (opening.firstAudioAt !== null) this.telemetry.greeting(this.deps.sessionId, opening.firstAudioAt);
      })
      .catch(() => undefined);
    void this.afterAnswer(
      opening,
      message === undefined ? { type: 'continue' } : { type: 'end', reason: 'message_left' },
    );
  }

  /** Ends the conversation (idempotent): stops the audio and the engines, reports the end once. */
  async end(reason: ConversationEnd): Promise<void> {
    if (this.ended) return this.finished.then(() => undefined);
    // What was played of an answer cut by the end is in the transcript.
    if (this.answer) this.cut(this.answer);
    this.ended = true;
    if (this.maxDuration) clearTimeout(this.maxDuration);
    if (this.keys?.timer) clearTimeout(this.keys.timer);
    this.keys = null;
    for (const unsubscribe of this.unsubscribe.splice(0)) unsubscribe();
    this.queue.flush();
    this.utterance?.stream.cancel();
    this.utterance = null;
    this.endpointer.reset();
    this.vad.close();
    try {
      await this.deps.reporter.ended(reason);
    } catch (err) {
      this.logger.error(`The end of ${this.deps.sessionId} could not be reported: ${(err as Error).message}`);
    }
    this.resolveFinished(reason);
  }

  /** ms since the session's start. */
  private now(): number {
    return Date.now() - this.deps.startedAt.getTime();
  }

  /** One frame from the transport: to 16 kHz, VAD, endpointer. */
  private hear(frame: Int16Array): void {
    if (this.ended || this.transferring || this.deps.voicemailMessage !== undefined) return;
    let pcm = this.toEngineRate ? this.toEngineRate.process(frame) : frame;
    if (this.pendingInput.length > 0 || pcm.length !== ENGINE_FRAME) {
      const joined = new Int16Array(this.pendingInput.length + pcm.length);
      joined.set(this.pendingInput);
      joined.set(pcm, this.pendingInput.length);
      pcm = joined;
    }
    let at = 0;
    for (; at + ENGINE_FRAME <= pcm.length; at += ENGINE_FRAME) {
      const chunk = pcm.subarray(at, at + ENGINE_FRAME);
      const voiced = this.vad.isSpeech(chunk);
      const event = this.endpointer.push(chunk, voiced);
      if (event?.type === 'speech_start') this.speechStarted(event.audio);
      else if (event?.type === 'speech') this.utterance?.stream.write(event.frame);
      else if (event?.type === 'speech_end') this.speechEnded();
      if (this.interruption && event?.type !== 'speech_start') this.interrupting(voiced);
    }
    this.pendingInput = pcm.slice(at);
  }

  private speechStarted(audio: Int16Array[]): void {
    // Over an answer being heard: maybe a barge-in (interruption.ts); over one being prepared: one.
    let gate: Interruption | null = null;
    if (this.answer && this.interruptible) {
      if (this.queue.playing) gate = new Interruption(ENDPOINTING.startVoicedFrames * ENDPOINTING.frameMs);
      else this.bargeIn();
    }
    let stream: RecognitionStream;
    try {
      stream = this.deps.recognizer.start(this.deps.agent.language ?? 'en-US');
    } catch (err) {
      // No recogniser here (the embedded one not built, docs/speech-engines.md): this utterance is lost.
      this.logger.error(`The speech of ${this.deps.sessionId} cannot be recognised: ${(err as Error).message}`);
      return;
    }
    // The start was decided over the last frames: the speech began about that long ago.
    const startedAt = Math.max(0, this.now() - ENDPOINTING.startWindowFrames * ENDPOINTING.frameMs);
    this.utterance = { stream, startedAt, over: gate !== null };
    if (gate) this.interruption = { gate, utterance: this.utterance };
    for (const frame of audio) stream.write(frame);
  }

  /** A frame of speech over the agent that may be a barge-in: pause, cut off, drop, or ask its words. */
  private interrupting(voiced: boolean): void {
    const pending = this.interruption;
    if (!pending) return;
    switch (pending.gate.frame(voiced)) {
      case 'pause':
        this.queue.pause();
        return;
      case 'commit':
        return this.bargeIn();
      case 'noise':
        // Too short to be speech: not a turn, and the agent was never paused.
        this.interruption = null;
        this.queue.resume();
        if (this.utterance === pending.utterance) {
          pending.utterance.stream.cancel();
          this.utterance = null;
          this.endpointer.reset();
        }
        return;
      case 'words':
        // The burst is over: its words decide now, not after the endpointer's full silence.
        if (this.utterance === pending.utterance) {
          this.endpointer.reset();
          this.speechEnded(INTERRUPTION.burstEndFrames);
        } else {
          // Its utterance is gone (cancelled): no words will come to decide, the agent goes on.
          this.interruption = null;
          this.queue.resume();
        }
        return;
      default:
        return;
    }
  }

  /** The utterance is over; `silentFrames` of silence told so. */
  private speechEnded(silentFrames: number = ENDPOINTING.endSilenceFrames): void {
    const utterance = this.utterance;
    this.utterance = null;
    if (!utterance) return;
    const detectedAt = this.now();
    // The silence that ended it began that many frames ago: that is when the user stopped speaking.
    const userSpeechEndMs = detectedAt - silentFrames * ENDPOINTING.frameMs;
    void this.respond(utterance, userSpeechEndMs, detectedAt).catch((err: Error) =>
      this.logger.error(`A turn of ${this.deps.sessionId} failed: ${err.message}`),
    );
  }

  /** Recognises an utterance, reports it, asks the dialogue and speaks its answer. */
  private async respond(utterance: Utterance, userSpeechEndMs: number, detectedAt: number): Promise<void> {
    let words = '';
    try {
      words = (await utterance.stream.finish()).trim();
    } catch (err) {
      this.logger.warn(`An utterance could not be recognised: ${(err as Error).message}`);
    }
    const wordsAt = this.now();
    // Ended, or a transfer is under way (the caller is being handed over): not answered.
    if (this.ended || this.transferring) return;
    // A short burst over the agent: an acknowledgement (or nothing heard) lets it go on, not a turn.
    if (this.interruption?.utterance === utterance) {
      if (isBackchannel(words)) {
        this.interruption = null;
        this.queue.resume();
        return;
      }
      this.bargeIn();
    }
    if (!words) return;
    this.userWords.push(words);
    if (this.userWords.length > 2) this.userWords.splice(1, 1); // the first and the last are kept
    const stored = this.report((r) => r.turn({ role: 'user', content: words, t: seconds(utterance.startedAt) }));
    // The user is speaking again: that utterance will be answered, not this one (its turn is kept).
    if (this.utterance && this.interruptible) return;
    const answer = this.newAnswer(stored, { userSpeechEndMs, sttMs: wordsAt - detectedAt, wordsAt });
    await this.afterAnswer(answer, await this.ask(answer, (turn) => this.deps.dialogue.answer(words, turn)));
  }

  /** A key pressed: it cuts the agent off, and joins the keys of this turn. */
  private pressed(digit: string): void {
    if (this.ended || this.transferring || this.deps.voicemailMessage !== undefined) return;
    if (this.answer && this.interruptible) this.bargeIn();
    const at = this.now();
    const keys = (this.keys ??= { digits: '', startedAt: at, lastAt: at, timer: null });
    keys.digits += digit;
    keys.lastAt = at;
    if (keys.timer) clearTimeout(keys.timer);
    keys.timer = null;
    if (digit === '#' || keys.digits.length >= MAX_KEYS) this.keysEnded();
    else keys.timer = setTimeout(() => this.keysEnded(), KEYS_GAP_MS);
  }

  /** The caller stopped pressing keys: they are a user turn, answered by the dialogue. */
  private keysEnded(): void {
    const keys = this.keys;
    this.keys = null;
    if (!keys || this.ended || this.transferring) return;
    const stored = this.report((r) =>
      r.turn({ role: 'user', content: '', dtmf: keys.digits, t: seconds(keys.startedAt) }),
    );
    const at = this.now();
    const answer = this.newAnswer(stored, { userSpeechEndMs: keys.lastAt, sttMs: 0, wordsAt: at });
    void this.ask(answer, (turn) => this.deps.dialogue.pressed(keys.digits, turn))
      .then((action) => this.afterAnswer(answer, action))
      .catch((err: Error) => this.logger.error(`A keypad turn of ${this.deps.sessionId} failed: ${err.message}`));
  }

  /** The dialogue's answer to a turn, spoken into `answer`; `continue` when it failed. */
  private async ask(
    answer: SpokenAnswer,
    dialogue: (turn: { say(text: string): void; signal: AbortSignal }) => Promise<DialogueAction>,
  ): Promise<DialogueAction> {
    try {
      return await dialogue({ say: (text) => answer.say(text), signal: answer.signal });
    } catch (err) {
      if (!answer.signal.aborted) this.logger.warn(`The dialogue failed: ${(err as Error).message}`);
      return { type: 'continue' };
    }
  }

  private newAnswer(gate: Promise<unknown>, timing: AnswerTiming | null): SpokenAnswer {
    const { synthesizer, agent, transport } = this.deps;
    const answer = new SpokenAnswer(
      this.answers++,
      {
        synthesizer: synthesizer satisfies SpeechSynthesizer,
        voiceId: agent.voice_id,
        queue: this.queue,
        sampleRate: transport.sampleRate,
        now: () => this.now(),
      },
      gate,
      timing,
    );
    this.answer = answer;
    return answer;
  }

  /** Waits until the answer is played (or cut), reports it, then does what the dialogue decided. */
  private async afterAnswer(answer: SpokenAnswer, action: DialogueAction): Promise<void> {
    // An opt-out counts once said, even if the goodbye is cut.
    if (action.type === 'opt_out') await this.report((r) => r.optOut());
    await answer.queued();
    await this.queue.whenIdle();
    if (this.ended) return;
    if (!answer.signal.aborted) this.finish(answer, false);
    switch (action.type) {
      case 'transfer':
        await this.report((r) => r.transfer(action.number));
        return this.transfer(action.number);
      case 'opt_out':
        return this.end('goodbye');
      case 'end':
        return this.end(action.reason);
      default:
        return;
    }
  }

  /**
   * The line hands the caller to `number` (without a line that can, the conversation ends
   * `transferred` and the medium acts on it). Meanwhile the caller is not answered. Done: the
   * conversation ends `transferred`. Failed: it is reported, the agent says so, and the call goes on.
   */
  private async transfer(number: string): Promise<void> {
    const line = this.deps.line;
    if (!line?.transfer) return this.end('transferred');
    const warm = this.deps.agent.transfer_mode === 'warm';
    this.transferring = warm ? 'warm' : 'cold';
    this.interruption = null;
    this.queue.resume();
    this.utterance?.stream.cancel();
    this.utterance = null;
    if (this.keys?.timer) clearTimeout(this.keys.timer);
    this.keys = null;
    let outcome: TransferOutcome;
    try {
      outcome = await (warm
        ? line.transfer(
            number,
            // The agent's transfer_summary, or what the caller said first and last, in its voice.
            warmBriefing(this.deps.agent.transfer_summary?.trim() || briefingOf(this.userWords), {
              synthesizer: this.deps.synthesizer,
              voiceId: this.deps.agent.voice_id,
              now: () => this.now(),
            }),
          )
        : line.transfer(number));
    } catch (err) {
      this.logger.warn(`The transfer of ${this.deps.sessionId} failed: ${(err as Error).message}`);
      outcome = { ok: false, reason: 'target_failed', sip_code: null };
    }
    this.transferring = null;
    this.endpointer.reset();
    if (this.ended) return;
    if (outcome.ok) return this.end('transferred');
    const failure = { reason: outcome.reason, sip_code: outcome.sip_code };
    await this.report((r) => r.transferFailed(number, failure));
    if (this.ended) return;
    const apology = this.newAnswer(Promise.resolve(), null);
    apology.say(this.deps.dialogue.transferFailed(failure));
    await this.afterAnswer(apology, { type: 'continue' });
  }

  /** The user talks over the agent: silence at the next tick, then the cut answer is reported. */
  private bargeIn(): void {
    this.interruption = null;
    const answer = this.answer;
    if (!answer) {
      this.queue.resume(); // paused for speech over an answer that has since been played whole
      return;
    }
    const heardAt = this.now();
    this.queue.flush();
    answer.abort.abort();
    this.cut(answer);
    this.telemetry.bargeIn(this.deps.sessionId, this.now() - heardAt);
  }

  private cut(answer: SpokenAnswer): void {
    answer.abort.abort();
    this.finish(answer, true);
  }

  /** Reports an answer's transcript turn (cut to what was played) and its metrics, once. */
  private finish(answer: SpokenAnswer, interrupted: boolean): void {
    if (answer.reported) return;
    answer.reported = true;
    if (this.answer === answer) this.answer = null;
    const playback = this.queue.playback(answer.turn);
    const frames = Math.round(playback.played / (this.deps.transport.sampleRate / 50));
    const content = interrupted ? answer.heard(frames) : answer.text;
    if (interrupted) this.deps.dialogue.interrupted?.(content);
    const startedAt = playback.startedAt;
    if (startedAt === null) return;
    if (content) void this.report((r) => r.turn({ role: 'agent', content, t: seconds(startedAt) }));
    const timing = answer.timing;
    if (!timing) return;
    const metrics: TurnMetrics = {
      t: seconds(startedAt),
      user_speech_end_ms: Math.round(timing.userSpeechEndMs),
      agent_audio_start_ms: Math.round(startedAt),
      voice_to_voice_ms: Math.round(startedAt - timing.userSpeechEndMs),
      stt_ms: Math.round(timing.sttMs),
      llm_first_token_ms: Math.round((answer.firstTextAt ?? timing.wordsAt) - timing.wordsAt),
      tts_first_audio_ms: Math.round((answer.firstAudioAt ?? startedAt) - (answer.firstTextAt ?? timing.wordsAt)),
      interrupted,
    };
    this.telemetry.turn(this.deps.sessionId, metrics);
    void this.report((r) => r.metrics(metrics));
  }

  /** Every report goes through here: none after the end, and a failed one is logged, never thrown. */
  private report(send: (reporter: ConversationReporter) => Promise<void>): Promise<void> {
    if (this.ended) return Promise.resolve();
    return send(this.deps.reporter).catch((err: Error) =>
      this.logger.error(`A report of ${this.deps.sessionId} failed: ${err.message}`),
    );
  }
}

/** ms → seconds, to the millisecond. */
const seconds = (ms: number): number => Math.round(ms) / 1000;

/** An utterance being recognised; `over`: it began over the agent's voice (maybe a barge-in). */
interface Utterance {
  stream: RecognitionStream;
  startedAt: number;
  over: boolean;
}
