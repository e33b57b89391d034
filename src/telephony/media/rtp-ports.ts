/**
 * The RTP port range (`RTP_PORTS`, default 40000-40999): each call takes an even port for RTP and
 * the odd one above it for RTCP (RFC 3550 section 11), and gives them back when it ends. A port
 * another program holds is skipped when binding fails (the session asks for the next).
 */
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
  private cursor: number;

  constructor(private readonly range: PortRange) {
    this.cursor = this.firstEven();
  }

  /** The number of RTP/RTCP pairs the range holds. */
  get capacity(): number {
    return Math.floor((this.range.last - this.firstEven() + 1) / 2);
  }

  /** An even port whose pair is free, or null when every pair is taken. */
  allocate(): number | null {
    for (let tried = 0; tried < this.capacity; tried++) {
      const port = this.cursor;
      this.cursor = port + 2 + 1 > this.range.last ? this.firstEven() : port + 2;
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
