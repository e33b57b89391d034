/**
 * The OpenAPI document describes every operation completely (decision 85): a summary, a
 * description, a stable operationId, a 2xx body with a schema, and its errors with the one error
 * schema; guarded operations their security, 401 and 503 (with Retry-After), POSTs their
 * Idempotency-Key; no OpenAPI 3.0 `nullable` left. A route added without `@ApiDoc` fails here.
 */
jest.mock('content-disposition', () =>
  process.getBuiltinModule('node:module').createRequire(__filename)('content-disposition'),
);
import { renderOpenApiJson } from '../../src/cli/generate-client';

type Json = Record<string, unknown>;
interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  security?: Json[];
  parameters?: { name: string; in: string; required?: boolean }[];
  responses: Record<string, { content?: Record<string, { schema?: Json }>; headers?: Json }>;
}

const ERROR_REF = '#/components/schemas/Error';

describe('the OpenAPI document', () => {
  let document: { openapi: string; paths: Record<string, Record<string, Operation>>; components: Json; tags: Json[] };
  let operations: [string, Operation][];
  beforeAll(async () => {
    document = JSON.parse(await renderOpenApiJson());
    operations = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]): [string, Operation] => [`${method.toUpperCase()} ${path}`, op]),
    );
  }, 60_000);

  it('is the same when built again in the same process (the decorators’ schemas are not changed)', async () => {
    expect(JSON.parse(await renderOpenApiJson())).toEqual(document);
  }, 60_000);

  it('is OpenAPI 3.1 and lists its operations', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(operations.length).toBeGreaterThanOrEqual(66);
  });

  it('gives every operation a unique camelCase operationId, a summary, a description and a known tag', () => {
    const tags = new Set(document.tags.map((t) => t.name));
    const problems = operations.flatMap(([name, op]) => [
      ...(op.operationId && /^[a-z][A-Za-z]+$/.test(op.operationId) ? [] : [`${name}: operationId`]),
      ...(op.summary ? [] : [`${name}: summary`]),
      ...(op.description ? [] : [`${name}: description`]),
      ...((op as { tags?: string[] }).tags ?? []).filter((t) => !tags.has(t)).map((t) => `${name}: tag ${t}`),
    ]);
    expect(problems).toEqual([]);
    const ids = operations.map(([, op]) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('declares a success body with a schema and an example for every operation', () => {
    const problems = operations.flatMap(([name, op]) => {
      const success = Object.entries(op.responses).filter(([status]) => /^[23]\d\d$/.test(status));
      if (success.length !== 1) return [`${name}: ${success.length} success responses`];
      const content = Object.values(success[0]![1].content ?? {});
      if (content.length === 0 || !content[0]?.schema) return [`${name}: no success schema`];
      const binary = name === 'GET /recordings/{file}';
      return binary || (content[0] as { example?: unknown }).example !== undefined ? [] : [`${name}: no example`];
    });
    expect(problems).toEqual([]);
  });

  it('declares every error with the one error schema, guarded operations their 401 and 503', () => {
    const problems = operations.flatMap(([name, op]) => {
      const errors = Object.entries(op.responses).filter(([status]) => /^[45]\d\d$/.test(status));
      const secured = (op.security ?? []).length > 0;
      return [
        ...errors
          .filter(([status]) => !(name === 'GET /ready' && status === '503'))
          .filter(([, r]) => r.content?.['application/json']?.schema?.$ref !== ERROR_REF)
          .map(([status]) => `${name}: ${status} without the error schema`),
        ...(secured && !op.responses['401'] ? [`${name}: no 401`] : []),
        ...(secured && !op.responses['503']?.headers?.['Retry-After'] ? [`${name}: no 503 with Retry-After`] : []),
        ...(op.responses['429'] && !op.responses['429'].headers?.['Retry-After']
          ? [`${name}: 429 without Retry-After`]
          : []),
        ...(secured && errors.length < 3 && !name.startsWith('GET') ? [`${name}: only ${errors.length} errors`] : []),
      ];
    });
    expect(problems).toEqual([]);
  });

  it('takes an Idempotency-Key on every guarded POST, and marks no optional query parameter required', () => {
    const problems = operations.flatMap(([name, op]) => [
      ...(name.startsWith('POST') &&
      (op.security ?? []).length > 0 &&
      !op.parameters?.some((p) => p.name === 'Idempotency-Key')
        ? [`${name}: no Idempotency-Key`]
        : []),
      ...(op.parameters ?? [])
        .filter((p) => p.in === 'query' && p.required && !['expires', 'signature'].includes(p.name))
        .map((p) => `${name}: query ${p.name} required`),
    ]);
    expect(problems).toEqual([]);
  });

  it('uses 3.1 null unions: no `nullable`, and no `object` type where a string is meant', () => {
    const text = JSON.stringify({ paths: document.paths, components: document.components });
    expect(text).not.toContain('"nullable"');
    const contact = (document.components.schemas as Record<string, { properties: Record<string, Json> }>).ContactDto;
    expect(contact?.properties.first_name?.type).toEqual(['string', 'null']);
    expect(contact?.properties.timezone?.type).toEqual(['string', 'null']);
  });
});
