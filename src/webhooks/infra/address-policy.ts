import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { Agent, type Dispatcher } from 'undici';

/**
 * SSRF defence for webhook URLs (CONTRACT "Webhook endpoints": https only, public addresses only,
 * checked at creation and again at every delivery, connection pinned to the checked address).
 * WEBHOOK_ALLOW_PRIVATE_URLS=true (`allowPrivate`) lifts the scheme and address rules for development.
 */

export const MAX_WEBHOOK_URL_LENGTH = 2048;

const NON_PUBLIC_MESSAGE = 'a private, loopback or otherwise non-public address';

/**
 * True only for globally routable unicast addresses. Anything special-purpose is refused, and
 * IPv6 forms that carry an IPv4 address (mapped, compatible, translated, NAT64, 6to4, Teredo) are
 * judged by the IPv4 address they lead to.
 */
export function isPublicAddress(ip: string): boolean {
  const text = stripBrackets(ip.trim());
  // Only canonical literals: legacy forms such as "127.1" or "0x7f.0.0.1" never come from DNS.
  if (isIP(text) === 0 || !ipaddr.isValid(text)) return false;
  const addr = ipaddr.parse(text);
  return addr instanceof ipaddr.IPv4 ? isPublicV4(addr) : isPublicV6(addr);
}

// ipaddr's `unicast` is what remains after every IANA special-purpose block: 0/8, 10/8, 100.64/10,
// 127/8, 169.254/16, 172.16/12, 192.0.0/24, 192.0.2/24, 192.88.99/24, 192.168/16, 198.18/15,
// 198.51.100/24, 203.0.113/24, 224/4, 240/4, 255.255.255.255 and the AS112/AMT anycast blocks.
function isPublicV4(addr: ipaddr.IPv4): boolean {
  return addr.range() === 'unicast';
}

function isPublicV6(addr: ipaddr.IPv6): boolean {
  const p = addr.parts;
  const part = (i: number): number => p[i] ?? 0;
  const v4 = (hi: number, lo: number): ipaddr.IPv4 => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
  const zeros = (from: number, to: number): boolean => p.slice(from, to).every((x) => x === 0);

  // ::/96 (IPv4-compatible, also :: and ::1) and ::ffff:0:0/96 (IPv4-mapped).
  if (zeros(0, 5) && (part(5) === 0 || part(5) === 0xffff)) return isPublicV4(v4(part(6), part(7)));
  // ::ffff:0:0:0/96 (IPv4-translated, RFC 6145).
  if (zeros(0, 4) && part(4) === 0xffff && part(5) === 0) return isPublicV4(v4(part(6), part(7)));
  // 64:ff9b::/96 well-known NAT64 prefix; 64:ff9b:1::/48 is for local use only.
  if (part(0) === 0x64 && part(1) === 0xff9b) {
    return zeros(2, 6) && isPublicV4(v4(part(6), part(7)));
  }
  // 2002::/16 6to4: the IPv4 address is in bits 16..47.
  if (part(0) === 0x2002) return isPublicV4(v4(part(1), part(2)));
  // 2001:0::/32 Teredo: server IPv4 in bits 32..63, client IPv4 inverted in the last 32 bits.
  if (part(0) === 0x2001 && part(1) === 0) {
    return isPublicV4(v4(part(2), part(3))) && isPublicV4(v4(part(6) ^ 0xffff, part(7) ^ 0xffff));
  }
  // Global unicast is 2000::/3; within it ipaddr names documentation, benchmarking, ORCHID and
  // other special blocks, and fc00::/7, fe80::/10, fec0::/10, ff00::/8 lie outside it.
  const inGlobalUnicast = (part(0) & 0xe000) === 0x2000;
  return inGlobalUnicast && addr.range() === 'unicast';
}

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

export type AddressResolution = { ok: true; address: string; family: 4 | 6 } | { ok: false; message: string };

/**
 * Resolves a URL host (as in `URL.hostname`, brackets allowed) to the one address deliveries will
 * connect to. Refused when ANY resolved address is non-public: a name that mixes public and
 * private records must not get a chance to reach the private one.
 */
export async function resolvePublicAddress(
  hostname: string,
  opts: { allowPrivate: boolean; lookup?: (hostname: string) => Promise<ResolvedAddress[]> },
): Promise<AddressResolution> {
  const host = stripBrackets(hostname);
  const literalFamily = isIP(host);
  if (literalFamily === 4 || literalFamily === 6) {
    if (!opts.allowPrivate && !isPublicAddress(host)) {
      return { ok: false, message: `url host ${host} is ${NON_PUBLIC_MESSAGE}.` };
    }
    return { ok: true, address: host, family: literalFamily };
  }

  const lookup = opts.lookup ?? ((name: string) => dnsLookup(name, { all: true }));
  let records: ResolvedAddress[];
  try {
    records = await lookup(host);
  } catch (err) {
    const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
    const suffix = typeof code === 'string' ? ` (${code})` : '';
    return { ok: false, message: `url host ${host} could not be resolved${suffix}.` };
  }
  const usable = records.filter((r) => isIP(r.address) !== 0);
  if (usable.length === 0) return { ok: false, message: `url host ${host} has no addresses.` };
  // The resolved addresses themselves are not echoed: they could map out internal DNS.
  if (!opts.allowPrivate && usable.some((r) => !isPublicAddress(r.address))) {
    return { ok: false, message: `url host ${host} resolves to ${NON_PUBLIC_MESSAGE}.` };
  }
  // IPv4 first: egress without IPv6 is common, and only one address is pinned.
  const chosen = usable.find((r) => isIP(r.address) === 4) ?? usable[0];
  if (chosen === undefined) return { ok: false, message: `url host ${host} has no addresses.` };
  return { ok: true, address: chosen.address, family: isIP(chosen.address) === 6 ? 6 : 4 };
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
