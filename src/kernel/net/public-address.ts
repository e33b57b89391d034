import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Which IP addresses are public: the one rule behind the platform's outbound defences (webhook and
 * tool URLs, src/webhooks/infra/address-policy.ts; a room participant's ICE candidates,
 * src/rooms/domain/ice-candidates.ts). Pure: an address in, a verdict out, no DNS.
 */

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

/**
 * True for a loopback address (127.0.0.0/8, ::1, and ::ffff:127.x.y.z) or the name `localhost`:
 * what a listener bound for local development looks like.
 */
export function isLoopbackHost(host: string): boolean {
  const text = stripBrackets(host.trim()).toLowerCase();
  if (text === 'localhost' || text.endsWith('.localhost')) return true;
  if (isIP(text) === 0 || !ipaddr.isValid(text)) return false;
  return ipaddr.process(text).range() === 'loopback';
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

function stripBrackets(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}
