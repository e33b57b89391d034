import { Readable } from 'node:stream';
import type OpenAI from 'openai';
import {
  EngineError,
  type EngineEndpoint,
  type SpeechChunk,
  type SpeechSynthesizer,
  type SynthesisOptions,
  type SynthesizedSpeech,
} from '../engines';
import { deadline, type EngineLimits, engineFailure, openAiClient } from './openai-client';
import { ByteQueue } from '../byte-queue';
import { synthesisPieces, synthesizeInPieces } from '../synthesis-pieces';
import { decodeWav, isWav, pcm16le } from './wav';

/** One sentence of speech: one try and one retry, each bounded. */
export const SYNTHESIS_LIMITS: EngineLimits = { timeoutMs: 10_000, maxRetries: 1 };
/** OpenAI's `pcm` answer: raw 16-bit little-endian mono samples at 24 kHz. */
export const OPENAI_PCM_RATE = 24_000;

/**
 * The most audio one piece (at most 400 characters, about 25 s of speech) may answer: 8 MiB is
 * nearly 3 minutes of 24 kHz PCM. A longer answer is an engine failure, not read further.
 */
export const MAX_SPEECH_BYTES = 8 * 1024 * 1024;

/**
 * The hosted voice for one of ours (decision 108): the stock voices map to OpenAI stock voices that
 * every OpenAI TTS model has; a voice clone (`voi_…`, trained here, unknown to the engine) and an
 * unset voice speak with `alloy`. Any other id is the engine's own voice name and is sent as is.
 */
const STOCK_VOICES: Record<string, string> = {
  voice_default: 'alloy',
  voice_ava: 'shimmer',
  voice_leo: 'echo',
  voice_mia: 'coral',
};

export function hostedVoice(voiceId: string | undefined): string {
  if (!voiceId) return 'alloy';
  return STOCK_VOICES[voiceId] ?? (/^voi(ce)?_/.test(voiceId) ? 'alloy' : voiceId);
}

/** Streamed audio is passed on in chunks of at least this much (40 ms at 24 kHz), as the body comes. */
const STREAM_CHUNK_BYTES = 1920;

/**
 * Speech synthesis by an OpenAI-compatible `/v1/audio/speech` (OpenAI's tts-1 or gpt-4o-mini-tts,
 * Kokoro-FastAPI, …), asking for raw PCM (24 kHz). A server that answers a WAV file instead is read
 * by its header; any other format is refused as an engine failure. `stream()` passes the body on as
 * it arrives (the conversation's way: the first 40 ms play while the rest is made); a WAV answer is
 * read whole first, its header telling its format.
 */
export class OpenAiSynthesizer implements SpeechSynthesizer {
  private readonly client: OpenAI;

  constructor(
    private readonly endpoint: EngineEndpoint,
    private readonly limits: EngineLimits = SYNTHESIS_LIMITS,
  ) {
    this.client = openAiClient(endpoint, limits);
  }

  synthesize(text: string, options: { voiceId?: string; signal?: AbortSignal }): Promise<SynthesizedSpeech> {
    // At most MAX_SYNTHESIS_PIECE characters per request: a longer line is asked for in pieces.
    return synthesizeInPieces(text, (piece) => this.speakPiece(piece, options));
  }

  async *stream(text: string, options: SynthesisOptions): AsyncIterable<SpeechChunk> {
    for (const piece of synthesisPieces(text)) {
      if (piece !== '') yield* this.streamPiece(piece, options);
    }
  }

  private async *streamPiece(input: string, options: SynthesisOptions): AsyncIterable<SpeechChunk> {
    const limit = deadline(this.limits.timeoutMs * (this.limits.maxRetries + 1), options.signal);
    try {
      const response = await this.client.audio.speech.create(
        { model: this.endpoint.model, voice: hostedVoice(options.voiceId), input, response_format: 'pcm' },
        { signal: limit.signal },
      );
      if (!response.body) throw new EngineError('synthesis', 'The speech synthesis engine answered no audio.');
      const body: AsyncIterable<Uint8Array> = Readable.fromWeb(response.body);
      const pending = new ByteQueue();
      let total = 0;
      let wav: boolean | null = null;
      for await (const value of body) {
        pending.push(Buffer.from(value.buffer, value.byteOffset, value.byteLength));
        total += value.byteLength;
        if (total > MAX_SPEECH_BYTES) {
          throw new EngineError(
            'synthesis',
            `The speech synthesis engine answered more than ${MAX_SPEECH_BYTES} bytes for one piece.`,
          );
        }
        // A WAV answer is read whole (its header says its rate); raw PCM goes on in even-length chunks.
        if (wav === null && pending.length >= 12) wav = isWav(pending.peek(12));
        if (wav !== false || pending.length < STREAM_CHUNK_BYTES) continue;
        yield { sampleRate: OPENAI_PCM_RATE, samples: pcm16le(takeEven(pending)) };
      }
      if (wav) {
        const speech = decodeWav(pending.takeAll());
        if (!speech) {
          throw new EngineError('synthesis', 'The speech synthesis engine answered a WAV file that is not 16-bit PCM.');
        }
        if (speech.samples.length > 0) yield speech;
      } else if (pending.length >= 2) {
        yield { sampleRate: OPENAI_PCM_RATE, samples: pcm16le(takeEven(pending)) };
      }
      if (total === 0) throw new EngineError('synthesis', 'The speech synthesis engine answered no audio.');
    } catch (err) {
      throw engineFailure('synthesis', this.endpoint, err, {
        callerSignal: options.signal,
        timedOut: limit.timedOut(),
        timeoutMs: this.limits.timeoutMs,
      });
    } finally {
      limit.clear();
    }
  }

  /** One piece whole: its streamed chunks joined (decision 109's bounds and failures are the stream's). */
  private async speakPiece(input: string, options: SynthesisOptions): Promise<SynthesizedSpeech> {
    if (input === '') return { sampleRate: OPENAI_PCM_RATE, samples: new Int16Array(0) };
    const chunks: SpeechChunk[] = [];
    for await (const chunk of this.streamPiece(input, options)) chunks.push(chunk);
    const rate = chunks[0]?.sampleRate ?? OPENAI_PCM_RATE;
    const samples = new Int16Array(chunks.reduce((n, c) => n + c.samples.length, 0));
    if (samples.length === 0) throw new EngineError('synthesis', 'The speech synthesis engine answered no audio.');
    let at = 0;
    for (const chunk of chunks) {
      samples.set(chunk.samples, at);
      at += chunk.samples.length;
    }
    return { sampleRate: rate, samples };
  }
}

/** The queue's bytes up to an even count (whole samples); an odd last byte stays for the next chunk. */
function takeEven(queue: ByteQueue): Buffer {
  const bytes = Buffer.alloc(queue.length - (queue.length % 2));
  queue.take(bytes);
  return bytes;
}
