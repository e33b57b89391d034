/**
 * What the main thread (rtp-thread.ts) and the media thread (rtp-thread.worker.ts) say to each
 * other. Streams are named by a number the main thread gives; frames of the agent's audio by a
 * number per stream, in order.
 */
import type { MediaStats, StreamTick } from './rtp-stream';
import type { NegotiatedMedia } from './sdp';

export type ToThread =
  /** Bind `port`/`port + 1` on `host`; `sources` is RTP_ALLOWED_SOURCES as a list ('' lets no one send, null anyone). */
  | { op: 'open'; id: number; host: string; port: number; sources: string | null }
  | { op: 'start'; id: number; media: NegotiatedMedia; silenceLimitMs: number }
  | { op: 'queue'; id: number; frames: { n: number; frame: Int16Array }[] }
  | { op: 'flush'; id: number; upTo: number }
  | { op: 'dtmf'; id: number; digits: string }
  /** The stream's heard audio is for a conversation: the agent's echo is cancelled, echo and tones masked. */
  | { op: 'listen'; id: number; on: boolean }
  | { op: 'close'; id: number };

/** One stream's part of a tick, and its figures. */
export interface TickReport extends StreamTick {
  id: number;
  stats: MediaStats;
}

export type FromThread =
  /** The pair bound, or why not (`taken`: another socket holds a port of it). */
  | { op: 'opened'; id: number; error: { message: string; taken: boolean } | null }
  /**
   * One tick of the thread's clock: every started stream's report. `lateMs` is how late the tick ran
   * against its place on the clock, `skipped` the places skipped just before (a stall of the thread).
   */
  | { op: 'tick'; lateMs: number; skipped: number; streams: TickReport[] }
  /** A stream failed (an error sending, a bad address): it is closed. */
  | { op: 'failed'; id: number; message: string };
