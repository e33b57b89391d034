import {
  abortError,
  EngineError,
  type EngineEndpoint,
  type SpeechChunk,
  type SpeechSynthesizer,
  type SynthesisOptions,
  type SynthesisSession,
  type SynthesizedSpeech,
} from '../engines';
import { synthesisPieces } from '../synthesis-pieces';
import { ELEVENLABS_LIMITS, ElevenLabsSession, type ElevenLabsLimits } from './elevenlabs-session';

export { ELEVENLABS_LIMITS, type ElevenLabsLimits } from './elevenlabs-session';

/** The audio asked for: raw 16-bit little-endian mono PCM at 24 kHz (`output_format=pcm_24000`). */
export const ELEVENLABS_OUTPUT_FORMAT = 'pcm_24000';
export const ELEVENLABS_PCM_RATE = 24_000;

/**
 * How long the server keeps a session open without new text, in seconds (`inactivity_timeout`; the
 * API's default is 20, its maximum 180): an answer's model may pause longer than 20 s (a slow tool).
 */
export const ELEVENLABS_INACTIVITY_S = 60;

/**
 * ElevenLabs voices for ours (decision 108). The stock voices map to voices of ElevenLabs' "premade"
 * set, which every account has (ids as in ElevenLabs' voice library and API reference): Rachel
 * (`21m00Tcm4TlvDq8ikWAM`, the API reference's example voice), Sarah (`EXAVITQu4vr4xnSDxMaL`), Adam
 * (`pNInz6obpgDQGcFmaJgB`) and Charlotte (`XB0fDUnXU5powFXDhCwa`). A voice clone (`voi_…`, trained
 * here, unknown to ElevenLabs) and an unset voice speak with Rachel. Any other id is an ElevenLabs
 * voice id (one of the account's own voices) and is sent as is.
 */
export const ELEVENLABS_DEFAULT_VOICE = '21m00Tcm4TlvDq8ikWAM';
const STOCK_VOICES: Record<string, string> = {
  voice_default: ELEVENLABS_DEFAULT_VOICE,
  voice_ava: 'EXAVITQu4vr4xnSDxMaL',
  voice_leo: 'pNInz6obpgDQGcFmaJgB',
  voice_mia: 'XB0fDUnXU5powFXDhCwa',
};

export function elevenLabsVoice(voiceId: string | undefined): string {
  if (!voiceId) return ELEVENLABS_DEFAULT_VOICE;
  return STOCK_VOICES[voiceId] ?? (/^voi(ce)?_/.test(voiceId) ? ELEVENLABS_DEFAULT_VOICE : voiceId);
}

/**
 * Speech synthesis by ElevenLabs' streaming-input WebSocket (`/v1/text-to-speech/{voice}/stream-input`,
 * the single-context one): one connection per answer, opened at once so the
 * handshake overlaps the model's writing, the answer's text pushed clause by clause as the model writes
 * it (each `flush`ed: its audio is made at once), raw PCM at 24 kHz coming back with the alignment of
 * the characters it speaks (SpeechChunk.characters). `endpoint.url` is the API's base (`https://api.elevenlabs.io`,
 * or `http://` for a server on loopback: the WebSocket is `wss://`, or `ws://`), `endpoint.model` its
 * `model_id` (`eleven_flash_v2_5`), `endpoint.apiKey` is sent as `xi-api-key`.
 *
 * Failures (EngineError 'synthesis', thrown by the audio's iterator; never logged per chunk): a refused
 * key (401/403 at the upgrade, a close 1008 or an error message about the key) is a 401 (or the 403);
 * no first audio within `limits.firstAudioMs` of the first push; nothing for `limits.stallMs` once the
 * text has ended; an error message from the server (its text); a connection that fails or drops before
 * any audio came is made again once, with everything pushed so far; a drop after audio names its close
 * code and reason. Aborting `signal` closes the connection at once and ends the audio quietly.
 */
export class ElevenLabsSynthesizer implements SpeechSynthesizer {
  private readonly host: string;
  private readonly base: string;

  constructor(
    private readonly endpoint: EngineEndpoint,
    private readonly limits: ElevenLabsLimits = ELEVENLABS_LIMITS,
  ) {
    const url = new URL(endpoint.url);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      throw new Error(`The ElevenLabs URL must be http:// or https:// (got ${url.protocol}).`);
    }
    this.host = url.host;
    // The base up to, not including, /v1 (a trailing /v1 or slash is tolerated).
    const path = url.pathname.replace(/\/+$/, '').replace(/\/v1$/, '');
    this.base = `${url.protocol === 'https:' ? 'wss:' : 'ws:'}//${url.host}${path}`;
  }

  /** The stream-input URL for a voice (the key is a header, never in the URL). */
  streamUrl(voiceId: string | undefined): string {
    const query = new URLSearchParams({
      model_id: this.endpoint.model,
      output_format: ELEVENLABS_OUTPUT_FORMAT,
      inactivity_timeout: String(ELEVENLABS_INACTIVITY_S),
      sync_alignment: 'true',
    });
    return `${this.base}/v1/text-to-speech/${encodeURIComponent(elevenLabsVoice(voiceId))}/stream-input?${query.toString()}`;
  }

  open(options: SynthesisOptions): SynthesisSession {
    return new ElevenLabsSession(
      {
        url: this.streamUrl(options.voiceId),
        apiKey: this.endpoint.apiKey,
        host: this.host,
        sampleRate: ELEVENLABS_PCM_RATE,
        limits: this.limits,
      },
      options.signal,
    );
  }

  async *stream(text: string, options: SynthesisOptions): AsyncIterable<SpeechChunk> {
    const pieces = synthesisPieces(text);
    if (pieces.length === 0) return;
    const session = this.open(options);
    for (const piece of pieces) session.push(piece);
    session.end();
    yield* session.audio;
    // An aborted session ends quietly: the stream ends with the abort error, as the other engines' do.
    if (options.signal?.aborted) throw abortError();
  }

  /** A whole line: one session, its audio gathered into one speech. */
  async synthesize(text: string, options: SynthesisOptions): Promise<SynthesizedSpeech> {
    const chunks: Int16Array[] = [];
    let length = 0;
    for await (const chunk of this.stream(text, options)) {
      chunks.push(chunk.samples);
      length += chunk.samples.length;
    }
    // An aborted session ends quietly: synthesize() answers the abort error, as the other engines do.
    if (options.signal?.aborted) throw abortError();
    const samples = new Int16Array(length);
    let at = 0;
    for (const chunk of chunks) {
      samples.set(chunk, at);
      at += chunk.length;
    }
    if (length === 0 && synthesisPieces(text).length > 0) {
      throw new EngineError('synthesis', `The speech synthesis engine at ${this.host} answered no audio.`);
    }
    return { sampleRate: ELEVENLABS_PCM_RATE, samples };
  }
}
