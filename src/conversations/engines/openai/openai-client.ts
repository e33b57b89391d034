import OpenAI, { APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { abortError, EngineError, type EngineKind, type EngineEndpoint } from '../engines';
import { v1BaseUrl } from './v1-base-url';

/**
 * What the OpenAI-compatible adapters share: the client for one engine's endpoint, a deadline on a
 * whole request, and the translation of the library's errors into EngineError (or the abort error
 * when the caller gave up). Timeouts and retries: docs/speech-engines.md, "Timeouts and retries".
 */

export interface EngineLimits {
  /** Bound on one try, from sending to the last byte of the answer. */
  timeoutMs: number;
  /** Tries after the first on a connection error, 408, 409, 429 or 5xx (the library's rule, with its back-off). */
  maxRetries: number;
}

/** The engine's host, for messages and span attributes (never its path's secrets or the key). */
export function engineHost(endpoint: EngineEndpoint): string {
  return new URL(endpoint.url).host;
}

export function openAiClient(endpoint: EngineEndpoint, limits: EngineLimits): OpenAI {
  return new OpenAI({
    baseURL: v1BaseUrl(endpoint.url),
    // The library refuses to start without a key; a server without one (Ollama, vLLM) gets no header.
    apiKey: endpoint.apiKey ?? 'unset',
    ...(endpoint.apiKey === null ? { defaultHeaders: { authorization: null } } : {}),
    // Not read from OPENAI_ORG_ID / OPENAI_PROJECT_ID: the settings are the only source.
    organization: null,
    project: null,
    timeout: limits.timeoutMs,
    maxRetries: limits.maxRetries,
  });
}

/**
 * A signal that fires when the caller's does or when `ms` have passed; `timedOut()` tells which.
 * The library's own timeout stops at the answer's headers: this one also bounds reading its body.
 */
export function deadline(
  ms: number,
  signal?: AbortSignal,
): { signal: AbortSignal; timedOut: () => boolean; clear: () => void } {
  const controller = new AbortController();
  let expired = false;
  const timer = setTimeout(() => {
    expired = true;
    controller.abort();
  }, ms);
  timer.unref();
  return {
    signal: signal ? AbortSignal.any([signal, controller.signal]) : controller.signal,
    timedOut: () => expired && !signal?.aborted,
    clear: () => clearTimeout(timer),
  };
}

const ENGINE_NAMES: Record<EngineKind, string> = {
  recognition: 'speech recognition',
  synthesis: 'speech synthesis',
  model: 'chat model',
};

/**
 * The error to throw for what a call ended with: the abort error when the caller aborted, else an
 * EngineError whose message names the engine, its host and what happened (status and the server's
 * own message for an HTTP error).
 */
export function engineFailure(
  engine: EngineKind,
  endpoint: EngineEndpoint,
  err: unknown,
  context: { callerSignal?: AbortSignal; timedOut?: boolean; timeoutMs: number },
): Error {
  if (err instanceof EngineError) return err;
  const what = `The ${ENGINE_NAMES[engine]} engine at ${engineHost(endpoint)}`;
  if (context.timedOut || err instanceof APIConnectionTimeoutError) {
    return new EngineError(engine, `${what} did not answer in time (${context.timeoutMs} ms).`);
  }
  if (context.callerSignal?.aborted || err instanceof APIUserAbortError) return abortError();
  if (err instanceof APIError && typeof err.status === 'number') {
    const detail = serverMessage(err);
    return new EngineError(engine, `${what} answered ${err.status}${detail ? `: ${detail}` : '.'}`, err.status);
  }
  const reason = err instanceof Error ? (causeMessage(err) ?? err.message) : String(err);
  return new EngineError(engine, `${what} could not be reached: ${reason}`);
}

/** The server's `error.message` (OpenAI's error body), else the library's message without its status prefix. */
function serverMessage(err: { error?: unknown; message: string }): string {
  const body: unknown = err.error;
  if (body && typeof body === 'object' && 'message' in body && typeof body.message === 'string') {
    return body.message.slice(0, 300);
  }
  return err.message.replace(/^\d{3}\s*/, '').slice(0, 300);
}

function causeMessage(err: Error): string | null {
  const cause: unknown = err.cause;
  return cause instanceof Error ? `${err.message} (${cause.message})` : null;
}
