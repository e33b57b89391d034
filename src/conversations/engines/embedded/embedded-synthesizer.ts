import { Logger } from '@nestjs/common';
import type { SpeechSynthesizer, SynthesizedSpeech } from '../engines';
import { ByteQueue } from '../byte-queue';
import { synthesizeInPieces } from '../synthesis-pieces';
import { helperPath, HelperProcess } from './helper-process';

/** Helpers that synthesise at once; more requests wait in order. */
const MAX_HELPERS = 3;

interface Job {
  text: string;
  signal?: AbortSignal;
  resolve: (speech: SynthesizedSpeech) => void;
  reject: (err: Error) => void;
}

/**
 * Speech synthesis by flite with its `slt` voice (16 kHz, US English), kept warm: each helper process
 * sets the voice up once and then speaks line after line (native/speech-synthesizer.c). Up to
 * MAX_HELPERS speak at once; the rest wait in order. An aborted request that has not started is
 * dropped; one being spoken finishes in the helper and is thrown away.
 */
export class EmbeddedSynthesizer implements SpeechSynthesizer {
  private readonly logger = new Logger('SpeechSynthesizer');
  private readonly idle: Synthesizer[] = [];
  private readonly all = new Set<Synthesizer>();
  private readonly queue: Job[] = [];
  private closed = false;

  prewarm(): void {
    if (this.all.size === 0 && !this.closed) this.idle.push(this.spawn());
  }

  synthesize(text: string, options: { voiceId?: string; signal?: AbortSignal }): Promise<SynthesizedSpeech> {
    if (this.closed) return Promise.reject(new Error('The speech synthesiser is stopped.'));
    // One line per request (the helper reads lines: white space is made single spaces), of at most
    // MAX_SYNTHESIS_PIECE characters: a longer one is spoken in pieces, one after the other.
    return synthesizeInPieces(text, (piece) => this.speakPiece(piece, options.signal));
  }

  private speakPiece(line: string, signal: AbortSignal | undefined): Promise<SynthesizedSpeech> {
    if (this.closed) return Promise.reject(new Error('The speech synthesiser is stopped.'));
    return new Promise((resolve, reject) => {
      this.queue.push({ text: line, signal, resolve, reject });
      this.pump();
    });
  }

  close(): void {
    this.closed = true;
    for (const helper of this.all) helper.process.stop();
    for (const job of this.queue.splice(0)) job.reject(new Error('The speech synthesiser is stopped.'));
  }

  private pump(): void {
    for (let job = this.queue[0]; job !== undefined; job = this.queue[0]) {
      if (job.signal?.aborted) {
        this.queue.shift();
        job.reject(new Error('aborted'));
        continue;
      }
      const helper = this.idle.pop() ?? (this.all.size < MAX_HELPERS ? this.spawn() : null);
      if (!helper) return;
      this.queue.shift();
      const taken = job;
      helper
        .speak(taken.text)
        .then(
          (speech) => (taken.signal?.aborted ? taken.reject(new Error('aborted')) : taken.resolve(speech)),
          (err: Error) => taken.reject(err),
        )
        .finally(() => {
          if (!helper.process.exited) this.idle.push(helper);
          this.pump();
        });
    }
  }

  private spawn(): Synthesizer {
    const helper: Synthesizer = new Synthesizer(helperPath('speech-synthesizer'), (why) => {
      this.all.delete(helper);
      const at = this.idle.indexOf(helper);
      if (at >= 0) this.idle.splice(at, 1);
      if (!this.closed) this.logger.warn(`A speech synthesiser helper ${why}.`);
    });
    this.all.add(helper);
    return helper;
  }
}

/** One helper process: answers each line with a sample count, a rate and the samples. */
class Synthesizer {
  readonly process: HelperProcess;
  private readonly reader = new HelperAnswers();
  private pending: { resolve: (s: SynthesizedSpeech) => void; reject: (err: Error) => void } | null = null;

  constructor(path: string, onExit: (why: string) => void) {
    this.process = new HelperProcess(
      path,
      [],
      (chunk) => this.read(chunk),
      (why) => {
        this.pending?.reject(new Error(`The speech synthesiser ${why}.`));
        this.pending = null;
        onExit(why);
      },
    );
  }

  speak(text: string): Promise<SynthesizedSpeech> {
    if (this.process.exited) return Promise.reject(new Error('The speech synthesiser helper is gone.'));
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject };
      this.process.write(`${text}\n`);
    });
  }

  private read(chunk: Buffer): void {
    for (const speech of this.reader.push(chunk)) {
      const pending = this.pending;
      this.pending = null;
      pending?.resolve(speech);
    }
  }
}

/**
 * The helper's output read as it comes: an 8-byte greeting once ready, then per line a 32-bit
 * sample count, a 32-bit rate and the 16-bit samples (little-endian). The chunks are kept as they
 * come (ByteQueue) and each answer's samples copied once, when whole: linear in the output's length.
 */
export class HelperAnswers {
  readonly bytes = new ByteQueue();
  private ready = false;

  /** Adds a chunk of output; answers the speeches it completed. */
  push(chunk: Buffer): SynthesizedSpeech[] {
    const bytes = this.bytes;
    bytes.push(chunk);
    if (!this.ready) {
      if (bytes.length < 8) return [];
      this.ready = true;
      bytes.skip(8);
    }
    const done: SynthesizedSpeech[] = [];
    while (bytes.length >= 8) {
      const head = bytes.peek(8);
      const count = head.readUInt32LE(0);
      const rate = head.readUInt32LE(4);
      if (bytes.length < 8 + count * 2) break;
      bytes.skip(8);
      // A copy out of the chunks (which the stream may reuse), straight into the samples.
      const samples = new Int16Array(count);
      bytes.take(new Uint8Array(samples.buffer));
      done.push({ sampleRate: rate, samples });
    }
    return done;
  }
}
