import type { SpeechChunk, SpeechSynthesizer, SynthesisOptions, SynthesisSession, SynthesizedSpeech } from './engines';

/** What the cache keeps at most by default: 16 MB of samples, about 8 minutes of 16 kHz speech. */
export const SYNTHESIS_CACHE_BYTES = 16 * 1024 * 1024;

/**
 * Speech already synthesised, by voice and text, so that the line every call of an agent starts
 * with (its `first_message`) is synthesised once, not at every answer (docs/capacity.md, "Answer
 * fast"); the canned phrases repeat too. Least recently used first out, bounded by the samples'
 * bytes. The speech returned is shared between callers: none of them changes it (the output queue
 * only reads it). Callers asking for a line that is being synthesised share that synthesis (a burst of
 * calls answered at once synthesises its greeting once); it is cancelled only when every one of them
 * gave up (its signal), and a caller that gives up is rejected at once.
 */
export class CachingSynthesizer implements SpeechSynthesizer {
  private readonly entries = new Map<string, SynthesizedSpeech>();
  private readonly flights = new Map<string, Flight>();
  private bytes = 0;
  /** The engine's streaming input, passed through (an answer the model writes is not kept). */
  readonly open?: (options: SynthesisOptions) => SynthesisSession;

  constructor(
    /** The engine that synthesises what is not kept. */
    readonly engine: SpeechSynthesizer,
    private readonly maxBytes = SYNTHESIS_CACHE_BYTES,
  ) {
    const open = engine.open?.bind(engine);
    if (open) this.open = open;
  }

  /**
   * A line kept is one chunk at once; else the engine's stream (its synthesis whole, for an engine
   * that does not stream), kept once it ended whole. Concurrent streams of one line are not shared.
   */
  async *stream(text: string, options: SynthesisOptions): AsyncIterable<SpeechChunk> {
    const key = `${options.voiceId ?? ''}\u0000${text}`;
    if (this.entries.has(key) || !this.engine.stream) {
      yield await this.synthesize(text, options);
      return;
    }
    const chunks: SpeechChunk[] = [];
    for await (const chunk of this.engine.stream(text, options)) {
      chunks.push(chunk);
      yield chunk;
    }
    // A stream cut by its caller (a barge-in) may end quietly: what came is not the whole line.
    if (options.signal?.aborted) return;
    const rate = chunks[0]?.sampleRate;
    if (rate === undefined || chunks.some((c) => c.sampleRate !== rate)) return;
    const samples = new Int16Array(chunks.reduce((n, c) => n + c.samples.length, 0));
    let at = 0;
    for (const chunk of chunks) {
      samples.set(chunk.samples, at);
      at += chunk.samples.length;
    }
    this.keep(key, { sampleRate: rate, samples });
  }

  get size(): number {
    return this.entries.size;
  }

  /** The engine's own warm-up (the embedded one loads its helper ahead of the first line). */
  prewarm(): void {
    (this.engine as { prewarm?: () => void }).prewarm?.();
  }

  async synthesize(text: string, options: { voiceId?: string; signal?: AbortSignal }): Promise<SynthesizedSpeech> {
    const key = `${options.voiceId ?? ''}\u0000${text}`;
    const kept = this.entries.get(key);
    if (kept) {
      // Most recently used: to the end of the map's order.
      this.entries.delete(key);
      this.entries.set(key, kept);
      return kept;
    }
    if (options.signal?.aborted) throw new Error('aborted');
    const flight = this.flights.get(key) ?? this.fly(key, text, options.voiceId);
    return flight.join(options.signal);
  }

  /** A synthesis of `text` that callers join; kept when it succeeds, forgotten when it ends. */
  private fly(key: string, text: string, voiceId: string | undefined): Flight {
    const cancel = new AbortController();
    const speech = this.engine
      .synthesize(text, { ...(voiceId !== undefined ? { voiceId } : {}), signal: cancel.signal })
      .then((done) => {
        this.keep(key, done);
        return done;
      })
      .finally(() => this.flights.delete(key));
    const flight = new Flight(speech, cancel);
    this.flights.set(key, flight);
    return flight;
  }

  private keep(key: string, speech: SynthesizedSpeech): void {
    const size = speech.samples.byteLength;
    if (size > this.maxBytes || this.entries.has(key)) return;
    this.entries.set(key, speech);
    this.bytes += size;
    for (const [oldest, old] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= old.samples.byteLength;
    }
  }
}

/** One synthesis shared by the callers that asked for it while it ran. */
class Flight {
  private waiting = 0;

  constructor(
    private readonly speech: Promise<SynthesizedSpeech>,
    private readonly cancel: AbortController,
  ) {
    speech.catch(() => undefined); // a caller that gave up does not hear of it: not unhandled
  }

  join(signal: AbortSignal | undefined): Promise<SynthesizedSpeech> {
    this.waiting++;
    if (!signal) return this.speech;
    return new Promise<SynthesizedSpeech>((resolve, reject) => {
      const giveUp = () => {
        reject(new Error('aborted'));
        // The last caller gone: the engine stops too.
        if (--this.waiting === 0) this.cancel.abort();
      };
      signal.addEventListener('abort', giveUp, { once: true });
      this.speech.then(
        (speech) => {
          signal.removeEventListener('abort', giveUp);
          resolve(speech);
        },
        (error: unknown) => {
          signal.removeEventListener('abort', giveUp);
          reject(error instanceof Error ? error : new Error(String(error)));
        },
      );
    });
  }
}
