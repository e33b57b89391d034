import { DomainError, DomainErrorCode } from '../result';

/** The error body of docs/api.md, "Errors": {"error": {type, message, param?, request_id}}. */
export type ApiErrorType =
  | 'invalid_request'
  | 'authentication'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'gone'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'unprocessable'
  /** 422: the voice named is not one the tenant can use yet (unknown, another tenant's, training or failed). */
  | 'voice_not_ready'
  /** 409: top-ups are refused, no payment processor is configured (production telephony without PAYMENT_PROCESSOR). */
  | 'payments_not_configured'
  /** 422: the tenant keeps as many voice clones as its quota allows (VOICE_CLONES_PER_TENANT). */
  | 'voice_quota_exceeded'
  /** 422: the upload would take the tenant's stored voice samples past its quota (VOICE_STORAGE_MB_PER_TENANT). */
  | 'storage_quota_exceeded'
  | 'idempotency_error'
  /** 422: a production call's caller ID is not an active phone number of the tenant (docs/calls-and-test-pool.md). */
  | 'from_number_not_owned'
  /** 422: a phone number's verification code does not match (docs/numbers.md). */
  | 'verification_failed'
  /** 409: no verification code is pending for the number (none asked, expired or tries used up): place a new call. */
  | 'verification_required'
  | 'rate_limited'
  /** 503: the instance carries all the conversations it can (MAX_CONVERSATIONS or its measured headroom): retry after Retry-After. */
  | 'at_capacity'
  | 'service_unavailable'
  | 'api_error';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: ApiErrorType,
    message: string,
    readonly param?: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }

  static invalid(message: string, param?: string): ApiError {
    return new ApiError(400, 'invalid_request', message, param);
  }
  static notFound(what: string, param?: string): ApiError {
    return new ApiError(404, 'not_found', `No such ${what}.`, param);
  }
  /** The request could not be served now (the database is unreachable); nothing was lost, retry. */
  static unavailable(retryAfterSeconds = 1): ApiError {
    return new ApiError(
      503,
      'service_unavailable',
      'The service cannot reach its database right now; retry shortly.',
      undefined,
      { 'retry-after': String(retryAfterSeconds) },
    );
  }
  static unauthenticated(message = 'Missing or invalid bearer credential.'): ApiError {
    return new ApiError(401, 'authentication', message, undefined, { 'www-authenticate': 'Bearer' });
  }
}

const DOMAIN_STATUS: Record<DomainErrorCode, [number, ApiErrorType]> = {
  invalid_request: [400, 'invalid_request'],
  authentication: [401, 'authentication'],
  forbidden: [403, 'forbidden'],
  not_found: [404, 'not_found'],
  conflict: [409, 'conflict'],
  unprocessable: [422, 'unprocessable'],
  gone: [410, 'gone'],
  rate_limited: [429, 'rate_limited'],
};

export interface ErrorResponse {
  status: number;
  headers: Record<string, string>;
  body: { error: { type: ApiErrorType; message: string; param?: string; request_id: string } };
}

interface FrameworkError {
  statusCode?: number;
  status?: number;
  code?: string;
  message?: string;
  getStatus?: () => number;
  getResponse?: () => unknown;
}

/** One mapping from anything thrown to the error body; unknown failures become a 500 without details. */
export function toErrorResponse(err: unknown, requestId: string): ErrorResponse {
  const make = (status: number, type: ApiErrorType, message: string, param?: string, headers = {}): ErrorResponse => ({
    status,
    headers,
    body: { error: { type, message, ...(param ? { param } : {}), request_id: requestId } },
  });
  if (err instanceof ApiError) return make(err.status, err.type, err.message, err.param, err.headers);
  if (err instanceof DomainError) {
    const [status, type] = DOMAIN_STATUS[err.code];
    return make(status, type, err.message, err.param);
  }
  const e = (typeof err === 'object' && err !== null ? err : {}) as FrameworkError;
  const status = typeof e.getStatus === 'function' ? e.getStatus() : (e.statusCode ?? e.status);
  if (typeof status === 'number' && status >= 400 && status < 500) {
    switch (e.code) {
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return make(413, 'payload_too_large', 'Request body is too large.');
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return make(415, 'unsupported_media_type', 'Unsupported Content-Type; send application/json.');
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        return make(400, 'invalid_request', 'Body cannot be empty when Content-Type is application/json.');
      case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
        return make(400, 'invalid_request', 'Invalid Content-Length.');
      default:
        break;
    }
    if (status === 404) return make(404, 'not_found', 'Unrecognized request URL.');
    if (status === 413) return make(413, 'payload_too_large', 'Request body is too large.');
    if (status === 415) return make(415, 'unsupported_media_type', 'Unsupported Content-Type.');
    if (status === 405) return make(405, 'invalid_request', 'Method not allowed.');
    if (status === 401) return make(401, 'authentication', 'Missing or invalid bearer credential.');
    if (status === 403) return make(403, 'forbidden', 'Forbidden.');
    if (status === 409) return make(409, 'conflict', 'Conflict.');
    if (status === 429) return make(429, 'rate_limited', 'Too many requests.');
    if (status === 422) return make(422, 'unprocessable', cleanMessage(e.message) ?? 'Request not allowed.');
    // Body parser failures (malformed JSON) arrive as 400 with Fastify's message.
    return make(400, 'invalid_request', cleanMessage(e.message) ?? 'Malformed request.');
  }
  return make(500, 'api_error', 'An internal error occurred. Retry later; the request id identifies it.');
}

function cleanMessage(message: string | undefined): string | undefined {
  if (!message) return undefined;
  // Never echo stack frames or internal paths.
  return message.split('\n')[0]?.slice(0, 300);
}
