import { Logger } from '@nestjs/common';
import type { DialogueAction } from '../dialogue/dialogue';
import type { RecognitionStream, SpeechSynthesizer } from '../engines/engines';
import { type Apology, FailedTurns } from './engine-failures';
import { KeypadTurns, type KeysTurn } from './keypad-turns';
import type { ConversationDeps } from './conversation-deps';
import type { ConversationEnd, ConversationReporter } from './conversation-reporter';
import { ENDPOINTING } from './endpointer';
import { Hearing, type Utterance } from './hearing';
import { OutputQueue } from './output-queue';
import { SpokenAnswer, type AnswerTiming } from './spoken-answer';
import { NO_TELEMETRY, type TurnTelemetry } from './turn-telemetry';
import { INTERRUPTION, Interruption, isBackchannel } from './interruption';
import { briefingOf } from '../dialogue/phrases';
import { transferThrough } from './warm-briefing';

const DEFAULT_MAX_DURATION_SECONDS = 3600;
/**
 * With a streaming recogniser told to end turns after `endpointing_ms`, the endpointer ends one this
 * much later (its final words given time to come); without `endpointing_ms`, at its usual 500 ms.
 */
const PROVIDER_GRACE_MS = 250;
export { KEYS_GAP_MS } from './keypad-turns';
export type { ConversationDeps, ConversationLine } from './conversation-deps';

/**
 * One session's conversation, from start to end (docs/conversations.md):
 *
 * 1. It speaks the dialogue's opening line, then listens. Every 20 ms frame heard is converted to
 *    16 kHz, given to the VAD and the endpointer; while the user speaks it streams to the recogniser.
 * 2. At the end of an utterance (the endpointer's silence, `endpointing_ms`; a streaming recogniser's
 *    own endpoint when it comes first) it gets the words, reports the user turn, and asks the
 *    dialogue. The answer is synthesised clause by clause and queued (spoken-answer.ts); the transport
 *    pulls the frames on its own clock. Nothing is heard before the user turn is stored. A streaming
 *    recogniser's partial words go to the reporter as they come (the live view).
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
 * 6. A turn a hosted engine failed is answered with an apology (engine-failures.ts, decision 107).
 *
 * Per frame it does little (resampling and the VAD); the engines run in child processes or elsewhere.
 */
export class Conversation {
  private readonly logger = new Logger('Conversation');
  private readonly queue: OutputQueue;
  private readonly hearing: Hearing;
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
  private readonly keypad = new KeypadTurns(
    () => this.now(),
    (keys) => this.keysEnded(keys),
  );
  private readonly failures: FailedTurns;
  /**
   * Answers that are (or end with) an apology, and whether in the apology voice: they do not count
   * as a turn answered well, and one whose synthesis failed is said again in that voice, not counted again.
   */
  private readonly apologies = new WeakMap<SpokenAnswer, { apology: Apology; fallback: boolean }>();
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
    this.interruptible = deps.agent.interruptible !== false && deps.voicemailMessage === undefined;
    this.telemetry = deps.telemetry ?? NO_TELEMETRY;
    this.failures = new FailedTurns(deps.sessionId, this.telemetry);
    // A streaming recogniser ends turns itself; the endpointer's silence is its bound (decision 196).
    const silence = deps.agent.endpointing_ms;
    this.hearing = new Hearing(
      rate,
      deps.recognizer.endpointing === 'provider' && silence !== undefined ? silence + PROVIDER_GRACE_MS : silence,
    );
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
    this.keypad.clear();
    for (const unsubscribe of this.unsubscribe.splice(0)) unsubscribe();
    this.queue.flush();
    this.utterance?.stream.cancel();
    this.utterance = null;
    this.hearing.close();
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

  /** One frame from the transport: to 16 kHz, VAD, endpointer (hearing.ts). */
  private hear(frame: Int16Array): void {
    if (this.ended || this.transferring || this.deps.voicemailMessage !== undefined) return;
    this.hearing.hear(frame, (event, voiced) => {
      if (event?.type === 'speech_start') this.speechStarted(event.audio);
      else if (event?.type === 'speech') this.utterance?.stream.write(event.frame);
      else if (event?.type === 'speech_end') this.speechEnded();
      if (this.interruption && event?.type !== 'speech_start') this.interrupting(voiced);
    });
  }

  private speechStarted(audio: Int16Array[]): void {
    // Over an answer being heard: maybe a barge-in (interruption.ts); over one being prepared: one.
    let gate: Interruption | null = null;
    if (this.answer && this.interruptible) {
      if (this.queue.playing) gate = new Interruption(ENDPOINTING.startVoicedFrames * ENDPOINTING.frameMs);
      else this.bargeIn();
    }
    // The start was decided over the last frames: the speech began about that long ago.
    const startedAt = Math.max(0, this.now() - ENDPOINTING.startWindowFrames * ENDPOINTING.frameMs);
    // Set once the stream is made; a listener's call before that (none is expected) is ignored.
    let utterance: Utterance | null = null;
    let stream: RecognitionStream;
    try {
      stream = this.deps.recognizer.start(this.deps.agent.language ?? 'en-US', {
        ...(this.deps.agent.endpointing_ms !== undefined ? { endpointingMs: this.deps.agent.endpointing_ms } : {}),
        listener: {
          partial: (words) => {
            if (utterance && this.utterance === utterance && !this.ended)
              this.deps.reporter.partial?.({ content: words, t: seconds(startedAt) });
          },
          endpoint: () => {
            if (utterance) this.providerEndpoint(utterance);
          },
        },
      });
    } catch (err) {
      // No recogniser here (the embedded one not built, docs/speech-engines.md): this utterance is lost.
      this.logger.error(`The speech of ${this.deps.sessionId} cannot be recognised: ${(err as Error).message}`);
      return;
    }
    utterance = { stream, startedAt, over: gate !== null };
    this.utterance = utterance;
    if (gate) this.interruption = { gate, utterance };
    for (const frame of audio) stream.write(frame);
  }

  /** A streaming recogniser ended the utterance before the endpointer did: the speech ended at the last voiced frame. */
  private providerEndpoint(utterance: Utterance): void {
    if (this.ended || this.utterance !== utterance) return;
    const silent = this.hearing.endpointer.silentFrames;
    this.hearing.endpointer.reset();
    // The wait for the words is the recogniser's: its endpoint counts in stt_ms, not as a silence of ours.
    this.speechEnded(silent, true);
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
          this.hearing.endpointer.reset();
        }
        return;
      case 'words':
        // The burst is over: its words decide now, not after the endpointer's full silence.
        if (this.utterance === pending.utterance) {
          this.hearing.endpointer.reset();
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

  /** The utterance is over; `silentFrames` of silence told so (or the recogniser did, `byEngine`). */
  private speechEnded(silentFrames: number = this.hearing.endpointer.endSilenceFrames, byEngine = false): void {
    const utterance = this.utterance;
    this.utterance = null;
    if (!utterance) return;
    const now = this.now();
    // The silence that ended it began that many frames ago: that is when the user stopped speaking.
    const userSpeechEndMs = now - silentFrames * ENDPOINTING.frameMs;
    const detectedAt = byEngine ? userSpeechEndMs : now;
    void this.respond(utterance, userSpeechEndMs, detectedAt).catch((err: Error) =>
      this.logger.error(`A turn of ${this.deps.sessionId} failed: ${err.message}`),
    );
  }

  /** Recognises an utterance, reports it, asks the dialogue and speaks its answer. */
  private async respond(utterance: Utterance, userSpeechEndMs: number, detectedAt: number): Promise<void> {
    let words = '';
    let failure: unknown = null;
    try {
      words = (await utterance.stream.finish()).trim();
    } catch (err) {
      failure = err;
      this.logger.warn(`An utterance could not be recognised: ${(err as Error).message}`);
    }
    const wordsAt = this.now();
    // Ended, or a transfer is under way (the caller is being handed over): not answered.
    if (this.ended || this.transferring) return;
    const timing = { userSpeechEndMs, sttMs: wordsAt - detectedAt, wordsAt };
    if (failure !== null && this.interruption?.utterance === utterance) {
      // A burst over the agent whose words are unknown: the agent goes on, as after a noise.
      this.interruption = null;
      this.queue.resume();
      return;
    }
    if (failure !== null && FailedTurns.isFailure(failure) && !(this.utterance && this.interruptible)) {
      // The words are unknown: no user turn; the apology is the agent's answer (it cuts any other).
      if (this.answer && this.interruptible) this.bargeIn();
      const apology = this.failures.failed(failure, 'recognition');
      return this.apologise(this.newAnswer(Promise.resolve(), timing), apology);
    }
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
    const answer = this.newAnswer(stored, timing);
    await this.afterAnswer(answer, await this.ask(answer, (turn) => this.deps.dialogue.answer(words, turn)));
  }

  /** A key pressed: it cuts the agent off, and joins the keys of this turn (keypad-turns.ts). */
  private pressed(digit: string): void {
    if (this.ended || this.transferring || this.deps.voicemailMessage !== undefined) return;
    if (this.answer && this.interruptible) this.bargeIn();
    this.keypad.press(digit);
  }

  /** The caller stopped pressing keys: they are a user turn, answered by the dialogue. */
  private keysEnded(keys: KeysTurn): void {
    if (this.ended || this.transferring) return;
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
      if (answer.signal.aborted || !FailedTurns.isFailure(err)) return { type: 'continue' };
      this.logger.warn(`The dialogue failed: ${(err as Error).message}`);
      // What was said of the answer stays; the apology follows it.
      const apology = this.failures.failed(err, 'model');
      this.apologies.set(answer, { apology, fallback: false });
      answer.say(apology.line);
      return apology.last ? { type: 'end', reason: 'goodbye' } : { type: 'continue' };
    }
  }

  /**
   * Says an apology (a hosted engine failed this turn) in `answer`, with the apology synthesiser
   * when synthesis is what failed; the last one ends the conversation.
   */
  private async apologise(answer: SpokenAnswer, apology: Apology, fallback = false): Promise<void> {
    this.apologies.set(answer, { apology, fallback });
    answer.say(apology.line);
    await this.afterAnswer(answer, apology.last ? { type: 'end', reason: 'goodbye' } : { type: 'continue' });
  }

  private newAnswer(
    gate: Promise<unknown>,
    timing: AnswerTiming | null,
    synthesizer: SpeechSynthesizer = this.deps.synthesizer,
  ): SpokenAnswer {
    const { agent, transport } = this.deps;
    const answer = new SpokenAnswer(
      this.answers++,
      {
        synthesizer,
        // The opening and the lines that answer no turn are said whole (the cache keeps them).
        wholeLines: timing === null,
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
    const said = this.apologies.get(answer);
    if (answer.failure && !answer.signal.aborted && !said?.fallback) {
      // Synthesis failed: what it could not say was not heard. An apology (or the closing) is said
      // again in the apology voice, counted once; another answer is followed by one.
      const voice = this.deps.apologySynthesizer ?? this.deps.synthesizer;
      if (said) return this.apologise(this.newAnswer(Promise.resolve(), null, voice), said.apology, true);
      if (action.type === 'continue') {
        const apology = this.failures.failed(answer.failure, 'synthesis');
        return this.apologise(this.newAnswer(Promise.resolve(), null, voice), apology, true);
      }
    }
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
    this.keypad.clear();
    const { agent, synthesizer } = this.deps;
    const outcome = await transferThrough(line, number, {
      // Warm: the agent's transfer_summary, or what the caller said first and last, in its voice.
      briefing: warm ? agent.transfer_summary?.trim() || briefingOf(this.userWords) : null,
      speaker: { synthesizer, voiceId: agent.voice_id, now: () => this.now() },
      failed: (err) => this.logger.warn(`The transfer of ${this.deps.sessionId} failed: ${err.message}`),
    });
    this.transferring = null;
    this.hearing.endpointer.reset();
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
    // A turn answered and heard (whole or cut), without an engine failing: the failures' count starts again.
    if (answer.timing && !answer.failure && !this.apologies.has(answer)) this.failures.succeeded();
    if (content) void this.report((r) => r.turn({ role: 'agent', content, t: seconds(startedAt) }));
    const metrics = answer.metrics(startedAt, interrupted);
    if (!metrics) return;
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
