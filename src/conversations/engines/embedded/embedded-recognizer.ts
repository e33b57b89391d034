import { StringDecoder } from 'node:string_decoder';
import { Logger } from '@nestjs/common';
import type { RecognitionStream, RecognizerBacklog, SpeechRecognizer } from '../engines';
import { helperPath, HelperProcess } from './helper-process';

/** Idle warm recognisers kept beyond the ones in use; more are stopped when they finish. */
const MAX_IDLE = 32;

/**
 * Speech recognition by pocketsphinx (Debian's `pocketsphinx-en-us`, a 16 kHz US English model),
 * kept warm: each helper process loads the model once and then recognises utterance after utterance
 * (native/speech-recognizer.c). An utterance streams into one helper while the user speaks, so the
 * words are ready moments after the end. Helpers are pooled: one per utterance in progress, up to
 * MAX_IDLE kept loaded between utterances; `prewarm(n)` loads helpers until there are n (one per
 * live conversation and one spare), so that no utterance waits for a model to load.
 */
export class EmbeddedRecognizer implements SpeechRecognizer {
  private readonly logger = new Logger('SpeechRecognizer');
  private readonly idle: Recognizer[] = [];
  private readonly all = new Set<Recognizer>();
  private closed = false;

  constructor(private readonly modelDir: string) {}

  /** Loads `count` helpers ahead of use (a conversation starting), so its first utterance waits for no model. */
  prewarm(count = 1): void {
    while (!this.closed && this.all.size < count && this.idle.length < MAX_IDLE) this.idle.push(this.spawn());
  }

  start(_language: string): RecognitionStream {
    if (this.closed) throw new Error('The speech recogniser is stopped.');
    const helper = this.idle.pop() ?? this.spawn();
    return helper.begin(() => this.release(helper));
  }

  /** Stops every helper (the service is stopping). */
  close(): void {
    this.closed = true;
    for (const helper of this.all) helper.process.stop();
    this.idle.length = 0;
  }

  get helpers(): number {
    return this.all.size;
  }

  /** Utterances ended and waiting for their words, and how long the oldest has waited (ms). */
  backlog(now = performance.now()): RecognizerBacklog {
    let waiting = 0;
    let oldestMs = 0;
    for (const helper of this.all) {
      if (helper.waitingSince === null) continue;
      waiting++;
      oldestMs = Math.max(oldestMs, now - helper.waitingSince);
    }
    return { waiting, oldestMs };
  }

  private spawn(): Recognizer {
    const helper: Recognizer = new Recognizer(helperPath('speech-recognizer'), this.modelDir, (why) => {
      this.all.delete(helper);
      const at = this.idle.indexOf(helper);
      if (at >= 0) this.idle.splice(at, 1);
      if (!this.closed) this.logger.warn(`A speech recogniser helper ${why}.`);
    });
    this.all.add(helper);
    return helper;
  }

  private release(helper: Recognizer): void {
    if (helper.process.exited) return;
    if (this.closed || this.idle.length >= MAX_IDLE) {
      this.all.delete(helper);
      helper.process.stop();
      return;
    }
    this.idle.push(helper);
  }
}

const HEADER = 5;

/** One helper process and the utterance it serves (one at a time). */
class Recognizer {
  readonly process: HelperProcess;
  /** Text of the line being read, as its chunks came. */
  private partial: string[] = [];
  private readonly decoder = new StringDecoder('utf8');
  private pending: { resolve: (words: string) => void; reject: (err: Error) => void } | null = null;
  private failure: string | null = null;
  /** When the utterance it serves ended (performance.now), while its words are awaited; else null. */
  waitingSince: number | null = null;

  constructor(path: string, modelDir: string, onExit: (why: string) => void) {
    this.process = new HelperProcess(
      path,
      [modelDir],
      (chunk) => this.read(chunk),
      (why) => {
        this.failure = why;
        this.pending?.reject(new Error(`The speech recogniser ${why}.`));
        this.pending = null;
        onExit(why);
      },
    );
  }

  begin(release: () => void): RecognitionStream {
    let done = false;
    const send = (kind: string, payload?: Buffer): void => {
      const head = Buffer.alloc(HEADER);
      head.write(kind, 0, 'latin1');
      head.writeUInt32LE(payload?.length ?? 0, 1);
      this.process.write(payload ? Buffer.concat([head, payload]) : head);
    };
    return {
      write: (pcm) => {
        if (!done && pcm.length > 0) send('A', Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength));
      },
      finish: () => {
        if (done) return Promise.resolve('');
        done = true;
        if (this.failure) return Promise.reject(new Error(`The speech recogniser ${this.failure}.`));
        const words = new Promise<string>((resolve, reject) => {
          this.pending = { resolve, reject };
        });
        this.waitingSince = performance.now();
        send('E');
        return words.finally(() => {
          this.waitingSince = null;
          release();
        });
      },
      cancel: () => {
        if (done) return;
        done = true;
        send('X');
        release();
      },
    };
  }

  /**
   * Lines from the helper: "R" once loaded, then one "H <words>" per finished utterance. A chunk with
   * no line end is only kept: the text so far is searched once per line, not once per chunk.
   */
  private read(chunk: Buffer): void {
    const text = this.decoder.write(chunk);
    if (!text.includes('\n')) {
      this.partial.push(text);
      return;
    }
    const lines = (this.partial.join('') + text).split('\n');
    this.partial = [lines.pop() ?? ''];
    for (const line of lines) {
      if (!line.startsWith('H')) continue;
      const pending = this.pending;
      this.pending = null;
      pending?.resolve(line.slice(2).trim());
    }
  }
}
