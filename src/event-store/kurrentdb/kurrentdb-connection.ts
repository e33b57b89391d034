/**
 * EVENTSTORE_URL: the connection strings the client (`@kurrent/kurrentdb-client` 1.3.1,
 * `dist/Client/parseConnectionString.js`) accepts, checked without loading it, and normalised for it.
 * Pure: the configuration check uses it at start, before anything connects.
 */

/** The schemes the client accepts, and what each is sent as. */
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

export const CONNECTION_SCHEMES: readonly string[] = Object.keys(SCHEMES);

type OptionKind = 'boolean' | 'true' | 'integer' | 'text' | 'nodePreference';

/**
 * The client's query options, matched as it matches them (`mapToQueryOption` in its parser):
 * case-insensitive, `-` and `_` ignored. `throwOnAppendFailure` only as `true`, its default: the
 * adapter's conflicts must be errors (with `false` the client resolves a conflict as
 * `{ success: false }`; the adapter maps that too, but refuses the setting: decision 50).
 */
const OPTIONS: Readonly<Record<string, OptionKind>> = {
  tls: 'boolean',
  tlsverifycert: 'boolean',
  tlscafile: 'text',
  usercertfile: 'text',
  userkeyfile: 'text',
  throwonappendfailure: 'true',
  connectionname: 'text',
  nodepreference: 'nodePreference',
  maxdiscoverattempts: 'integer',
  defaultdeadline: 'integer',
  discoveryinterval: 'integer',
  gossiptimeout: 'integer',
  keepaliveinterval: 'integer',
  keepalivetimeout: 'integer',
};
const NODE_PREFERENCES = ['leader', 'follower', 'readonlyreplica', 'random'];
/**
 * The one option the client matches by its exact spelling (it is missing from its case map): any
 * other spelling (`dnsdiscover`, `dns-discover`) is ignored with a warning.
 */
const DNS_DISCOVER = 'dnsDiscover';

/** A host as the client reads it: none of these characters (so no IPv6 literal), an optional port. */
const HOST = /^([^$+!?*'(),;[\]{}|"%~#<>=&:/@\s]+)(?::(\d{1,5}))?$/;

function flat(key: string): string {
  return key.trim().toLowerCase().replace(/[_-]/g, '');
}

/**
 * Why `connectionString` is not one the client would accept (null when it is): a known scheme,
 * optional `user:password@`, one host or several gossip seeds (`a:2113,b:2113,c:2113`), and
 * optional `?key=value&…` options. Unknown option keys are refused here (the client would ignore
 * them with a warning: a misspelt `tls=false` would then be silently lost).
 */
export function connectionStringProblem(connectionString: string): string | null {
  const text = connectionString.trim();
  const expected = `expected ${CONNECTION_SCHEMES.map((s) => `${s}://`).join(', ')}`;
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(text);
  if (scheme === null) return `not a connection string (${expected})`;
  if (SCHEMES[scheme[1]?.toLowerCase() ?? ''] === undefined) return `unsupported scheme "${scheme[1]}:" (${expected})`;
  let rest = text.slice(scheme[0].length);
  const query = rest.indexOf('?');
  const options = query >= 0 ? rest.slice(query + 1) : null;
  if (query >= 0) rest = rest.slice(0, query);
  const at = rest.indexOf('@');
  if (at >= 0) {
    const credentials = rest.slice(0, at);
    if (!/^[^:]+:.+$/.test(credentials)) return 'credentials must be user:password@';
    rest = rest.slice(at + 1);
  }
  rest = rest.replace(/\/+$/, '');
  if (rest === '') return 'no host';
  for (const host of rest.split(',')) {
    const match = HOST.exec(host.trim());
    if (match === null) return `"${host}" is not a host or host:port`;
    const port = match[2] === undefined ? 2113 : Number(match[2]);
    if (port < 1 || port > 65535) return `port ${port} of "${host}" is out of range`;
  }
  if (options === null) return null;
  for (const pair of options.split('&')) {
    const eq = pair.indexOf('=');
    const key = eq > 0 ? pair.slice(0, eq) : pair;
    const value = eq > 0 ? pair.slice(eq + 1).trim() : '';
    if (flat(key) === flat(DNS_DISCOVER) && key !== DNS_DISCOVER) {
      return `option "${key}" must be written ${DNS_DISCOVER} (the client ignores any other spelling of it)`;
    }
    const kind = key === DNS_DISCOVER ? 'boolean' : OPTIONS[flat(key)];
    if (kind === undefined) return `unknown option "${key}"`;
    if (value === '') return `option ${key} needs a value`;
    // the client reads a value up to the next & or ?
    if (value.includes('?')) return `option ${key}: a value cannot hold "?" (write it %3F)`;
    if (kind === 'boolean' && value !== 'true' && value !== 'false') return `option ${key} must be true or false`;
    if (kind === 'true' && value !== 'true') {
      return `option ${key} can only be true: the platform needs a conflicting append to fail (docs/kurrentdb.md)`;
    }
    if (kind === 'integer' && !/^\d+$/.test(value)) return `option ${key} must be a whole number`;
    if (kind === 'nodePreference' && !NODE_PREFERENCES.includes(flat(value))) {
      return `option ${key} must be leader, follower, readonlyreplica or random`;
    }
  }
  return null;
}

/**
 * The connection string as handed to the client: esdb:// and esdb+discover:// become kurrentdb://
 * and kurrentdb+discover:// (the client parses esdb too but prints a deprecation warning on every
 * connect; the grammar is the same), the scheme in lower case (the client's match is
 * case-sensitive). Hosts, credentials and options are untouched. Throws on a string the client
 * would not accept.
 */
export function normalizeConnectionString(connectionString: string): string {
  const trimmed = connectionString.trim();
  const problem = connectionStringProblem(trimmed);
  if (problem !== null) throw new Error(`Invalid EventStoreDB connection string "${redact(trimmed)}": ${problem}`);
  const match = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(trimmed) as RegExpExecArray;
  return `${SCHEMES[(match[1] as string).toLowerCase()] as string}://${trimmed.slice(match[0].length)}`;
}

/** The connection string without its password, for messages and logs. */
export function redact(connectionString: string): string {
  return connectionString.replace(/\/\/([^@/]*)@/, (_, credentials: string) => {
    const colon = credentials.indexOf(':');
    return `//${colon >= 0 ? credentials.slice(0, colon) : credentials}:***@`;
  });
}
