/**
 * Media toolkit (src/kernel/media/): one jitter buffer for a call's incoming RTP, read in one of two
 * ways. Either way packets are put back in sequence order (modulo 2^16); a packet older than what
 * was already handed on (late) or held twice (a duplicate) is dropped; a jump of more than RESTART
 * sequence numbers either way from the newest packet is a new stream (the sender restarted): what
 * is held of the old one is handed on, and the new one starts from there.
 * - `JitterBuffer.reorder(sink)`: a reorder window (a room's participant, before decoding). A packet
 *   in order goes on at once, with no added delay; one that arrives ahead of a gap is held until the
 *   missing packet comes, or until the window is exceeded (a packet `windowPackets` places further
 *   on has arrived, or the oldest held one has waited `windowMs`, checked on each push and `tick`):
 *   the missing packets are then given up as lost (`sink.lost`, for concealment), at most
 *   MAX_CONCEALED in a row.
 * - `JitterBuffer.playout()`: a fixed-depth playout buffer of decoded samples (a phone call).
 *   Playout starts once `depthMs` of audio is held and then takes one 20 ms frame per tick of the
 *   media clock (`pull`); a missing packet is concealed in place when its turn comes (`conceal`);
 *   after REBUFFER_AFTER underruns in a row (the peer stopped sending, or its clock ran slower) it
 *   fills up to its depth again; beyond MAX_BUFFERED_MS held (the peer's clock runs faster) it skips
 *   ahead to its depth. Packets of any duration are accepted (cut into frames through a small
 *   FIFO); an empty one carries no audio and is not kept. Each packet costs constant work (what is
 *   held is a running count), apart from the rare skip ahead, which sorts what is held once.
 */

export interface JitterStats {
  received: number;
  late: number;
  duplicates: number;
  lost: number;
  underruns: number;
}

/** Where a reorder window hands packets on, in order. */
export interface InOrderSink<T> {
  packet(packet: T): void;
  /** A packet that never came, in its place in the order. */
  lost(): void;
}

/** A jump of more sequence numbers than this, either way, is a new stream. */
const RESTART = 500;
/** A longer gap is not concealed beyond this (1 s of 20 ms packets): what comes next follows on. */
const MAX_CONCEALED = 50;
/** Beyond this much held audio the playout buffer skips ahead (the peer's clock runs faster). */
const MAX_BUFFERED_MS = 300;
/** Underruns in a row (200 ms) after which playout waits to fill up again. */
const REBUFFER_AFTER = 10;

interface Held<T> {
  packet: T;
  /** When it was pushed (the reorder window's time). */
  at: number;
}

/** The playout side: decoded samples cut into 20 ms frames. */
class Playout {
  readonly frame: number;
  fifo: Int16Array = new Int16Array(0);
  playing = false;
  starved = 0;
  lastPacketSamples: number;

  constructor(
    readonly sampleRate: number,
    readonly depthMs: number,
    private readonly conceal: (samples: number) => Int16Array,
  ) {
    this.frame = sampleRate / 50;
    this.lastPacketSamples = this.frame;
  }

  append(samples: Int16Array): void {
    this.lastPacketSamples = samples.length;
    const joined = new Int16Array(this.fifo.length + samples.length);
    joined.set(this.fifo);
    joined.set(samples, this.fifo.length);
    this.fifo = joined;
  }

  lost(): void {
    this.append(this.conceal(this.lastPacketSamples));
  }

  ms(samples: number): number {
    return (samples * 1000) / this.sampleRate;
  }
}

export class JitterBuffer<T> {
  readonly stats: JitterStats = { received: 0, late: 0, duplicates: 0, lost: 0, underruns: 0 };
  private readonly packets = new Map<number, Held<T>>();
  /** The next sequence number to hand on (null: the earliest held, once playout starts). */
  private next: number | null = null;
  /** The last sequence number handed on or given up: anything at or before it is late. */
  private lastOut: number | null = null;
  /** The furthest sequence number received: where the stream is, for a restart. */
  private newest: number | null = null;
  /** Samples held in `packets` (playout). */
  private buffered = 0;

  private constructor(
    private readonly out: InOrderSink<T>,
    private readonly samplesOf: (packet: T) => number,
    private readonly window: { packets: number; ms: number } | null,
    private readonly playout: Playout | null,
  ) {}

  /** A reorder window: packets handed to `sink` in order as soon as they can be. */
  static reorder<T>(
    sink: InOrderSink<T>,
    { windowPackets = 3, windowMs = 60 }: { windowPackets?: number; windowMs?: number } = {},
  ): JitterBuffer<T> {
    return new JitterBuffer(sink, () => 1, { packets: windowPackets, ms: windowMs }, null);
  }

  /**
   * A playout buffer of decoded samples at `sampleRate` (8 kHz by default), read with `pull` once per
   * tick; `conceal` makes the samples of a packet lost inside the stream (silence by default).
   */
  static playout({
    sampleRate = 8000,
    depthMs = 60,
    conceal = (samples: number) => new Int16Array(samples),
  }: {
    sampleRate?: number;
    depthMs?: number;
    conceal?: (samples: number) => Int16Array;
  } = {}): JitterBuffer<Int16Array> {
    const playout = new Playout(sampleRate, depthMs, conceal);
    const sink = { packet: (samples: Int16Array) => playout.append(samples), lost: () => playout.lost() };
    return new JitterBuffer(sink, (samples) => samples.length, null, playout);
  }

  /** Packets held, waiting for their turn. */
  get held(): number {
    return this.packets.size;
  }

  /** A packet received at `now` (ms; the reorder window's time, unused by playout). */
  push(sequence: number, packet: T, now = 0): void {
    const seq = sequence & 0xffff;
    this.stats.received++;
    const samples = this.samplesOf(packet);
    if (samples === 0) return;
    if (this.newest !== null && Math.abs(distance(this.newest, seq)) > RESTART) this.restart();
    if (this.lastOut !== null && distance(this.lastOut, seq) <= 0) {
      this.stats.late++;
      return;
    }
    if (this.packets.has(seq)) {
      this.stats.duplicates++;
      return;
    }
    this.packets.set(seq, { packet, at: now });
    this.buffered += samples;
    if (this.newest === null || distance(this.newest, seq) > 0) this.newest = seq;
    const waiting = this.playout !== null && !this.playout.playing;
    if (this.next === null || (waiting && distance(this.next, seq) < 0)) this.next = seq;
    const playout = this.playout;
    if (!playout) {
      this.release(this.windowExceeded(now));
      return;
    }
    if (!playout.playing && playout.ms(this.buffered) >= playout.depthMs) playout.playing = true;
    if (playout.ms(this.buffered) > MAX_BUFFERED_MS) this.skipAhead(playout);
  }

  /** On the clock (every 20 ms): a reorder window gives up on a gap the held packets have waited `windowMs` behind. */
  tick(now: number): void {
    if (!this.playout) this.release(this.windowExceeded(now));
  }

  /**
   * Playout: the next 20 ms frame, or null when nothing is due (not started, or an underrun: the
   * caller conceals). A missing packet whose turn has come is concealed in its place.
   */
  pull(): Int16Array | null {
    const playout = this.playout;
    if (!playout) throw new Error('pull() reads a playout buffer; a reorder window hands packets on');
    if (!playout.playing || this.next === null) return null;
    this.release(
      () => 1,
      () => playout.fifo.length >= playout.frame,
    );
    if (playout.fifo.length < playout.frame) {
      this.stats.underruns++;
      if (++playout.starved >= REBUFFER_AFTER) {
        playout.playing = false;
        this.next = null;
      }
      return null;
    }
    playout.starved = 0;
    const frame = playout.fifo.slice(0, playout.frame);
    playout.fifo = playout.fifo.slice(playout.frame);
    return frame;
  }

  /**
   * Hands on what is held, in order, until `enough`: the next packet when it is there; at a gap,
   * `giveUp(gap)` says how many of the missing packets to give up as lost (0: wait for them).
   */
  private release(giveUp: (gap: number) => number, enough: () => boolean = () => false): void {
    while (this.next !== null && this.packets.size > 0 && !enough()) {
      const next = this.packets.get(this.next);
      if (next) {
        this.packets.delete(this.next);
        this.buffered -= this.samplesOf(next.packet);
        this.lastOut = this.next;
        this.next = (this.next + 1) & 0xffff;
        this.out.packet(next.packet);
        continue;
      }
      let gap = Infinity;
      for (const seq of this.packets.keys()) gap = Math.min(gap, distance(this.next, seq));
      const missing = Math.min(gap, giveUp(gap));
      if (missing <= 0) return;
      this.stats.lost += missing;
      for (let i = 0; i < Math.min(missing, MAX_CONCEALED); i++) this.out.lost();
      this.lastOut = (this.next + missing - 1) & 0xffff;
      this.next = (this.next + missing) & 0xffff;
    }
  }

  /** The reorder window's rule: the whole gap is given up once it is exceeded. */
  private windowExceeded(now: number): (gap: number) => number {
    const window = this.window;
    return (gap) => {
      if (!window || this.next === null) return 0;
      let furthest = 0;
      let oldest = Infinity;
      for (const [seq, { at }] of this.packets) {
        furthest = Math.max(furthest, distance(this.next, seq));
        oldest = Math.min(oldest, at);
      }
      return furthest >= window.packets || now - oldest >= window.ms ? gap : 0;
    };
  }

  /** A new stream: what is held of the old one is handed on (its gaps given up), then it starts afresh. */
  private restart(): void {
    this.release((gap) => gap);
    this.next = null;
    this.lastOut = null;
    this.newest = null;
  }

  private skipAhead(playout: Playout): void {
    const order = [...this.packets.keys()].sort((a, b) => distance(b, a));
    while (playout.ms(this.buffered) > playout.depthMs) {
      const oldest = order.shift();
      if (oldest === undefined) break;
      const held = this.packets.get(oldest);
      if (held) this.buffered -= this.samplesOf(held.packet);
      this.packets.delete(oldest);
      this.stats.late++;
    }
    if (order[0] !== undefined) {
      this.next = order[0];
      this.lastOut = (order[0] - 1) & 0xffff;
    }
  }
}

/**
 * Packet-loss concealment by repeat-and-fade: a lost frame repeats the last good one at half its
 * level, each further loss halves again, and after 60 ms of loss it is silence.
 */
export class PacketLossConcealer {
  private last: Int16Array;
  private gain = 1;

  constructor(frame = 160) {
    this.last = new Int16Array(frame);
  }

  good(frame: Int16Array): void {
    this.last = frame;
    this.gain = 1;
  }

  conceal(samples = this.last.length): Int16Array {
    this.gain = this.gain > 0.2 ? this.gain / 2 : 0;
    const out = new Int16Array(samples);
    for (let i = 0; i < samples; i++) out[i] = Math.round((this.last[i % this.last.length] ?? 0) * this.gain);
    return out;
  }
}

/** How far `seq` is after `from`, in sequence numbers modulo 2^16 (negative: before). */
function distance(from: number, seq: number): number {
  const d = (seq - from) & 0xffff;
  return d >= 0x8000 ? d - 0x10000 : d;
}
