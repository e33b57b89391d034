/**
 * The participant's RTP packets put back in order before they are decoded: a reorder window of
 * 60 ms (three 20 ms packets). A packet that arrives in order goes on at once (no added delay); one
 * that arrives ahead of a gap is held until the missing packet comes, or until the window is
 * exceeded (a packet three places further on has arrived, or the oldest held one has waited 60 ms):
 * the missing packets are then given up as lost (`lost`, for concealment), at most MAX_CONCEALED in
 * a row. A packet older than what was already handed on (late, or a duplicate) is dropped. A jump of
 * more than RESTART sequence numbers either way is a new stream (the sender restarted): it starts
 * again from there.
 */

export interface ReorderedPacket {
  sequenceNumber: number;
  timestamp: number;
  payload: Buffer;
}

export interface ReorderSink {
  packet(packet: ReorderedPacket): void;
  /** A packet that never came, in its place in the order. */
  lost(): void;
}

const WINDOW_PACKETS = 3;
const WINDOW_MS = 60;
/** A longer gap is not concealed beyond this (1 s): silence follows, the recording's timeline places what comes next. */
const MAX_CONCEALED = 50;
const RESTART = 500;

export class RtpReorder {
  private expected: number | null = null;
  private readonly held = new Map<number, { packet: ReorderedPacket; at: number }>();

  constructor(private readonly sink: ReorderSink) {}

  push(packet: ReorderedPacket, now: number): void {
    const seq = packet.sequenceNumber & 0xffff;
    if (this.expected === null) this.expected = seq;
    const ahead = distance(this.expected, seq);
    if (Math.abs(ahead) > RESTART) {
      this.release(now, true);
      this.expected = seq;
    } else if (ahead < 0 || this.held.has(seq)) return; // late or repeated
    this.held.set(seq, { packet, at: now });
    this.release(now, false);
  }

  /** Called on the clock (every 20 ms): gives up on a gap the held packets have waited 60 ms behind. */
  tick(now: number): void {
    this.release(now, false);
  }

  private release(now: number, all: boolean): void {
    while (this.expected !== null && this.held.size > 0) {
      const next = this.held.get(this.expected);
      if (next) {
        this.held.delete(this.expected);
        this.expected = (this.expected + 1) & 0xffff;
        this.sink.packet(next.packet);
        continue;
      }
      let first = Infinity;
      let furthest = 0;
      let oldest = Infinity;
      for (const [seq, { at }] of this.held) {
        const d = distance(this.expected, seq);
        first = Math.min(first, d);
        furthest = Math.max(furthest, d);
        oldest = Math.min(oldest, at);
      }
      if (!all && furthest < WINDOW_PACKETS && now - oldest < WINDOW_MS) return;
      for (let i = 0; i < Math.min(first, MAX_CONCEALED); i++) this.sink.lost();
      this.expected = (this.expected + first) & 0xffff;
    }
  }
}

/** How far `seq` is after `from`, in sequence numbers modulo 2^16 (negative: before). */
function distance(from: number, seq: number): number {
  const d = (seq - from) & 0xffff;
  return d >= 0x8000 ? d - 0x10000 : d;
}
