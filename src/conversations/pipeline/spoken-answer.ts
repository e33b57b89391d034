import { Logger } from '@nestjs/common';
import {
  abortError,
  isAbortError,
  type SpeechChunk,
  type SpeechSynthesizer,
  type SynthesisSession,
  type SynthesizedSpeech,
} from '../engines/engines';
import { synthesisPieces } from '../engines/synthesis-pieces';
import { frameSamples } from './audio-transport';
import type { TurnMetrics } from './conversation-reporter';
import type { OutputQueue } from './output-queue';
import { RateConverter, resample } from '../../kernel/audio/rate-converter';

const logger = new Logger('Conversation');

export interface SpokenAnswerDeps {
  synthesizer: SpeechSynthesizer;
  voiceId?: string;
  queue: OutputQueue;
  /**
   * Lines said whole, not pushed to a streaming-input session (the opening, canned lines): they go
   * through stream()/synthesize(), which the synthesis cache keeps.
   */
  wholeLines?: boolean;
  /** The transport's rate: synthesised audio is converted to it. */
  sampleRate: number;
  now: () => number;
}

/** Timings of the user turn an answer answers (none for the opening line). */
export interface AnswerTiming {
  userSpeechEndMs: number;
  sttMs: number;
  /** When the words were recognised. */
  wordsAt: number;
}

/** One piece of the answer's text and how much of its audio was queued (samples at the transport's rate). */
interface Piece {
  text: string;
  samples: number;
}

/**
 * One answer of the agent on its way out: each piece of text the dialogue says is sent to the
 * synthesiser at once, and its audio queued for playback in the order it was said as soon as it and
 * those before it are ready, so the first clause is heard while the next ones are still being made.
 * The engine's way decides the rest (docs/speech-engines.md, "Streaming"):
 *
 * - `open()` (streaming input, ElevenLabs): one session per answer, each piece pushed to it as it is
 *   said, its audio queued chunk by chunk as it comes;
 * - `stream()` (a streamed body, OpenAI): a request per piece, each chunk queued as it arrives;
 * - `synthesize()`: a request per piece, queued once whole.
 *
 * With the last two, separate lines synthesise in parallel and a line longer than
 * MAX_SYNTHESIS_PIECE in pieces of at most that, one after the other. Aborting drops what is not
 * queued yet and closes the engine's requests. It remembers how much audio each piece queued to tell,
 * after a barge-in, which words were heard, and a synthesis failure (`failure`) for the conversation
 * to apologise.
 */
export class SpokenAnswer {
  readonly abort = new AbortController();
  private readonly pieces: Piece[] = [];
  private chain: Promise<void>;
  /** The streaming-input session, once the first piece was said (open() engines). */
  private session: AnswerSession | null = null;
  /** Until the first sound is queued: silence a synthesiser leads with is dropped. */
  private leading = true;
  firstTextAt: number | null = null;
  firstAudioAt: number | null = null;
  /** The first synthesis failure of this answer (not an abort): what it could not say is not queued. */
  failure: Error | null = null;
  /** Set once its transcript turn and metrics are reported. */
  reported = false;

  constructor(
    /** The output queue's turn number of this answer. */
    readonly turn: number,
    private readonly deps: SpokenAnswerDeps,
    /** Nothing is queued before it resolves: the user turn being stored. */
    gate: Promise<unknown>,
    readonly timing: AnswerTiming | null,
  ) {
    this.chain = gate.then(
      () => undefined,
      () => undefined,
    );
  }

  get signal(): AbortSignal {
    return this.abort.signal;
  }

  /**
   * Speaks `text` after what was said before: in pieces of at most MAX_SYNTHESIS_PIECE characters
   * (synthesisPieces). Without a streaming-input engine, the pieces of one line are synthesised one
   * after the other (the next while the one before plays), so that a long line never has more than
   * one piece in the synthesiser; separate lines synthesise in parallel.
   */
  say(text: string): void {
    if (this.signal.aborted || !text.trim()) return;
    this.firstTextAt ??= this.deps.now();
    const { synthesizer } = this.deps;
    if (synthesizer.open && !this.deps.wholeLines) return this.push(synthesisPieces(text));
    let before: Promise<unknown> | null = null;
    for (const piece of synthesisPieces(text)) {
      const audio: Prefetched = new Prefetched(before, () => this.synthesize(piece));
      before = audio.done;
      this.queuePiece({ text: piece, samples: 0 }, audio, !synthesizer.stream);
    }
  }

  /** Resolves once everything said so far is queued (or dropped); a streaming-input session is told no more comes. */
  queued(): Promise<void> {
    this.session?.session.end();
    return this.chain;
  }

  private synthesize(piece: string): AsyncIterable<SpeechChunk> {
    if (this.signal.aborted) throw abortError();
    const { synthesizer, voiceId } = this.deps;
    const options = { voiceId, signal: this.signal };
    if (synthesizer.stream) return synthesizer.stream(piece, options);
    return once(synthesizer.synthesize(piece, options));
  }

  /** Queues one piece's audio after what was said before it, chunk by chunk as it comes. */
  private queuePiece(piece: Piece, audio: Prefetched, whole: boolean): void {
    const { queue } = this.deps;
    queue.await(1);
    this.chain = this.chain.then(async () => {
      const toRate = new StreamRate(this.deps.sampleRate, whole);
      try {
        for await (const chunk of audio) {
          if (this.signal.aborted) return;
          this.play(piece, toRate.convert(chunk));
        }
      } catch (err) {
        this.failed(err);
      } finally {
        queue.await(-1);
      }
    });
  }

  /** A streaming-input engine: the pieces go to the answer's session, its audio is queued as it comes. */
  private push(pieces: string[]): void {
    if (!this.session) {
      const { synthesizer, voiceId } = this.deps;
      if (!synthesizer.open) return;
      const session = synthesizer.open({ voiceId, signal: this.signal });
      const audio = new Prefetched(null, () => session.audio);
      this.session = { session, spoken: [], pushed: 0, closed: false };
      this.queueSession(this.session, audio);
    }
    for (const text of pieces) {
      // The session is over (failed, or cut): what is said now is not spoken, nor awaited.
      if (this.session.closed) return;
      this.session.pushed += text.length + 1; // sent with a space after it
      this.session.spoken.push({ piece: { text, samples: 0 }, endsAt: this.session.pushed });
      this.deps.queue.await(1);
      this.session.session.push(text);
    }
  }

  private queueSession(state: AnswerSession, audio: Prefetched): void {
    const { queue } = this.deps;
    this.chain = this.chain.then(async () => {
      const toRate = new StreamRate(this.deps.sampleRate, false);
      let current = 0;
      // A piece is awaited (an underrun if the queue runs dry) until the engine says its audio came.
      const release = (upTo: number) => {
        for (; current < upTo; current++) queue.await(-1);
      };
      try {
        for await (const chunk of audio) {
          if (this.signal.aborted) return;
          // The piece its last character falls in (the engine's alignment); else the latest one pushed.
          const characters = chunk.characters;
          const at = characters === undefined ? -1 : state.spoken.findIndex((s) => s.endsAt >= characters);
          const index = at < 0 ? state.spoken.length - 1 : at;
          const target = state.spoken[index];
          if (!target) continue;
          this.play(target.piece, toRate.convert(chunk));
          // Its pieces before it came whole, and it too once its last character (the space after it) did.
          // Its piece is whole once its last character came (an engine may not echo the space sent after it).
          if (characters !== undefined) release(characters >= target.endsAt - 1 ? index + 1 : index);
        }
      } catch (err) {
        this.failed(err);
      } finally {
        state.closed = true;
        release(state.spoken.length);
      }
    });
  }

  /** Queues audio of `piece` (at the transport's rate); silence before the answer's first sound is dropped. */
  private play(piece: Piece, pcm: Int16Array): void {
    const { queue, sampleRate, now } = this.deps;
    if (this.leading) {
      const sound = leadingSound(pcm, sampleRate);
      if (!sound) return;
      pcm = sound;
      this.leading = false;
    }
    if (pcm.length === 0) return;
    if (!this.pieces.includes(piece)) this.pieces.push(piece);
    piece.samples += pcm.length;
    this.firstAudioAt ??= now();
    queue.enqueue(this.turn, pcm);
  }

  private failed(err: unknown): void {
    if (this.signal.aborted || isAbortError(err)) return;
    this.failure ??= err instanceof Error ? err : new Error(String(err));
    logger.warn(`A sentence could not be synthesised: ${this.failure.message}`);
  }

  /**
   * Its turn's latency breakdown, given when its first frame was played (ms from the start); null
   * for a line that answers no user turn (the opening).
   */
  metrics(startedAt: number, interrupted: boolean): TurnMetrics | null {
    const timing = this.timing;
    if (!timing) return null;
    const firstText = this.firstTextAt ?? timing.wordsAt;
    return {
      t: Math.round(startedAt) / 1000,
      user_speech_end_ms: Math.round(timing.userSpeechEndMs),
      agent_audio_start_ms: Math.round(startedAt),
      voice_to_voice_ms: Math.round(startedAt - timing.userSpeechEndMs),
      stt_ms: Math.round(timing.sttMs),
      llm_first_token_ms: Math.round(firstText - timing.wordsAt),
      tts_first_audio_ms: Math.round((this.firstAudioAt ?? startedAt) - firstText),
      interrupted,
    };
  }

  /** Everything queued, as text. */
  get text(): string {
    return this.pieces.map((p) => p.text).join(' ');
  }

  /**
   * What the user heard of it, given the frames played: whole pieces, then the share of the words of
   * the piece being played that its played frames are (speech is roughly even in words per second).
   */
  heard(playedFrames: number): string {
    const heard: string[] = [];
    let left = playedFrames;
    const perFrame = frameSamples(this.deps.sampleRate);
    for (const piece of this.pieces) {
      if (left <= 0) break;
      const frames = Math.ceil(piece.samples / perFrame);
      if (left >= frames) {
        heard.push(piece.text);
        left -= frames;
        continue;
      }
      const words = piece.text.split(/\s+/);
      heard.push(words.slice(0, Math.max(1, Math.round((words.length * left) / frames))).join(' '));
      break;
    }
    return heard.join(' ');
  }
}

/** An answer's streaming-input session: the pieces pushed, each with the character count it ends at. */
interface AnswerSession {
  session: SynthesisSession;
  spoken: { piece: Piece; endsAt: number }[];
  pushed: number;
  /** Its audio ended (done, failed or cut): nothing more is pushed or awaited. */
  closed: boolean;
}

/** A chunk's audio at the transport's rate: a whole clip resampled at once, a stream through one converter. */
class StreamRate {
  private converter: RateConverter | null = null;

  constructor(
    private readonly rate: number,
    private readonly whole: boolean,
  ) {}

  convert(chunk: SynthesizedSpeech): Int16Array {
    if (chunk.sampleRate === this.rate) return chunk.samples;
    if (this.whole) return resample(chunk.samples, chunk.sampleRate, this.rate);
    if (this.converter?.from !== chunk.sampleRate) this.converter = new RateConverter(chunk.sampleRate, this.rate);
    return this.converter.process(chunk.samples);
  }
}

/** One synthesised clip as a stream of one chunk. */
async function* once(speech: Promise<SynthesizedSpeech>): AsyncIterable<SpeechChunk> {
  yield await speech;
}

/**
 * A stream of speech read ahead from the moment `start` resolves (the piece before it done), into a
 * buffer the answer's queueing reads in its turn: synthesis never waits for playback order.
 */
class Prefetched implements AsyncIterable<SpeechChunk> {
  private readonly chunks: SpeechChunk[] = [];
  private ended = false;
  private error: Error | null = null;
  private wake: (() => void) | null = null;
  /** Resolves once the stream ended (or failed). */
  readonly done: Promise<void>;

  constructor(start: Promise<unknown> | null, source: () => AsyncIterable<SpeechChunk>) {
    const pump = async () => {
      for await (const chunk of source()) {
        this.chunks.push(chunk);
        this.notify();
      }
    };
    // Without a piece before it, the request goes out now (in this call), not a tick later.
    this.done = (start ? start.then(pump) : pump())
      .catch((err: unknown) => {
        this.error = err instanceof Error ? err : new Error(String(err));
      })
      .finally(() => {
        this.ended = true;
        this.notify();
      });
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<SpeechChunk> {
    for (;;) {
      const chunk = this.chunks.shift();
      if (chunk) {
        yield chunk;
        continue;
      }
      if (this.ended) {
        if (this.error !== null) throw this.error;
        return;
      }
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }
}

/** Below this level (about -40 dBFS) a sample is silence. */
const SILENCE_LEVEL = 300;

/** The audio from 10 ms before its first sound; null when it is silent throughout. */
export function leadingSound(pcm: Int16Array, sampleRate: number): Int16Array | null {
  const first = pcm.findIndex((v) => Math.abs(v) > SILENCE_LEVEL);
  return first < 0 ? null : pcm.subarray(Math.max(0, first - sampleRate / 100));
}

/** Drops the silence before the first sound, keeping 10 ms of it as a lead-in. */
export function trimLeadingSilence(pcm: Int16Array, sampleRate: number): Int16Array {
  const first = pcm.findIndex((v) => Math.abs(v) > SILENCE_LEVEL);
  if (first < 0) return pcm;
  return pcm.subarray(Math.max(0, first - sampleRate / 100));
}
