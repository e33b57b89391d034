/**
 * The conversation's engines, behind ports: speech recognition (STT), speech synthesis (TTS) and the
 * dialogue model (LLM). Each has an embedded default that works offline (pocketsphinx, flite, the
 * built-in dialogue) and an OpenAI-compatible HTTP adapter chosen by STT_URL, TTS_URL and LLM_URL
 * (docs/speech-engines.md).
 */

/** An OpenAI-compatible engine: its base URL (up to, not including, `/v1/...`), key and model. */
export interface EngineEndpoint {
  url: string;
  apiKey: string | null;
  model: string;
}

/** The default `max_tokens` of a dialogue request: about 2,000 characters, a minute and a half of speech. */
export const DEFAULT_LLM_MAX_TOKENS = 512;

/** One utterance being recognised: audio is streamed in while the user speaks, the words come at the end. */
export interface RecognitionStream {
  /** 16 kHz mono samples, in order, as they are heard. */
  write(pcm16k: Int16Array): void;
  /** Ends the utterance: its words ('' when nothing was recognised). */
  finish(): Promise<string>;
  /** Drops the utterance (barge-in noise, the conversation ended): nothing is answered. */
  cancel(): void;
}

/**
 * What a streaming recogniser tells while the user speaks (docs/speech-engines.md, "Streaming"). An
 * engine that answers only at the end calls neither.
 */
export interface RecognitionListener {
  /** The words heard so far in this utterance (interim: later ones may differ). */
  partial?(words: string): void;
  /**
   * The engine decided the utterance is over (its endpointing: a final result or an utterance end):
   * the conversation ends the turn now, without waiting for its own silence; finish() then answers
   * the words without a further round trip.
   */
  endpoint?(): void;
}

export interface RecognitionOptions {
  /** The silence that ends a turn when the agent sets one (`agent_config.endpointing_ms`); else the engine's own. */
  endpointingMs?: number;
  listener?: RecognitionListener;
}

export interface SpeechRecognizer {
  /** Starts an utterance in `language` (BCP 47; the embedded engine knows en-US only). */
  start(language: string, options?: RecognitionOptions): RecognitionStream;
  /**
   * `provider`: the engine streams and ends utterances itself (RecognitionListener.endpoint), the
   * conversation's own silence only bounds it. Absent: the conversation's endpointer ends them.
   */
  readonly endpointing?: 'provider';
  /** Utterances ended and still waiting for their words (an engine that can tell; the capacity reads it). */
  backlog?(): RecognizerBacklog;
}

export interface RecognizerBacklog {
  /** Utterances ended whose words have not come yet. */
  waiting: number;
  /** How long the oldest of them has waited, in ms (0 when none). */
  oldestMs: number;
}

/** Speech for one piece of text. */
export interface SynthesizedSpeech {
  sampleRate: number;
  samples: Int16Array;
}

export interface SynthesisOptions {
  voiceId?: string;
  /** Aborting stops the synthesis (barge-in): the engine's request or stream is closed. */
  signal?: AbortSignal;
}

/** A piece of streamed speech. */
export interface SpeechChunk extends SynthesizedSpeech {
  /**
   * A streaming-input engine that tells (ElevenLabs' alignment): how many characters of the text
   * pushed so far this chunk's audio speaks. The conversation uses it to tell which words were heard.
   */
  characters?: number;
}

/**
 * One answer's speech with its text sent as the dialogue writes it (a streaming-input engine): the
 * audio of what was pushed comes out as it is made, in order.
 */
export interface SynthesisSession {
  /** One more piece of the answer's text (a clause or a sentence), in order. */
  push(text: string): void;
  /** No more text: the engine speaks what it holds, then `audio` ends. */
  end(): void;
  /** The audio, in order; it throws an EngineError when the engine fails, and ends quietly when aborted. */
  readonly audio: AsyncIterable<SpeechChunk>;
}

export interface SpeechSynthesizer {
  /** Speaks `text` (one sentence or clause: callers split long answers so the first audio comes early). */
  synthesize(text: string, options: SynthesisOptions): Promise<SynthesizedSpeech>;
  /**
   * An engine that streams its answer: the audio of `text` in chunks as they come, so the first one
   * plays while the rest is made. The conversation prefers it to synthesize().
   */
  stream?(text: string, options: SynthesisOptions): AsyncIterable<SpeechChunk>;
  /**
   * An engine with streaming input: one session per answer, its text pushed as the dialogue writes
   * it. The conversation prefers it to stream() and synthesize().
   */
  open?(options: SynthesisOptions): SynthesisSession;
}

/** A message of the dialogue as chat models take it. */
export type ChatMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: ChatToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

export interface ChatToolCall {
  id: string;
  name: string;
  /** JSON text, as the model wrote it. */
  arguments: string;
}

export interface ChatTool {
  name: string;
  description?: string;
  /** JSON Schema of the arguments. */
  parameters?: Record<string, unknown>;
}

/** What a streamed completion yields: text as it comes, then the tool calls it asks for (if any). */
export type ChatDelta = { type: 'text'; text: string } | { type: 'tool_calls'; calls: ChatToolCall[] };

export interface ChatModel {
  /** Streams one completion; aborting `signal` stops it (barge-in). */
  complete(request: { messages: ChatMessage[]; tools: ChatTool[]; signal?: AbortSignal }): AsyncIterable<ChatDelta>;
}

/** Nest tokens of the ports (conversations.module.ts binds the adapter the configuration picks). */
export const SPEECH_RECOGNIZER = Symbol('SPEECH_RECOGNIZER');
export const SPEECH_SYNTHESIZER = Symbol('SPEECH_SYNTHESIZER');
/** null when LLM_URL is unset: the built-in dialogue answers. */
export const CHAT_MODEL = Symbol('CHAT_MODEL');
/**
 * The embedded synthesiser, bound whatever TTS_URL says: it speaks the apology of a turn whose hosted
 * synthesis failed (docs/speech-engines.md, "When a hosted engine fails"). The same instance serves
 * SPEECH_SYNTHESIZER when TTS_URL is unset; its helpers start on first use only.
 */
export const EMBEDDED_SPEECH_SYNTHESIZER = Symbol('EMBEDDED_SPEECH_SYNTHESIZER');

/** Which engine failed. */
export type EngineKind = 'recognition' | 'synthesis' | 'model';

/**
 * A hosted engine failed: unreachable, timed out, answered a non-2xx status (after its retries) or
 * an answer that is not what the API promises. The message names the engine and what happened, never
 * the API key. The pipeline answers the turn with an apology (docs/speech-engines.md).
 */
export class EngineError extends Error {
  constructor(
    readonly engine: EngineKind,
    message: string,
    /** The HTTP status the engine answered; null when there was no answer (network, timeout). */
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = 'EngineError';
  }
}

/** The error an engine call ends with when the caller's AbortSignal fired (barge-in): not a failure. */
export function abortError(): Error {
  const err = new Error('aborted');
  err.name = 'AbortError';
  return err;
}

export function isAbortError(err: unknown): boolean {
  return err instanceof Error && (err.name === 'AbortError' || err.message === 'aborted');
}

/**
 * Decision 107: what the agent says when a hosted engine fails in a turn (recognition, the model, or
 * synthesis: then spoken by EMBEDDED_SPEECH_SYNTHESIZER), and what it says before it ends the
 * conversation (`goodbye`) when MAX_FAILED_TURNS turns in a row ended that way.
 */
export const ENGINE_APOLOGY = "Sorry, I'm having a technical problem. Could you say that again?";
export const ENGINE_FAILURE_CLOSING = "Sorry, I can't continue this conversation right now. Goodbye.";
export const MAX_FAILED_TURNS = 3;
