import { applyDecorators } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';

/**
 * How an operation is described in the OpenAPI document (decision 85). Each handler carries one
 * `@ApiDoc({...})`: its summary, description, success status and body schema, an example of that
 * body, and the error statuses it can answer; the controller carries `@TenantApi(tag)` or
 * `@OperatorApi(tag)` for its security and the 401 every guarded route can answer. Errors all share
 * the one error body (`ERROR_SCHEMA_NAME`); `src/openapi-document.ts` adds the schemas, headers and
 * security schemes these refer to.
 */

/** A JSON Schema (draft 2020-12, the OpenAPI 3.1 dialect), e.g. a catalog `Field`'s `schema`. */
export type JsonSchema = object;

/** The error statuses an operation may declare, with what each means on this API. */
export const ERROR_STATUSES = {
  400: 'Invalid request: a field is missing, malformed or out of range (`param` names it).',
  401: 'Missing or invalid bearer credential.',
  403: 'Forbidden: the tenant is suspended, or a dashboard request lacks its CSRF token.',
  404: 'No such resource for this tenant (another tenant’s id is a 404 too), or a cursor that names none.',
  409: 'Conflict with the resource’s state, or a request still running under the same Idempotency-Key.',
  410: 'Gone: the resource existed and has expired or been purged.',
  413: 'The request body is too large.',
  415: 'Unsupported Content-Type.',
  422: 'Well-formed but not allowed now (a quota, a voice not ready, a caller ID that is not the tenant’s, another body under the same Idempotency-Key).',
  429: 'Too many requests: a per-tenant cap is reached; retry after `Retry-After` seconds.',
  503: 'Not now: the platform carries all the conversations it can (`at_capacity`), or cannot reach its database (`service_unavailable`); retry after `Retry-After` seconds.',
} as const;
export type ErrorStatus = keyof typeof ERROR_STATUSES;

export const ERROR_SCHEMA_NAME = 'Error';
/** Marks the responses whose `Retry-After` header the document declares. */
export const RETRY_AFTER_STATUSES: readonly number[] = [429, 503];

export const TENANT_SECURITY = 'tenant_key';
export const OPERATOR_SECURITY = 'operator_token';

export interface OperationDoc {
  /** Stable, readable operationId (camelCase, unique across the document). */
  id: string;
  summary: string;
  description: string;
  /** The success status; 200 unless given. */
  status?: 200 | 201 | 202 | 302;
  /** The success body's schema (a named one is hoisted into `components.schemas`). */
  body: JsonSchema;
  /** What the body is, one line. */
  returns: string;
  /** An example of the success body. */
  example?: unknown;
  /** The error statuses this operation can answer (401 comes from the controller's security). */
  errors: readonly ErrorStatus[];
  /** A 201 answer carries `Location`, the new resource's URL; a 302 the link it redirects to. */
  location?: boolean;
  /** The success body's media type; `application/json` unless given. */
  contentType?: string;
}

/** The error response of `status`, with the shared error body. */
export function errorResponse(status: ErrorStatus): MethodDecorator & ClassDecorator {
  return ApiResponse({
    status,
    description: ERROR_STATUSES[status],
    content: { 'application/json': { schema: { $ref: `#/components/schemas/${ERROR_SCHEMA_NAME}` } } },
  });
}

/** One handler's documentation: operation, success response, error responses. */
export function ApiDoc(doc: OperationDoc): MethodDecorator {
  const status = doc.status ?? 200;
  const success = ApiResponse({
    status,
    description: doc.returns,
    ...(doc.location
      ? { headers: { Location: { description: 'The URL of the new resource.', schema: { type: 'string' } } } }
      : {}),
    content: {
      [doc.contentType ?? 'application/json']: {
        schema: doc.body,
        ...(doc.example === undefined ? {} : { example: doc.example }),
      },
    },
  });
  return applyDecorators(
    ApiOperation({ operationId: doc.id, summary: doc.summary, description: doc.description }),
    success,
    ...doc.errors.map((s) => errorResponse(s)),
  );
}

/** A tenant's API: `Authorization: Bearer <API key>` (or the dashboard's session cookie). */
export function TenantApi(tag: string): ClassDecorator {
  return applyDecorators(ApiTags(tag), ApiSecurity(TENANT_SECURITY), errorResponse(401));
}

/** The operator's API: `Authorization: Bearer $ADMIN_TOKEN`. */
export function OperatorApi(tag: string): ClassDecorator {
  return applyDecorators(ApiTags(tag), ApiSecurity(OPERATOR_SECURITY), errorResponse(401));
}

/** A schema with a name: it becomes `components.schemas[title]`, referenced where used. */
export function named(title: string, schema: JsonSchema): JsonSchema {
  return { title, ...schema };
}

/** A page of a list, `{data, has_more}`. */
export function pageOf(title: string, item: JsonSchema): JsonSchema {
  return named(title, {
    type: 'object',
    properties: {
      data: { type: 'array', items: item },
      has_more: { type: 'boolean', description: 'More items follow: ask again with `starting_after` = the last id.' },
    },
    required: ['data', 'has_more'],
    additionalProperties: false,
  });
}

/** A whole list, `{data}` (no paging). */
export function listOf(title: string, item: JsonSchema): JsonSchema {
  return named(title, {
    type: 'object',
    properties: { data: { type: 'array', items: item } },
    required: ['data'],
    additionalProperties: false,
  });
}

/** A plain object schema: every property listed is required, none other is allowed. */
export function shape(title: string, properties: Record<string, JsonSchema>, description?: string): JsonSchema {
  return named(title, {
    type: 'object',
    ...(description === undefined ? {} : { description }),
    properties,
    required: Object.keys(properties),
    additionalProperties: false,
  });
}

/** The answer of a DELETE that removes a resource by id. */
export const DELETED = shape('Deleted', {
  id: { type: 'string' },
  deleted: { type: 'boolean', const: true },
});
