import type OpenAI from 'openai';
import { toFile } from 'openai';
import { EngineError, type RecognitionStream, type SpeechRecognizer, type EngineEndpoint } from '../engines';
import { deadline, type EngineLimits, engineFailure, openAiClient } from './openai-client';
import { encodeWav } from './wav';

/** A transcription of a few seconds of speech: one try and one retry, each bounded. */
export const RECOGNITION_LIMITS: EngineLimits = { timeoutMs: 10_000, maxRetries: 1 };
/** Audio kept per utterance (2 minutes at 16 kHz, 3.8 MB of WAV, well under the APIs' 25 MB); the rest is not sent. */
const MAX_SAMPLES = 16_000 * 120;

/**
 * BCP 47 → ISO 639-1, as `/v1/audio/transcriptions` takes it: `en-US` → `en`, `pt-BR` → `pt`. A
 * language without a two-letter code (`yue`) is not sent: the engine detects it.
 */
export function transcriptionLanguage(bcp47: string): string | undefined {
  const primary = bcp47.split(/[-_]/)[0]?.toLowerCase() ?? '';
  return /^[a-z]{2}$/.test(primary) ? primary : undefined;
}

/**
 * Speech recognition by an OpenAI-compatible `/v1/audio/transcriptions` (OpenAI's whisper-1 or
 * gpt-4o-transcribe, Groq, a local faster-whisper server, …): the utterance's 16 kHz audio is kept
 * while the user speaks and sent as one WAV file when it ends, in the turn's language.
 */
export class OpenAiRecognizer implements SpeechRecognizer {
  private readonly client: OpenAI;

  constructor(
    private readonly endpoint: EngineEndpoint,
    private readonly limits: EngineLimits = RECOGNITION_LIMITS,
  ) {
    this.client = openAiClient(endpoint, limits);
  }

  start(language: string): RecognitionStream {
    const chunks: Int16Array[] = [];
    let length = 0;
    let done = false;
    const cancelled = new AbortController();
    return {
      write: (pcm) => {
        if (done || length >= MAX_SAMPLES || pcm.length === 0) return;
        // A copy: the caller may reuse its frame buffer.
        const kept = pcm.slice(0, MAX_SAMPLES - length);
        chunks.push(kept);
        length += kept.length;
      },
      finish: async () => {
        if (done) return '';
        done = true;
        if (length === 0) return '';
        const samples = new Int16Array(length);
        let at = 0;
        for (const chunk of chunks.splice(0)) {
          samples.set(chunk, at);
          at += chunk.length;
        }
        return this.transcribe(samples, language, cancelled.signal);
      },
      cancel: () => {
        done = true;
        chunks.length = 0;
        cancelled.abort();
      },
    };
  }

  private async transcribe(samples: Int16Array, language: string, signal: AbortSignal): Promise<string> {
    const limit = deadline(this.limits.timeoutMs * (this.limits.maxRetries + 1), signal);
    const lang = transcriptionLanguage(language);
    try {
      const answer = await this.client.audio.transcriptions.create(
        {
          file: await toFile(encodeWav(samples, 16_000), 'utterance.wav', { type: 'audio/wav' }),
          model: this.endpoint.model,
          response_format: 'json',
          ...(lang ? { language: lang } : {}),
        },
        { signal: limit.signal },
      );
      const text: unknown = (answer as { text?: unknown }).text;
      if (typeof text !== 'string') {
        throw new EngineError('recognition', 'The speech recognition engine answered without a `text`.');
      }
      return text.trim();
    } catch (err) {
      throw engineFailure('recognition', this.endpoint, err, {
        callerSignal: signal,
        timedOut: limit.timedOut(),
        timeoutMs: this.limits.timeoutMs,
      });
    } finally {
      limit.clear();
    }
  }
}
