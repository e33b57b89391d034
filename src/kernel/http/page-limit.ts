import { ApiError } from './api-error';

/** The `limit` query parameter of a list (docs/api.md: 1 to 100), or `fallback` when absent; a 400 otherwise. */
export function pageLimit(text: string | undefined, fallback = 20): number {
  const limit = text === undefined ? fallback : Number(text);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100)
    throw ApiError.invalid('limit must be an integer from 1 to 100.', 'limit');
  return limit;
}
