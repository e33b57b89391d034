/** The error body of every REST operation: `{"error": {type, message, param?, request_id}}`. */
export interface ApiErrorBody {
  error: { type: string; message: string; param?: string; request_id: string };
}

/**
 * A request that failed: the API's answer (`status` ≥ 400 with its error body), or no answer at all
 * (`status` 0: `type` is `connection_error` or `timeout`) once the retries ran out.
 */
export class VoiceAgentError extends Error {
  /** HTTP status; 0 when no response arrived. */
  readonly status: number;
  /** `invalid_request`, `authentication`, `not_found`, `conflict`, `rate_limited`, …; `connection_error` or `timeout` when no response arrived. */
  readonly type: string;
  /** The request field or parameter at fault, when the API names one. */
  readonly param: string | undefined;
  /** The API's request id (also in the `request-id` response header); null when no response arrived. */
  readonly request_id: string | null;
  /** The response headers, when a response arrived. */
  readonly headers: Headers | undefined;

  constructor(init: {
    status: number;
    type: string;
    message: string;
    param?: string | undefined;
    request_id?: string | null;
    headers?: Headers;
    cause?: unknown;
  }) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'VoiceAgentError';
    this.status = init.status;
    this.type = init.type;
    this.param = init.param;
    this.request_id = init.request_id ?? null;
    this.headers = init.headers;
  }

  /** From a response whose status is ≥ 400 and its parsed body (the API's error body, or anything else). */
  static fromResponse(response: Response, body: unknown): VoiceAgentError {
    const error = (body as Partial<ApiErrorBody> | null)?.error;
    const requestId = response.headers.get('request-id');
    if (error && typeof error === 'object' && typeof error.type === 'string') {
      return new VoiceAgentError({
        status: response.status,
        type: error.type,
        message: typeof error.message === 'string' ? error.message : `HTTP ${response.status}`,
        param: typeof error.param === 'string' ? error.param : undefined,
        request_id: typeof error.request_id === 'string' ? error.request_id : requestId,
        headers: response.headers,
      });
    }
    return new VoiceAgentError({
      status: response.status,
      type: response.status >= 500 ? 'api_error' : 'invalid_response',
      message: `HTTP ${response.status} ${response.statusText}`.trim(),
      request_id: requestId,
      headers: response.headers,
    });
  }
}

/** The constructor was called in a browser: the API key is a secret (see `dangerouslyAllowBrowser`). */
export class VoiceAgentBrowserError extends Error {
  constructor() {
    super(
      'VoiceAgent refuses to run in a browser: the API key is a secret and would be exposed to anyone using the page. ' +
        'Call the API from your server. (Pass dangerouslyAllowBrowser: true to override, e.g. for an internal tool.)',
    );
    this.name = 'VoiceAgentBrowserError';
  }
}
