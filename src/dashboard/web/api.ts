/**
 * The dashboard's only way to the data: the platform's /v1 API, with the session cookie as the
 * credential and the page's CSRF token on every state change (docs/dashboard.md).
 */

const meta = (name: string): string => document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content ?? '';

export const session = {
  csrf: meta('csrf-token'),
  tenantId: meta('tenant-id'),
  /** What the server already knew when it served the page: `not_found`, `link_refused` or `sign_in`. */
  notice: meta('dashboard-notice'),
  /** On a sign-in link's page: the name of the account it signs in to. */
  account: meta('sign-in-account'),
};

export interface Page<T> {
  data: T[];
  has_more?: boolean;
}

/** An API refusal, with the error body of docs/api.md. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly param?: string,
  ) {
    super(message);
  }
}

export async function api<T>(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET') headers['x-csrf-token'] = session.csrf;
  const response = await fetch(path, {
    method,
    headers,
    credentials: 'same-origin',
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.status === 401) {
    // The session ended (signed out elsewhere, or expired): sign in again and come back here.
    window.location.assign(`/dashboard/login?next=${encodeURIComponent(window.location.pathname)}`);
  }
  const answer = (await response.json().catch(() => null)) as
    (T & { error?: { type: string; message: string; param?: string } }) | null;
  if (response.status === 403 && answer?.error?.message.includes('CSRF')) {
    // The session changed in another tab (signed in again): this page's token is stale; reload it.
    window.location.reload();
  }
  if (!response.ok) {
    const error = answer?.error;
    throw new ApiFailure(
      response.status,
      error?.type ?? 'api_error',
      error?.message ?? response.statusText,
      error?.param,
    );
  }
  return answer as T;
}

/** A query string from the fields that have a value. */
export function query(fields: Record<string, string | number | undefined | null>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(fields)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}
