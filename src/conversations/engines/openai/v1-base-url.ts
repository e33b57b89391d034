/**
 * Where an engine's OpenAI-compatible API lives, from its setting (decision 106): the base URL with
 * `/v1` appended unless its path already ends with it; a query string (`?api-version=`) is kept.
 * `https://api.example.com` and `https://api.example.com/v1` both give `https://api.example.com/v1`.
 */
export function v1BaseUrl(url: string): string {
  const parsed = new URL(url);
  const path = parsed.pathname.replace(/\/+$/, '');
  parsed.pathname = /\/v1$/.test(path) ? path : `${path}/v1`;
  return parsed.toString().replace(/\/+$/, '');
}
