import { Logger } from '@nestjs/common';
import { abortError, type SpeechSynthesizer, type SynthesizedSpeech } from '../engines/engines';
import { synthesisPieces } from '../engines/synthesis-pieces';
import { frameSamples } from './audio-transport';
import type { OutputQueue } from './output-queue';
import { resample } from '../../kernel/audio/rate-converter';

const logger = new Logger('Conversation');

export interface SpokenAnswerDeps {
  synthesizer: SpeechSynthesizer;
  voiceId?: string;
  queue: OutputQueue;
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

/**
 * One answer of the agent on its way out: each piece of text the dialogue says is sent to the
 * synthesiser at once (several synthesise in parallel; a line longer than MAX_SYNTHESIS_PIECE in
 * pieces of at most that, one after the other), and queued for playback in the order it was
 * said as soon as it and those before it are ready, so the first sentence is heard while the next
 * ones are still being made. Aborting drops what is not queued yet. It remembers each piece's length
 * to tell, after a barge-in, which words were heard.
 */
export class SpokenAnswer {
  readonly abort = new AbortController();
  private readonly pieces: { text: string; frames: number }[] = [];
  private chain: Promise<void>;
  firstTextAt: number | null = null;
  firstAudioAt: number | null = null;
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
   * (synthesisPieces), each queued as soon as it and those before it are made. The pieces of one
   * line are synthesised one after the other (the next while the one before plays), so that a long
   * line never has more than one piece in the synthesiser; separate lines synthesise in parallel.
   */
  say(text: string): void {
    if (this.signal.aborted || !text.trim()) return;
    this.firstTextAt ??= this.deps.now();
    let before: Promise<unknown> | null = null;
    for (const piece of synthesisPieces(text)) {
      const speech: Promise<SynthesizedSpeech> = before
        ? before.then(() => this.synthesize(piece))
        : this.synthesize(piece);
      before = speech.catch(() => undefined);
      this.queuePiece(piece, speech);
    }
  }

  private synthesize(piece: string): Promise<SynthesizedSpeech> {
    if (this.signal.aborted) return Promise.reject(abortError());
    return this.deps.synthesizer.synthesize(piece, { voiceId: this.deps.voiceId, signal: this.signal });
  }

  private queuePiece(text: string, speech: Promise<SynthesizedSpeech>): void {
    const { queue, sampleRate, now } = this.deps;
    queue.await(1);
    this.chain = this.chain.then(async () => {
      try {
        const made = await speech;
        if (this.signal.aborted) return;
        let pcm = resample(made.samples, made.sampleRate, sampleRate);
        // The answer's first audio is its first sound: synthesisers lead with silence (flite does).
        if (this.pieces.length === 0) pcm = trimLeadingSilence(pcm, sampleRate);
        this.firstAudioAt ??= now();
        this.pieces.push({ text, frames: Math.ceil(pcm.length / frameSamples(sampleRate)) });
        queue.enqueue(this.turn, pcm);
      } catch (err) {
        if (!this.signal.aborted) logger.warn(`A sentence could not be synthesised: ${(err as Error).message}`);
      } finally {
        queue.await(-1);
      }
    });
  }

  /** Resolves once everything said so far is queued (or dropped). */
  queued(): Promise<void> {
    return this.chain;
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
    for (const piece of this.pieces) {
      if (left <= 0) break;
      if (left >= piece.frames) {
        heard.push(piece.text);
        left -= piece.frames;
        continue;
      }
      const words = piece.text.split(/\s+/);
      heard.push(words.slice(0, Math.max(1, Math.round((words.length * left) / piece.frames))).join(' '));
      break;
    }
    return heard.join(' ');
  }
}

/** Below this level (about -40 dBFS) a sample is silence. */
const SILENCE_LEVEL = 300;

/** Drops the silence before the first sound, keeping 10 ms of it as a lead-in. */
export function trimLeadingSilence(pcm: Int16Array, sampleRate: number): Int16Array {
  const first = pcm.findIndex((v) => Math.abs(v) > SILENCE_LEVEL);
  if (first < 0) return pcm;
  return pcm.subarray(Math.max(0, first - sampleRate / 100));
}
