/**
 * Who may talk SIP and RTP to the platform (docs/telephony.md, "Who may talk"): a list of IP addresses
 * and CIDR ranges (`SIP_ALLOWED_SOURCES`, `RTP_ALLOWED_SOURCES`), or, by default, the addresses the
 * trunk's host resolves to, looked up again every 5 minutes. The check runs on the source address of
 * every datagram and connection before anything of it is parsed, so it is cheap: an answer is cached
 * per address string (bounded; the cache starts afresh when the list changes or it is full).
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** How often the trunk's host is looked up again. */
export const TRUNK_LOOKUP_INTERVAL_MS = 5 * 60_000;
const CACHE_LIMIT = 4096;

/**
 * Parses `10.0.0.1, 192.0.2.0/24, 2001:db8::/32`; throws with the bad entry named. IPv4-mapped IPv6
 * sources are matched as their IPv4 address.
 */
export function parseSourceList(text: string): Range[] {
  const entries = text
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '');
  if (entries.length === 0) throw new Error('an empty list');
  return entries.map((entry) => {
    if (entry.includes('/')) {
      if (!ipaddr.isValidCIDR(entry)) throw new Error(`"${entry.slice(0, 60)}" is not an IP address or CIDR range`);
      return ipaddr.parseCIDR(entry);
    }
    if (isIP(entry) === 0) throw new Error(`"${entry.slice(0, 60)}" is not an IP address or CIDR range`);
    const addr = ipaddr.parse(entry);
    return [addr, addr.kind() === 'ipv4' ? 32 : 128];
  });
}

const normalise = (addr: ipaddr.IPv4 | ipaddr.IPv6): ipaddr.IPv4 | ipaddr.IPv6 =>
  addr instanceof ipaddr.IPv6 && addr.isIPv4MappedAddress() ? addr.toIPv4Address() : addr;

export class AllowedSources {
  private ranges: Range[];
  private readonly cache = new Map<string, boolean>();
  private refresher: NodeJS.Timeout | null = null;

  private constructor(
    ranges: Range[],
    /** The trunk's host name to look up, when the list is the trunk's addresses. */
    private readonly trunkHost: string | null,
    private readonly onLookupError: (error: Error) => void,
  ) {
    this.ranges = ranges;
  }

  /** A fixed list (the setting). */
  static of(ranges: Range[]): AllowedSources {
    return new AllowedSources(ranges, null, () => undefined);
  }

  /** Parses a setting's text (throws on a bad entry). */
  static parse(text: string): AllowedSources {
    return AllowedSources.of(parseSourceList(text));
  }

  /**
   * The addresses `host` resolves to (an IP literal is itself); empty until `start` looked it up.
   * A failed lookup keeps the addresses of the last good one.
   */
  static ofHost(host: string, onLookupError: (error: Error) => void = () => undefined): AllowedSources {
    const bare = host.replace(/^\[|\]$/g, '');
    if (isIP(bare) !== 0) return AllowedSources.parse(bare);
    return new AllowedSources([], bare, onLookupError);
  }

  /** Looks the trunk's host up now and every 5 minutes (a no-op for a fixed list). */
  async start(): Promise<void> {
    if (this.trunkHost === null || this.refresher) return;
    await this.refresh();
    this.refresher = setInterval(() => void this.refresh(), TRUNK_LOOKUP_INTERVAL_MS);
    this.refresher.unref();
  }

  stop(): void {
    if (this.refresher) clearInterval(this.refresher);
    this.refresher = null;
  }

  /** Whether `address` (as a socket reports it) may send. */
  allows(address: string): boolean {
    const cached = this.cache.get(address);
    if (cached !== undefined) return cached;
    let allowed = false;
    if (ipaddr.isValid(address)) {
      const addr = normalise(ipaddr.parse(address));
      allowed = this.ranges.some(([base, bits]) => base.kind() === addr.kind() && addr.match(base, bits));
    }
    if (this.cache.size >= CACHE_LIMIT) this.cache.clear();
    this.cache.set(address, allowed);
    return allowed;
  }

  /** The list as a setting would say it (`127.0.0.1/32, 10.0.0.0/8`; `parse` reads it back), '' while it is empty. */
  list(): string {
    return this.ranges.map(([base, bits]) => `${base.toString()}/${bits}`).join(', ');
  }

  /** The list, for logs and docs (`127.0.0.1/32, 10.0.0.0/8`). */
  describe(): string {
    if (this.ranges.length === 0) return this.trunkHost ? `(${this.trunkHost}: not resolved yet)` : '(none)';
    return this.list();
  }

  private async refresh(): Promise<void> {
    if (this.trunkHost === null) return;
    try {
      const found = await lookup(this.trunkHost, { all: true, verbatim: true });
      if (found.length === 0) return;
      this.ranges = found.map(({ address }) => {
        const addr = normalise(ipaddr.parse(address));
        return [addr, addr.kind() === 'ipv4' ? 32 : 128];
      });
      this.cache.clear();
    } catch (error) {
      this.onLookupError(error instanceof Error ? error : new Error(String(error)));
    }
  }
}
