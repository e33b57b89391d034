/**
 * The RTP port range (`RTP_PORTS`, default 40000-40999): each call takes an even port for RTP and
 * the odd one above it for RTCP (RFC 3550 section 11), and gives them back when it ends. Pairs are
 * picked at random among the free ones, so that a call's port cannot be guessed from the last one's
 * (docs/security.md). A port another program holds is skipped when binding fails (the session asks
 * for another).
 */
import { randomInt } from 'node:crypto';

export interface PortRange {
  first: number;
  last: number;
}

export function parsePortRange(text: string): PortRange {
  const match = /^\s*(\d+)\s*-\s*(\d+)\s*$/.exec(text);
  const first = Number(match?.[1]);
  const last = Number(match?.[2]);
  if (!match || first < 1024 || last > 65535 || last - first < 1) {
    throw new Error(`RTP_PORTS must be a range like 40000-40999 within 1024-65535, not "${text}".`);
  }
  return { first, last };
}

export class RtpPortAllocator {
  private readonly inUse = new Set<number>();

  constructor(private readonly range: PortRange) {}

  /** The number of RTP/RTCP pairs the range holds. */
  get capacity(): number {
    return Math.floor((this.range.last - this.firstEven() + 1) / 2);
  }

  /** Pairs bound now. */
  get used(): number {
    return this.inUse.size;
  }

  /** A random even port whose pair is free, or null when every pair is taken. */
  allocate(): number | null {
    const capacity = this.capacity;
    if (this.inUse.size >= capacity) return null;
    // A few random draws find a free pair unless the range is nearly full; then a walk from a random start.
    for (let draw = 0; draw < 8; draw++) {
      const port = this.firstEven() + 2 * randomInt(0, capacity);
      if (!this.inUse.has(port)) {
        this.inUse.add(port);
        return port;
      }
    }
    const start = randomInt(0, capacity);
    for (let i = 0; i < capacity; i++) {
      const port = this.firstEven() + 2 * ((start + i) % capacity);
      if (!this.inUse.has(port)) {
        this.inUse.add(port);
        return port;
      }
    }
    return null;
  }

  free(port: number): void {
    this.inUse.delete(port);
  }

  private firstEven(): number {
    return this.range.first % 2 === 0 ? this.range.first : this.range.first + 1;
  }
}
