/**
 * Routes any origin may call from a browser: those whose credential is in the address (a room
 * link's token), never a cookie or a key a page would hold. A route says so with
 * `@RouteConfig({ crossOrigin: true })`; http-app.ts then adds these headers to every answer it
 * gives, its refusals before the handler included (a malformed address, a body over its limit, a
 * request that took too long), so that a page on another origin reads the error, not a network
 * failure. A response a route writes itself (Server-Sent Events) sets them itself.
 */
export const CROSS_ORIGIN_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'Location, Retry-After, Request-Id',
};

/** Whether a route's config (`request.routeOptions.config`) marks it `crossOrigin`. */
export function isCrossOrigin(config: unknown): boolean {
  return (config as { crossOrigin?: boolean } | undefined)?.crossOrigin === true;
}
