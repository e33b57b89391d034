import { ApiError } from './api-error';

const MAX_DEPTH = 32;
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
// A UTF-16 surrogate without its pair cannot be stored as text (PostgreSQL json rejects it).
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Parses a JSON request body and refuses, with a 400 naming the problem, what would otherwise
 * surface later as a 5xx or a security hole: NUL characters and lone surrogates (PostgreSQL cannot
 * store them), prototype keys, and nesting deeper than 32 levels. An empty body is no body.
 */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ApiError(400, 'invalid_request', 'Request body is not valid JSON.');
  }
  checkValue(value);
  return value;
}

function checkValue(root: unknown): void {
  const stack: { value: unknown; depth: number; path: string }[] = [{ value: root, depth: 0, path: '' }];
  while (stack.length > 0) {
    const { value, depth, path } = stack.pop() as { value: unknown; depth: number; path: string };
    if (typeof value === 'string') {
      checkText(value, path);
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    if (depth >= MAX_DEPTH)
      throw ApiError.invalid(`Request body is nested more than ${MAX_DEPTH} levels deep.`, path || undefined);
    if (Array.isArray(value)) {
      value.forEach((item, i) => stack.push({ value: item, depth: depth + 1, path: `${path}[${i}]` }));
      continue;
    }
    for (const [key, item] of Object.entries(value)) {
      const keyPath = path ? `${path}.${key}` : key;
      if (FORBIDDEN_KEYS.has(key)) throw ApiError.invalid(`Unknown field ${keyPath}.`, keyPath);
      checkText(key, keyPath);
      stack.push({ value: item, depth: depth + 1, path: keyPath });
    }
  }
  // JSON.parse turns "__proto__" into an own property; Object.entries sees it, so the loop above catches it.
}

function checkText(text: string, path: string): void {
  if (text.includes('\u0000')) throw ApiError.invalid('Text must not contain NUL characters.', path || undefined);
  if (LONE_SURROGATE.test(text))
    throw ApiError.invalid('Text must be valid Unicode (a lone surrogate was found).', path || undefined);
}

/**
 * Query parameters get the same checks as body text, and no control characters either: a value is
 * an id, a filter or a cursor. Returns the error for the first bad parameter, or null.
 */
export function checkQuery(query: unknown): ApiError | null {
  if (typeof query !== 'object' || query === null) return null;
  for (const [name, raw] of Object.entries(query as Record<string, unknown>)) {
    for (const value of Array.isArray(raw) ? raw : [raw]) {
      if (typeof value !== 'string') continue;
      if (hasControlCharacters(name) || LONE_SURROGATE.test(name))
        return ApiError.invalid('Malformed query parameter name.');
      if (hasControlCharacters(value))
        return ApiError.invalid(`${name} must not contain NUL or control characters.`, name);
      if (LONE_SURROGATE.test(value))
        return ApiError.invalid(`${name} must be valid Unicode (a lone surrogate was found).`, name);
    }
  }
  return null;
}

/** Path segments carry ids; a NUL or a control character in one can only be a bad request. */
export function hasControlCharacters(path: string): boolean {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  return /[\u0000-\u001f\u007f]/.test(path);
}
