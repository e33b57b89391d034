/**
 * The plain lines `npm start` prints once the service listens, before the JSON logs: what a first-time
 * user needs (the operator token, where the API, its docs and the dashboard are) and a warning for a
 * setting that must never reach production. Printed to stdout, once; a token that came from the
 * environment is never echoed.
 */
export interface BannerFacts {
  /** The generated operator token, or null when ADMIN_TOKEN came from the environment. */
  generatedAdminToken: string | null;
  /** Where this process answers, e.g. http://127.0.0.1:3000 (the bound port, even for PORT=0). */
  listeningUrl: string;
  /** BASE_URL: the public base of links the service hands out. */
  baseUrl: string;
  webhookAllowPrivateUrls: boolean;
  logLevel: string;
}

export function startupBanner(facts: BannerFacts): string[] {
  const at = facts.listeningUrl;
  const lines = facts.generatedAdminToken
    ? [
        `ADMIN_TOKEN=${facts.generatedAdminToken}`,
        '  operator token for /admin/v1, new on every start (set ADMIN_TOKEN to keep one)',
      ]
    : ['ADMIN_TOKEN is set from the environment (not printed)'];
  lines.push(`API        ${at}`, `API docs   ${at}/docs`, `Dashboard  ${at}/dashboard`);
  if (facts.baseUrl !== at) lines.push(`BASE_URL   ${facts.baseUrl} (the base of links the service hands out)`);
  if (facts.webhookAllowPrivateUrls) {
    lines.push(
      'WARNING: WEBHOOK_ALLOW_PRIVATE_URLS is on: webhook endpoints may use http:// and private or loopback',
      '  addresses, so a tenant can make this server send requests into its own network. Development only.',
    );
  }
  lines.push(`Logs follow as JSON lines (LOG_LEVEL=${facts.logLevel}).`);
  return lines;
}

/** `http://host:port` of a bound server address (IPv6 bracketed). */
export function listeningUrl(address: { address: string; port: number } | string | null, fallback: string): string {
  if (address === null || typeof address === 'string') return fallback;
  const host = address.address.includes(':') ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}
