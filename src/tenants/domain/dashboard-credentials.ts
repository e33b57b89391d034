import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A one-time sign-in link lives this long (docs/dashboard.md, "Signing in"). */
export const SIGN_IN_LINK_TTL_MS = 15 * 60_000;
/** A dashboard session ends this long after sign-in, or at sign-out (docs/dashboard.md). */
export const DASHBOARD_SESSION_TTL_MS = 12 * 60 * 60_000;
/**
 * The session cookie's name: under https with the `__Host-` prefix, which browsers accept only from a
 * secure origin, with `Path=/` and no `Domain`, so a sibling subdomain cannot plant or shadow it.
 */
export function sessionCookieName(secure: boolean): string {
  return secure ? '__Host-vap_dashboard' : 'vap_dashboard';
}

/** A sign-in link's token (`dl_…`) or a session's token (`ds_…`): 256 random bits. */
export function newCredential(kind: 'dl' | 'ds'): string {
  return `${kind}_${randomBytes(32).toString('base64url')}`;
}

export function isCredential(kind: 'dl' | 'ds', value: unknown): value is string {
  return typeof value === 'string' && new RegExp(`^${kind}_[A-Za-z0-9_-]{43}$`).test(value);
}

/** Only hashes are stored: a database dump signs nobody in. 256 random bits need no slow hash. */
export function hashCredential(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * The session's CSRF token, derived from the session token. The page reads it from its HTML and
 * sends it as `X-CSRF-Token` on every state change; another site can neither read the page nor the
 * HttpOnly cookie, so it cannot forge the header.
 */
export function csrfTokenOf(sessionToken: string): string {
  return createHash('sha256').update(`csrf\u0000${sessionToken}`).digest('base64url');
}

export function csrfMatches(sessionToken: string, sent: unknown): boolean {
  if (typeof sent !== 'string') return false;
  const expected = Buffer.from(csrfTokenOf(sessionToken));
  const given = Buffer.from(sent);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Where a sign-in may send the browser afterwards: a dashboard path of this origin, nothing else. */
export function safeDashboardPath(next: unknown): string | null {
  if (typeof next !== 'string' || next.length > 300) return null;
  if (!/^\/dashboard(\/[A-Za-z0-9_\-/.]*)?(\?[A-Za-z0-9_\-=&%.+]*)?$/.test(next)) return null;
  if (next.includes('//') || next.includes('/..')) return null;
  return next;
}
