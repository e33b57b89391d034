import type { SpeechSynthesizer, SynthesizedSpeech } from './engines';

/** What the cache keeps at most by default: 16 MB of samples, about 8 minutes of 16 kHz speech. */
export const SYNTHESIS_CACHE_BYTES = 16 * 1024 * 1024;

/**
 * Speech already synthesised, by voice and text, so that the line every call of an agent starts
 * with (its `first_message`) is synthesised once, not at every answer (docs/capacity.md, "Answer
 * fast"); the canned phrases repeat too. Least recently used first out, bounded by the samples'
 * bytes. The speech returned is shared between callers: none of them changes it (the output queue
 * only reads it).
 */
export class CachingSynthesizer implements SpeechSynthesizer {
  private readonly entries = new Map<string, SynthesizedSpeech>();
  private bytes = 0;

  constructor(
    /** The engine that synthesises what is not kept. */
    readonly engine: SpeechSynthesizer,
    private readonly maxBytes = SYNTHESIS_CACHE_BYTES,
  ) {}

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
    const speech = await this.engine.synthesize(text, options);
    this.keep(key, speech);
    return speech;
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
