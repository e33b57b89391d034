/** EVENTSTORE_URL: the connection-string schemes the client accepts, normalised for it. */

const SCHEMES: Readonly<Record<string, string>> = {
  esdb: 'kurrentdb',
  'esdb+discover': 'kurrentdb+discover',
  kurrentdb: 'kurrentdb',
  'kurrentdb+discover': 'kurrentdb+discover',
  kurrent: 'kurrent',
  'kurrent+discover': 'kurrent+discover',
  kdb: 'kdb',
  'kdb+discover': 'kdb+discover',
};

/**
 * Accepts esdb://, kurrentdb://, kurrent://, kdb:// and their +discover forms. The client parses
 * esdb:// too but prints a deprecation warning on every connect, so it is rewritten to kurrentdb://
 * (same grammar: hosts, credentials and query options are untouched).
 */
export function normalizeConnectionString(connectionString: string): string {
  const trimmed = connectionString.trim();
  const match = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(trimmed);
  const scheme = match?.[1]?.toLowerCase();
  const target = scheme === undefined ? undefined : SCHEMES[scheme];
  if (match === null || target === undefined) {
    throw new Error(
      `Unsupported EventStoreDB connection string "${redact(trimmed)}": expected ${Object.keys(SCHEMES)
        .map((s) => `${s}://`)
        .join(', ')}`,
    );
  }
  return `${target}://${trimmed.slice(match[0].length)}`;
}

export function redact(connectionString: string): string {
  return connectionString.replace(/\/\/[^@/]*@/, '//***@');
}
