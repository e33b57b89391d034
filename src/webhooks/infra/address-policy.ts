import { Logger } from '@nestjs/common';
import { Resolver } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import { Agent, type Dispatcher } from 'undici';
import { isPublicAddress } from '../../kernel/net/public-address';

/** The public-address rule, shared with the rooms' ICE candidate policy (src/kernel/net/public-address.ts). */
export { isPublicAddress };

/**
 * SSRF defence for webhook URLs (docs/webhooks.md, "Security": https only, public addresses only,
 * checked at creation and again at every delivery, connection pinned to the checked address).
 * WEBHOOK_ALLOW_PRIVATE_URLS=true (`allowPrivate`) lifts the scheme and address rules for development.
 */

export const MAX_WEBHOOK_URL_LENGTH = 2048;

const logger = new Logger('WebhookAddressPolicy');

const NON_PUBLIC_MESSAGE = 'a private, loopback or otherwise non-public address';

export type UrlValidation = { ok: true; url: URL } | { ok: false; message: string };

/** Syntax and literal-address checks, done without DNS; {@link resolvePublicAddress} finishes the job. */
export function validateWebhookUrl(url: string, opts: { allowPrivate: boolean }): UrlValidation {
  if (typeof url !== 'string' || url.trim() === '') return invalid('url is required.');
  if (url.length > MAX_WEBHOOK_URL_LENGTH) {
    return invalid(`url must be at most ${MAX_WEBHOOK_URL_LENGTH} characters.`);
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return invalid('url must be an absolute URL such as https://example.com/webhooks.');
  }
  if (opts.allowPrivate) {
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
      return invalid('url must use https:// or http://.');
  } else if (parsed.protocol !== 'https:') {
    return invalid('url must use https://.');
  }
  if (parsed.username !== '' || parsed.password !== '') {
    return invalid('url must not contain credentials (user:password@).');
  }
  if (parsed.hostname === '') return invalid('url must include a host.');
  if (opts.allowPrivate) return { ok: true, url: parsed };

  const host = stripBrackets(parsed.hostname);
  if (isIP(host) !== 0) {
    return isPublicAddress(host) ? { ok: true, url: parsed } : invalid(`url must not point to ${NON_PUBLIC_MESSAGE}.`);
  }
  const name = host.toLowerCase().replace(/\.$/, '');
  if (name === 'localhost' || name.endsWith('.localhost')) {
    return invalid(`url must not point to ${NON_PUBLIC_MESSAGE}.`);
  }
  return { ok: true, url: parsed };
}

export interface ResolvedAddress {
  address: string;
  family: number;
}

/**
 * What the tenant is told when a name does not lead to a public address, whatever the reason: a name
 * that does not resolve and one that resolves to a private address must look the same, or a tenant
 * could map the platform's internal DNS by creating endpoints. The precise reason goes to the log.
 */
export const NOT_PUBLIC_NAME_MESSAGE = 'url must resolve to a public address.';

/**
 * Appended by the endpoints API to a refusal that WEBHOOK_ALLOW_PRIVATE_URLS=true would lift (an
 * `http://` URL, a local, private or unresolvable host): a developer registering
 * `http://localhost:4242` learns how to get local deliveries. Deliveries' errors never carry it.
 */
export const PRIVATE_URL_HINT =
  'For local development, start the service with WEBHOOK_ALLOW_PRIVATE_URLS=true to allow http:// and private addresses, or run `vap listen --forward-to <url>` to forward events to a local URL with no endpoint.';

/** The refusal with {@link PRIVATE_URL_HINT} when allowing private URLs would accept `url`. */
export function withPrivateUrlHint(message: string, url: string): string {
  return validateWebhookUrl(url, { allowPrivate: true }).ok ? `${message} ${PRIVATE_URL_HINT}` : message;
}

/** `message` may be shown to the tenant; `reason` is for the server log only. */
export type AddressResolution =
  { ok: true; address: string; family: 4 | 6 } | { ok: false; message: string; reason: string };

/** Looks a name up: every A and AAAA record, or a rejection carrying a c-ares `code`. */
export type HostLookup = (hostname: string) => Promise<ResolvedAddress[]>;

/**
 * Resolves a URL host (as in `URL.hostname`, brackets allowed) to the one address deliveries will
 * connect to. Refused when ANY resolved address is non-public: a name that mixes public and
 * private records must not get a chance to reach the private one. IP literals and `localhost`
 * names are judged without DNS. Names go to `lookup`, by default the bounded, caching c-ares
 * resolver of {@link configureWebhookDns}. A refused name is logged with its reason (`log`, by
 * default the server log at warn level).
 */
export async function resolvePublicAddress(
  hostname: string,
  opts: { allowPrivate: boolean; lookup?: HostLookup; log?: (reason: string) => void },
): Promise<AddressResolution> {
  const host = stripBrackets(hostname);
  const literalFamily = isIP(host);
  if (literalFamily === 4 || literalFamily === 6) {
    if (!opts.allowPrivate && !isPublicAddress(host)) {
      // The tenant typed this address: saying why reveals nothing it did not know.
      const message = `url host ${host} is ${NON_PUBLIC_MESSAGE}.`;
      return { ok: false, message, reason: message };
    }
    return { ok: true, address: host, family: literalFamily };
  }
  const name = host.toLowerCase().replace(/\.$/, '');
  // RFC 6761: localhost names are loopback, and never asked of DNS.
  if (name === 'localhost' || name.endsWith('.localhost')) {
    if (!opts.allowPrivate) {
      const message = `url must not point to ${NON_PUBLIC_MESSAGE}.`;
      return { ok: false, message, reason: message };
    }
    return { ok: true, address: '127.0.0.1', family: 4 };
  }

  const refuse = (reason: string): AddressResolution => {
    (opts.log ?? ((text: string) => logger.warn(text)))(reason);
    return { ok: false, message: NOT_PUBLIC_NAME_MESSAGE, reason };
  };
  const lookup = opts.lookup ?? defaultLookup();
  let records: ResolvedAddress[];
  try {
    records = await lookup(host);
  } catch (err) {
    const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
    const suffix = typeof code === 'string' ? ` (${code})` : '';
    return refuse(`url host ${host} could not be resolved${suffix}.`);
  }
  const usable = records.filter((r) => isIP(r.address) !== 0);
  if (usable.length === 0) return refuse(`url host ${host} has no addresses.`);
  if (!opts.allowPrivate) {
    const bad = usable.find((r) => !isPublicAddress(r.address));
    if (bad) return refuse(`url host ${host} resolves to ${bad.address}, ${NON_PUBLIC_MESSAGE}.`);
  }
  // IPv4 first: egress without IPv6 is common, and only one address is pinned.
  const chosen = usable.find((r) => isIP(r.address) === 4) ?? usable[0];
  if (chosen === undefined) return refuse(`url host ${host} has no addresses.`);
  return { ok: true, address: chosen.address, family: isIP(chosen.address) === 6 ? 6 : 4 };
}

export const DEFAULT_DNS_TIMEOUT_MS = 2000;
/** A positive answer is reused for its TTL, but never longer than this. */
const MAX_CACHE_TTL_MS = 300_000;
const MAX_CACHED_NAMES = 1000;

export interface DnsLookupOptions {
  /** Bound on one lookup (A and AAAA together), in milliseconds. */
  timeoutMs: number;
  /** Nameservers (`ip` or `ip:port`); the system's (/etc/resolv.conf) when absent. For tests. */
  servers?: string[];
  /** Clock of the cache, in milliseconds. */
  now?: () => number;
}

/**
 * A bounded DNS lookup for webhook hosts, off the libuv threadpool: `getaddrinfo` (dns.lookup)
 * blocks one of libuv's four shared threads for as long as a nameserver takes, so one tenant's dead
 * nameserver would stall every lookup and every file read of the process. c-ares (`dns.Resolver`)
 * runs on its own sockets in the event loop; each query is given `timeoutMs` in all, after which it
 * fails with ETIMEOUT whatever c-ares is still doing. A and AAAA are asked at once; the answer is
 * what came back (a family that timed out or has no records adds nothing, which is safe because the
 * connection is pinned to a checked address). /etc/hosts and search domains are not consulted:
 * webhook hosts are public names. Positive answers are cached for their TTL (at most 5 minutes,
 * at most 1000 names), and concurrent lookups of one name share one query.
 */
export function createDnsLookup(opts: DnsLookupOptions): HostLookup {
  const timeoutMs = Math.max(1, Math.floor(opts.timeoutMs));
  const now = opts.now ?? Date.now;
  // Two tries, the second given twice the first's time by c-ares: together about the bound.
  const resolver = new Resolver({ timeout: Math.max(1, Math.floor(timeoutMs / 3)), tries: 2 });
  if (opts.servers) resolver.setServers(opts.servers);
  const cache = new Map<string, { records: ResolvedAddress[]; expiresAt: number }>();
  const inFlight = new Map<string, Promise<ResolvedAddress[]>>();

  const query = async (name: string): Promise<ResolvedAddress[]> => {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            Object.assign(new Error(`DNS lookup of ${name} timed out after ${timeoutMs} ms`), { code: 'ETIMEOUT' }),
          ),
        timeoutMs,
      );
    });
    const both = Promise.allSettled([resolver.resolve4(name, { ttl: true }), resolver.resolve6(name, { ttl: true })]);
    try {
      const [v4, v6] = await Promise.race([both, deadline]);
      const answered = [v4, v6].flatMap((r, i) =>
        r.status === 'fulfilled' ? r.value.map((rec) => ({ ...rec, family: i === 0 ? 4 : 6 })) : [],
      );
      if (answered.length === 0) {
        // The more telling error: a timeout or a server failure over "no such name" or "no records".
        const errors = [v4, v6].flatMap((r) => (r.status === 'rejected' ? [r.reason as NodeJS.ErrnoException] : []));
        throw errors.find((e) => e.code !== 'ENODATA' && e.code !== 'ENOTFOUND') ?? errors[0] ?? new Error('no answer');
      }
      const ttlMs = Math.min(MAX_CACHE_TTL_MS, ...answered.map((r) => r.ttl * 1000));
      const records = answered.map(({ address, family }) => ({ address, family }));
      if (ttlMs > 0) {
        if (cache.size >= MAX_CACHED_NAMES) cache.delete(cache.keys().next().value as string);
        cache.set(name, { records, expiresAt: now() + ttlMs });
      }
      return records;
    } finally {
      clearTimeout(timer);
    }
  };

  return async (hostname) => {
    const name = hostname.toLowerCase().replace(/\.$/, '');
    const cached = cache.get(name);
    if (cached && cached.expiresAt > now()) return cached.records;
    if (cached) cache.delete(name);
    const running = inFlight.get(name);
    if (running) return running;
    const started = query(name).finally(() => inFlight.delete(name));
    inFlight.set(name, started);
    return started;
  };
}

let sharedLookup: HostLookup | null = null;

/** Sets the bound of the shared lookup used when {@link resolvePublicAddress} is given none (at startup). */
export function configureWebhookDns(opts: { timeoutMs: number }): void {
  sharedLookup = createDnsLookup({ timeoutMs: opts.timeoutMs });
}

function defaultLookup(): HostLookup {
  sharedLookup ??= createDnsLookup({ timeoutMs: DEFAULT_DNS_TIMEOUT_MS });
  return sharedLookup;
}

/** A `net`/`tls` lookup that answers every query with the pre-checked address. */
export function pinnedLookup(address: string, family: 4 | 6): LookupFunction {
  if (isIP(address) !== family) throw new TypeError(`${address} is not an IPv${family} address`);
  return (_hostname, options, callback) => {
    process.nextTick(() => {
      if (options.all) callback(null, [{ address, family }]);
      else callback(null, address, family);
    });
  };
}

/**
 * An undici dispatcher whose every connection goes to `address`, whatever the request's hostname,
 * so DNS cannot change between the check and the connection (rebinding). The URL's hostname is
 * still used for the Host header, TLS SNI and certificate verification.
 * Use one per checked (hostname, address) pair; `close()` it when the address is re-resolved.
 */
export function createPinnedDispatcher(
  address: string,
  family: 4 | 6,
  opts: { timeoutMs: number; connections?: number },
): Dispatcher {
  return new Agent({
    connect: { lookup: pinnedLookup(address, family), timeout: opts.timeoutMs },
    headersTimeout: opts.timeoutMs,
    bodyTimeout: opts.timeoutMs,
    connections: opts.connections ?? 4,
    pipelining: 1,
    // Receivers commonly close idle sockets after 5 s; reusing for a little less avoids resets.
    keepAliveTimeout: 4_000,
    keepAliveMaxTimeout: 30_000,
  });
}

function stripBrackets(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

function invalid(message: string): UrlValidation {
  return { ok: false, message };
}
