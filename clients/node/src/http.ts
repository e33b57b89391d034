import createClient, { type Client } from 'openapi-fetch';
import { randomUUID } from 'node:crypto';
import { VoiceAgentError } from './errors.js';
import type { paths } from './generated/api.js';
import { VERSION } from './version.js';

/** Per-request options, the last argument of every method. */
export interface RequestOptions {
  /** For POST: the key to send (default: a new UUID per call, kept across its retries). */
  idempotencyKey?: string;
  /** This request's timeout per attempt, in milliseconds. */
  timeoutMs?: number;
  /** This request's retries. */
  maxRetries?: number;
  /** Aborts the request (and its retries). */
  signal?: AbortSignal;
}

export interface TransportOptions {
  apiKey: string;
  baseUrl: string;
  maxRetries: number;
  timeoutMs: number;
  fetch: typeof fetch;
}

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** What openapi-fetch answers: the parsed body, or the parsed error body, and the response. */
interface FetchResult {
  data?: unknown;
  error?: unknown;
  response: Response;
}

/**
 * The typed API (openapi-fetch over the generated `paths`) with one fetch underneath that adds the
 * bearer, an `Idempotency-Key` on every POST, a timeout per attempt, and retries with backoff on
 * network errors, timeouts, a 409 for a request still in progress under the same key, 429 (honouring
 * `Retry-After`) and 5xx. A POST retried keeps its key, so the API does it once.
 */
export class Transport {
  readonly api: Client<paths>;

  constructor(private readonly options: TransportOptions) {
    this.api = createClient<paths>({
      baseUrl: options.baseUrl,
      headers: {
        authorization: `Bearer ${options.apiKey}`,
        'user-agent': `voice-agent-node/${VERSION}`,
      },
    });
  }

  /** The per-request options for openapi-fetch: our fetch with retries. */
  with(options: RequestOptions = {}): { fetch: (request: Request) => Promise<Response> } {
    return { fetch: (request) => this.send(request, options) };
  }

  /**
   * Resolves to the body of a 2xx answer, typed by the operation's success response in the
   * generated types; rejects with a {@link VoiceAgentError}.
   */
  async body<R extends FetchResult>(call: Promise<R>): Promise<Exclude<R['data'], undefined>> {
    const { data, error, response } = await call;
    if (!response.ok) throw VoiceAgentError.fromResponse(response, error);
    return data as Exclude<R['data'], undefined>;
  }

  /**
   * A request built by hand, for what openapi-fetch does not send as is (a multipart upload); the
   * caller names its answer's type from the generated types. Same retries, keys and errors.
   */
  async request<T>(
    method: Method,
    path: string,
    init: { query?: Record<string, string | number | boolean | undefined>; body?: unknown } = {},
    options: RequestOptions = {},
  ): Promise<T> {
    const url = new URL(this.options.baseUrl.replace(/\/+$/, '') + path);
    for (const [k, v] of Object.entries(init.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const headers = new Headers({
      authorization: `Bearer ${this.options.apiKey}`,
      'user-agent': `voice-agent-node/${VERSION}`,
    });
    let body: string | FormData | undefined;
    if (init.body instanceof FormData) body = init.body;
    else if (init.body !== undefined) {
      headers.set('content-type', 'application/json');
      body = JSON.stringify(init.body);
    }
    const response = await this.send(new Request(url, { method, headers, body }), options);
    const text = await response.text();
    let parsed: unknown = undefined;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      parsed = text;
    }
    if (!response.ok) throw VoiceAgentError.fromResponse(response, parsed);
    return parsed as T;
  }

  /** One request with its retries. */
  private async send(request: Request, options: RequestOptions): Promise<Response> {
    if (request.method === 'POST' && !request.headers.has('idempotency-key'))
      request.headers.set('idempotency-key', options.idempotencyKey ?? randomUUID());
    const maxRetries = Math.max(0, options.maxRetries ?? this.options.maxRetries);
    const timeoutMs = options.timeoutMs ?? this.options.timeoutMs;
    for (let attempt = 0; ; attempt++) {
      options.signal?.throwIfAborted();
      const timeout = AbortSignal.timeout(timeoutMs);
      const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
      let response: Response;
      try {
        response = await this.options.fetch(new Request(request.clone(), { signal }));
      } catch (err) {
        if (options.signal?.aborted) throw options.signal.reason;
        const timedOut = timeout.aborted;
        if (attempt < maxRetries) {
          await sleep(backoffMs(attempt), options.signal);
          continue;
        }
        throw new VoiceAgentError({
          status: 0,
          type: timedOut ? 'timeout' : 'connection_error',
          message: timedOut
            ? `${request.method} ${new URL(request.url).pathname} timed out after ${timeoutMs} ms (${attempt + 1} attempts).`
            : `${request.method} ${new URL(request.url).pathname} failed: ${describe(err)} (${attempt + 1} attempts).`,
          cause: err,
        });
      }
      if (attempt < maxRetries && (await retryable(response))) {
        await response.body?.cancel().catch(() => undefined);
        await sleep(retryAfterMs(response) ?? backoffMs(attempt), options.signal);
        continue;
      }
      return response;
    }
  }
}

/** 429, 5xx, and the 409 of a request still in progress under the same Idempotency-Key. */
async function retryable(response: Response): Promise<boolean> {
  if (response.status === 429 || response.status >= 500) return true;
  if (response.status !== 409) return false;
  try {
    const body = (await response.clone().json()) as { error?: { param?: string; message?: string } };
    return body.error?.param === 'Idempotency-Key' || /in progress/i.test(body.error?.message ?? '');
  } catch {
    return false;
  }
}

/** 0.5 s, 1 s, 2 s, … up to 8 s, each with up to 25% less at random. */
function backoffMs(attempt: number): number {
  return Math.min(8000, 500 * 2 ** attempt) * (1 - Math.random() * 0.25);
}

/** `Retry-After` in seconds or as an HTTP date, at most 60 s. */
function retryAfterMs(response: Response): number | null {
  const value = response.headers.get('retry-after');
  if (value === null) return null;
  const seconds = Number(value);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(value) - Date.now();
  return Number.isFinite(ms) ? Math.min(60_000, Math.max(0, ms)) : null;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      signal?.removeEventListener('abort', aborted);
      resolve();
    }
    function aborted(): void {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    }
    signal?.addEventListener('abort', aborted, { once: true });
  });
}

function describe(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.code) return cause.code;
  return err instanceof Error ? err.message : String(err);
}
