/**
 * A fixed-depth jitter buffer for the audio heard from the peer. Packets are put back in sequence
 * order; playout starts once `depthMs` of audio is buffered (60 ms by default) and then takes one
 * 20 ms frame per tick of the media clock. A packet that comes after its turn, or twice, is dropped.
 * A missing packet is concealed (`PacketLossConcealer`); after 200 ms without audio (the peer stopped sending,
 * or its clock ran slower) the buffer fills up to its depth again. Packets of any duration are
 * accepted: decoded samples go through a small FIFO cut into 160-sample frames. An empty packet
 * carries no audio and is not kept. Each packet costs constant work (the buffered duration is a running
 * count), apart from the rare skip ahead, which sorts what is buffered once.
 */
import { sequenceDistance } from './rtp-packet';

export interface JitterStats {
  received: number;
  late: number;
  duplicates: number;
  lost: number;
  underruns: number;
}

const FRAME = 160;
/** Beyond this much buffered audio the buffer skips ahead (the peer's clock runs faster). */
const MAX_BUFFERED_MS = 300;
/** Underrun ticks in a row (200 ms) after which playout waits to fill up again. */
const REBUFFER_AFTER = 10;

export class JitterBuffer {
  readonly stats: JitterStats = { received: 0, late: 0, duplicates: 0, lost: 0, underruns: 0 };
  private readonly packets = new Map<number, Int16Array>();
  private nextSequence: number | null = null;
  /** The last sequence number played or concealed: anything at or before it is late. */
  private lastPlayed: number | null = null;
  private playing = false;
  private fifo: Int16Array = new Int16Array(0);
  private lastPacketSamples = FRAME;
  private starved = 0;
  /** Samples held in `packets`. */
  private buffered = 0;

  constructor(private readonly depthMs = 60) {}

  /** Packets held, waiting for their turn. */
  get held(): number {
    return this.packets.size;
  }

  push(sequence: number, samples: Int16Array): void {
    this.stats.received++;
    if (samples.length === 0) return;
    if (this.lastPlayed !== null && sequenceDistance(this.lastPlayed, sequence) <= 0) {
      this.stats.late++;
      return;
    }
    if (this.packets.has(sequence)) {
      this.stats.duplicates++;
      return;
    }
    this.packets.set(sequence, samples);
    this.buffered += samples.length;
    this.lastPacketSamples = samples.length;
    if (!this.playing && (this.nextSequence === null || sequenceDistance(this.nextSequence, sequence) < 0)) {
      this.nextSequence = sequence;
    }
    if (!this.playing && this.bufferedMs() >= this.depthMs) this.playing = true;
    if (this.bufferedMs() > MAX_BUFFERED_MS) this.skipAhead();
  }

  /**
   * The next 20 ms frame, or null when nothing is due (not started, or an underrun: the caller
   * conceals). `conceal` makes the samples of each packet lost inside the stream, in its place.
   */
  pull(conceal: (samples: number) => Int16Array): Int16Array | null {
    if (!this.playing || this.nextSequence === null) return null;
    while (this.fifo.length < FRAME) {
      const next = this.packets.get(this.nextSequence);
      if (next) {
        this.packets.delete(this.nextSequence);
        this.buffered -= next.length;
        this.append(next);
      } else if (this.packets.size > 0) {
        this.stats.lost++;
        this.append(conceal(this.lastPacketSamples));
      } else break;
      this.lastPlayed = this.nextSequence;
      this.nextSequence = (this.nextSequence + 1) & 0xffff;
    }
    if (this.fifo.length < FRAME) {
      this.stats.underruns++;
      if (++this.starved >= REBUFFER_AFTER) {
        this.playing = false;
        this.nextSequence = null;
      }
      return null;
    }
    this.starved = 0;
    const frame = this.fifo.slice(0, FRAME);
    this.fifo = this.fifo.slice(FRAME);
    return frame;
  }

  private append(samples: Int16Array): void {
    const joined = new Int16Array(this.fifo.length + samples.length);
    joined.set(this.fifo);
    joined.set(samples, this.fifo.length);
    this.fifo = joined;
  }

  private bufferedMs(): number {
    return this.buffered / 8;
  }

  private skipAhead(): void {
    const order = [...this.packets.keys()].sort((a, b) => sequenceDistance(b, a));
    while (this.bufferedMs() > this.depthMs) {
      const oldest = order.shift();
      if (oldest === undefined) break;
      this.buffered -= this.packets.get(oldest)?.length ?? 0;
      this.packets.delete(oldest);
      this.stats.late++;
    }
    if (order[0] !== undefined) {
      this.nextSequence = order[0];
      this.lastPlayed = (order[0] - 1) & 0xffff;
    }
  }
}

/**
 * Packet-loss concealment by repeat-and-fade: a lost frame repeats the last good one at half its
 * level, each further loss halves again, and after 60 ms of loss it is silence.
 */
export class PacketLossConcealer {
  private last: Int16Array = new Int16Array(FRAME);
  private gain = 1;

  good(frame: Int16Array): void {
    this.last = frame;
    this.gain = 1;
  }

  conceal(samples = FRAME): Int16Array {
    this.gain = this.gain > 0.2 ? this.gain / 2 : 0;
    const out = new Int16Array(samples);
    for (let i = 0; i < samples; i++) out[i] = Math.round((this.last[i % this.last.length] ?? 0) * this.gain);
    return out;
  }
}
