/**
 * The last steps of the OpenAPI document (decision 85), applied to what @nestjs/swagger emits from
 * the controllers' decorators (`src/kernel/http/api-docs.ts`):
 *
 * - OpenAPI 3.1 nulls: `nullable: true` (3.0) becomes a type union with `null`;
 * - a schema with a `title` (a named response schema) moves to `components.schemas`, referenced;
 * - the one error schema, the security schemes, and the tags with their descriptions;
 * - `security: []` on the public operations (no scheme applies to them);
 * - the headers every operation shares: `Idempotency-Key` on guarded POSTs, `Retry-After` on 429
 *   and 503, and the 503 any operation answers while the database is unreachable;
 * - the 413 and 415 every operation that takes a body answers (a body over its limit, another
 *   media type; decision 179), whatever its decorators list.
 */
import {
  ERROR_SCHEMA_NAME,
  ERROR_STATUSES,
  OPERATOR_SECURITY,
  RETRY_AFTER_STATUSES,
  TENANT_SECURITY,
} from './kernel/http/api-docs';

type Json = Record<string, unknown>;
const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The tags, in the reference's order, with what each covers. */
export const TAGS: readonly { name: string; description: string }[] = [
  {
    name: 'calls and sessions',
    description: 'Outbound calls and the sessions they make: status, transcript, recording.',
  },
  { name: 'campaigns', description: 'Contact lists dialled by the pacer within quiet hours and caps.' },
  { name: 'rooms', description: 'Browser (WebRTC) conversations with an agent, by link.' },
  { name: 'phone numbers', description: 'Inbound numbers: verification, the agent that answers them, test calls.' },
  { name: 'voice clones', description: 'Voices trained from uploaded samples, usable once ready.' },
  { name: 'webhook endpoints', description: 'Signed event deliveries: endpoints, secrets, deliveries and redelivery.' },
  { name: 'agent tools', description: 'The secret that signs the agent’s tool calls, rotated and shown once.' },
  {
    name: 'events',
    description: 'The tenant’s event feed: the webhook envelopes, in commit order, with long polling.',
  },
  {
    name: 'analytics',
    description: 'Figures over the last days: calls per day, deliveries per endpoint (docs/analytics.md).',
  },
  { name: 'credits', description: 'The prepaid balance, its low-balance threshold and top-ups.' },
  { name: 'do-not-call', description: 'Numbers never dialled for the tenant.' },
  { name: 'recordings', description: 'Recording files behind signed, expiring links.' },
  {
    name: 'operator',
    description: 'The operator’s API (`ADMIN_TOKEN`): tenants, keys, credits, projections, dead letters.',
  },
  { name: 'health', description: 'Liveness and readiness probes.' },
];

export const ERROR_SCHEMA: Json = {
  type: 'object',
  description: 'Every error answer of the API has this body.',
  properties: {
    error: {
      type: 'object',
      properties: {
        type: {
          type: 'string',
          description: 'What kind of error, e.g. `invalid_request`, `not_found`, `rate_limited`.',
          examples: ['invalid_request'],
        },
        message: { type: 'string', description: 'A sentence for humans; never parse it.' },
        param: { type: 'string', description: 'The request field or parameter at fault, when one is.' },
        request_id: { type: 'string', description: 'The request’s id, as in the `X-Request-Id` header and the logs.' },
      },
      required: ['type', 'message', 'request_id'],
      additionalProperties: false,
    },
  },
  required: ['error'],
  additionalProperties: false,
  examples: [{ error: { type: 'not_found', message: 'No such session.', param: 'session_id', request_id: 'req-1' } }],
};

const SECURITY_SCHEMES: Json = {
  [TENANT_SECURITY]: {
    type: 'http',
    scheme: 'bearer',
    description:
      'A tenant’s API key (`sk_…`), issued by the operator: `Authorization: Bearer sk_…`. The dashboard’s session cookie is accepted instead, with `X-CSRF-Token` on writes.',
  },
  [OPERATOR_SECURITY]: {
    type: 'http',
    scheme: 'bearer',
    description: 'The operator’s `ADMIN_TOKEN`: `Authorization: Bearer <ADMIN_TOKEN>`, on /admin/v1 only.',
  },
};

const IDEMPOTENCY_KEY: Json = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Up to 255 characters. The same key and body within 24 hours returns the first answer without doing anything again; another body under the same key is a 422, a request still running under it a 409.',
  schema: { type: 'string', minLength: 1, maxLength: 255 },
};

const RETRY_AFTER: Json = {
  description: 'Seconds to wait before retrying.',
  schema: { type: 'string', pattern: '^[0-9]+$' },
};

/** 3.0's `nullable: true` as a 3.1 union with null, everywhere under `node`. */
export function toNullUnions(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) toNullUnions(item);
    return;
  }
  if (!isObject(node)) return;
  for (const value of Object.values(node)) toNullUnions(value);
  if (node.nullable !== true) {
    delete node.nullable;
    return;
  }
  delete node.nullable;
  if (typeof node.type === 'string') {
    node.type = [node.type, 'null'];
    if (Array.isArray(node.enum) && !node.enum.includes(null)) node.enum = [...(node.enum as unknown[]), null];
    return;
  }
  // A reference (`allOf: [{$ref}]` or `$ref`): one of it or null.
  const rest: Json = { ...node };
  for (const key of Object.keys(node)) delete node[key];
  const { description, ...schema } = rest;
  const inner = Array.isArray(schema.allOf) && schema.allOf.length === 1 ? (schema.allOf[0] as Json) : schema;
  Object.assign(node, { ...(description === undefined ? {} : { description }), oneOf: [inner, { type: 'null' }] });
}

/** Every schema with a `title` under `node` (examples aside), moved to `schemas` and replaced by a reference. */
export function hoistNamed(node: unknown, schemas: Json): void {
  const children: [Json | unknown[], string | number, unknown][] = Array.isArray(node)
    ? node.map((value, index) => [node, index, value])
    : isObject(node)
      ? Object.entries(node)
          .filter(([key]) => key !== 'example' && key !== 'examples')
          .map(([key, value]) => [node, key, value])
      : [];
  for (const [parent, key, value] of children) {
    hoistNamed(value, schemas);
    if (isObject(value) && typeof value.title === 'string')
      (parent as Record<string | number, unknown>)[key] = refTo(value, schemas);
  }
}

function refTo(schema: Json, schemas: Json): Json {
  const name = String(schema.title);
  const { title: _title, ...definition } = schema;
  const existing = schemas[name];
  if (existing !== undefined && JSON.stringify(existing) !== JSON.stringify(definition))
    throw new Error(`Two different schemas are named ${name} in the OpenAPI document.`);
  schemas[name] = definition;
  return { $ref: `#/components/schemas/${name}` };
}

/**
 * Applies every step to a copy of `document` and returns it. A copy: the schemas in it are the
 * decorators' own objects, which a second document (another application in the same process) reads again.
 */
export function finishOpenApiDocument(emitted: Json): Json {
  const document = structuredClone(emitted);
  const components = isObject(document.components) ? document.components : {};
  const schemas = isObject(components.schemas) ? components.schemas : {};
  schemas[ERROR_SCHEMA_NAME] = structuredClone(ERROR_SCHEMA);
  const paths = (document.paths ?? {}) as Record<string, Json>;
  for (const item of Object.values(paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (isObject(operation)) finishOperation(method, operation);
    }
  }
  hoistNamed(paths, schemas);
  toNullUnions(paths);
  toNullUnions(schemas);
  components.schemas = schemas;
  components.securitySchemes = SECURITY_SCHEMES;
  document.components = components;
  document.tags = TAGS.map((t) => ({ ...t }));
  return document;
}

/** A response with the one error body. */
const errorResponse = (description: string): Json => ({
  description,
  content: { 'application/json': { schema: { $ref: `#/components/schemas/${ERROR_SCHEMA_NAME}` } } },
});

function finishOperation(method: string, operation: Json): void {
  const responses = (operation.responses ?? {}) as Record<string, Json>;
  const secured = Array.isArray(operation.security) && operation.security.length > 0;
  // A public operation says so (health probes, signed recording links): no scheme applies.
  if (!secured) operation.security = [];
  if (secured)
    responses['503'] = errorResponse(
      'The service cannot reach its database right now; nothing was done, retry after `Retry-After`.',
    );
  // Refused by the HTTP layer before any handler: a body over its limit, a body of another media type.
  if (isObject(operation.requestBody)) {
    const content = operation.requestBody.content;
    const types = Object.keys(isObject(content) ? content : {}).map((type) => `\`${type}\``);
    responses['413'] ??= errorResponse(ERROR_STATUSES[413]);
    responses['415'] ??= errorResponse(`Unsupported Content-Type: send ${types.join(' or ')}.`);
  }
  for (const [status, response] of Object.entries(responses)) {
    if (RETRY_AFTER_STATUSES.includes(Number(status)))
      response.headers = { ...(response.headers ?? {}), 'Retry-After': RETRY_AFTER };
  }
  operation.responses = responses;
  if (method === 'post' && secured) {
    const parameters = (operation.parameters ?? []) as Json[];
    if (!parameters.some((p) => p.name === 'Idempotency-Key')) parameters.push({ ...IDEMPOTENCY_KEY });
    operation.parameters = parameters;
  }
}
