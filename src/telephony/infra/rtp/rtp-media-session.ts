/**
 * One call's media as the platform uses it (PhoneMedia): the conversation pipeline's audio-transport
 * port at 8000 Hz over an RTP stream that lives on the media thread (rtp-thread.ts, rtp-stream.ts),
 * where one 20 ms clock paces every call on an event loop of its own.
 * - Out: the agent's audio is pulled from its FrameSource ahead of time, up to `AHEAD_FRAMES` (200 ms),
 *   and queued on the media thread, which sends one frame per tick (silence when none is queued): a
 *   busy main thread delays nothing the peer hears while that much is queued. A barge-in's flush
 *   (`FrameSource.onFlush`) drops what the thread has queued too. What was pulled but not yet sent is
 *   the only audio "played" early: an interrupted answer's played share, and an underrun of the
 *   pipeline, can be seen up to 200 ms before the peer hears them.
 * - In: each tick's frame heard (decoded, or concealed by the jitter buffer) comes back with the
 *   tick, in order, for the listeners.
 * - Recording (`record`): each tick's frame sent (left) and frame heard (right) are written at the
 *   tick's place on the stream's timeline, tick × 160 samples (src/kernel/media/dual-channel-recorder.ts):
 *   the two sides stay paired, and a stall the thread's clock skipped is silence on both.
 * - Nothing the thread reports can throw into it: a listener that throws is dropped
 *   (TransportListeners); a failure of the stream (a bad address) fails this call (`onFailed`).
 * `onFrame` gives what the peer says, `onSentFrame` what we send, one call per 20 ms frame.
 */
import type { AudioTransport, FrameSource } from '../../../conversations/index';
import type { TimelineRecorder } from '../../../kernel/media/dual-channel-recorder';
import { TransportListeners } from '../../../kernel/media/transport-listeners';
import { FRAME, type MediaStats } from './rtp-stream';
import type { RtpThread, StreamPeer } from './rtp-thread';
import type { TickReport } from './rtp-thread-protocol';
import type { RtpPortAllocator } from './rtp-ports';
import type { NegotiatedMedia } from './sdp';

export type { MediaStats } from './rtp-stream';

/** The agent's audio queued on the media thread ahead of its ticks, at most (10 frames: 200 ms). */
export const AHEAD_FRAMES = 10;

type Listener<T> = (value: T) => void;

const SILENCE = new Int16Array(FRAME);

export class RtpMediaSession implements AudioTransport, StreamPeer {
  readonly sampleRate = 8000;
  private media: NegotiatedMedia | null = null;
  private source: FrameSource | null = null;
  private id = 0;
  /** Frames pulled and queued on the thread, by number, until the thread says it sent or dropped them. */
  private readonly pending = new Map<number, Int16Array>();
  private nextFrame = 0;
  /** Every frame numbered below this was sent or dropped. */
  private settled = 0;
  /** Frames numbered below this were flushed (a barge-in): not counted as queued any more. */
  private barrier = 0;
  private silenceLimitMs = 0;
  private silentListener: (() => void) | null = null;
  private failedListener: ((error: Error) => void) | null = null;
  private recorder: TimelineRecorder | null = null;
  private closed = false;
  private readonly listeners = new TransportListeners();
  private readonly sentListeners = new Set<Listener<Int16Array>>();
  private readonly dtmfListeners = new Set<Listener<string>>();
  private pacingListener: Listener<number> | null = null;
  private readonly flowing: Promise<void>;
  private markFlowing: () => void = () => undefined;
  readonly stats: MediaStats = { sent: 0, received: 0, lost: 0, late: 0, underruns: 0, dtmfReceived: '' };

  private constructor(
    readonly host: string,
    readonly port: number,
    private readonly thread: RtpThread,
    private readonly release: () => void,
  ) {
    this.flowing = new Promise((resolve) => (this.markFlowing = resolve));
  }

  /**
   * Binds a free even/odd pair of the range on `host` (on the media thread), picked at random; throws
   * when the range is exhausted. `sources` is RTP_ALLOWED_SOURCES as a list (who may send; '' no one,
   * null anyone), checked on the thread before a packet is parsed.
   */
  static async open(
    host: string,
    ports: RtpPortAllocator,
    sources: string | null,
    thread: RtpThread,
  ): Promise<RtpMediaSession> {
    for (let attempt = 0; attempt < ports.capacity; attempt++) {
      const port = ports.allocate();
      if (port === null) break;
      const session = new RtpMediaSession(host, port, thread, () => ports.free(port));
      try {
        session.id = await thread.open(host, port, sources, session);
        return session;
      } catch {
        // Another program holds this pair: keep it marked as taken and try the next.
      }
    }
    throw new Error('No free RTP port in RTP_PORTS.');
  }

  /** Starts the media once offer and answer agree and the dialog is up (our ACK sent, or the peer's received). */
  start(media: NegotiatedMedia): void {
    if (this.closed || this.media) return;
    this.media = media;
    this.thread.send({ op: 'start', id: this.id, media, silenceLimitMs: this.silenceLimitMs });
  }

  get codec(): NegotiatedMedia | null {
    return this.media;
  }

  /** Resolves at the first audio packet from the peer: the moment to start talking. */
  mediaFlowing(): Promise<void> {
    return this.flowing;
  }

  onFrame(listener: Listener<Int16Array>): () => void {
    return this.listeners.onFrame(listener);
  }

  /** Every 20 ms frame we send (silence included): the agent's side of a dual-channel recording. */
  onSentFrame(listener: Listener<Int16Array>): () => void {
    this.sentListeners.add(listener);
    return () => this.sentListeners.delete(listener);
  }

  onDtmf(listener: Listener<string>): () => void {
    this.dtmfListeners.add(listener);
    return () => this.dtmfListeners.delete(listener);
  }

  /**
   * Reports, for each frame sent, how many milliseconds after its place on the 20 ms clock it left
   * (the outbound jitter the peer sees; a stall that restarts the clock is reported whole, once).
   * For benchmarks and diagnostics; one listener.
   */
  onPacing(listener: Listener<number> | null): void {
    this.pacingListener = listener;
  }

  /** Records the call from the next tick on: what we send on channel 0, what we hear on channel 1, at 8 kHz. */
  record(recorder: TimelineRecorder): void {
    if (recorder.sampleRate !== this.sampleRate)
      throw new Error(`A call's recording is at ${this.sampleRate} Hz, not ${recorder.sampleRate} Hz.`);
    this.recorder = recorder;
  }

  play(source: FrameSource): void {
    this.source = source;
    source.onFlush?.(() => this.flush());
    this.feed();
  }

  /** Queues digits (0-9, *, #, A-D) as RFC 4733 events; false when the peer did not offer them. */
  sendDtmf(digits: string): boolean {
    if (this.media?.dtmfPayloadType == null) return false;
    this.thread.send({ op: 'dtmf', id: this.id, digits });
    return true;
  }

  onClosed(listener: () => void): () => void {
    return this.listeners.onClosed(listener);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.thread.send({ op: 'close', id: this.id });
    this.pending.clear();
    this.release();
    this.listeners.closed();
  }

  /**
   * Calls `listener` once when no RTP has come from the peer for `limitMs` (from the start of the
   * media on): a peer gone without a BYE. 0 turns the check off. Set before `start`.
   */
  onPeerSilent(limitMs: number, listener: () => void): void {
    this.silenceLimitMs = limitMs;
    this.silentListener = listener;
  }

  /** Calls `listener` once when this call's media fails (an error sending or in a tick): the user agent hangs up. */
  onFailed(listener: (error: Error) => void): void {
    this.failedListener = listener;
  }

  /** The media thread's report of one tick of this stream (StreamPeer). */
  ticked(report: TickReport, lateMs: number): void {
    if (this.closed) return;
    Object.assign(this.stats, report.stats);
    if (report.silent && this.silentListener) {
      const listener = this.silentListener;
      this.silentListener = null;
      listener();
      if (this.closed) return;
    }
    const position = report.index * FRAME;
    const sent = report.sent >= 0 ? (this.pending.get(report.sent) ?? SILENCE) : SILENCE;
    this.settle(Math.max(report.sent, report.flushed));
    this.recorder?.write(0, position, sent);
    for (const l of this.sentListeners) l(sent);
    this.pacingListener?.(lateMs);
    if (report.heard) {
      this.recorder?.write(1, position, report.heard);
      this.listeners.heard(report.heard);
    }
    if (report.flowing) this.markFlowing();
    for (const digit of report.digits) for (const l of this.dtmfListeners) l(digit);
    this.feed();
  }

  /** The media thread's report that the stream failed (StreamPeer): the user agent hangs up. */
  failed(error: Error): void {
    const listener = this.failedListener;
    this.failedListener = null;
    listener?.(error);
    this.close();
  }

  /** Pulls the agent's frames until `AHEAD_FRAMES` are queued on the thread (or the source has none now). */
  private feed(): void {
    const source = this.source;
    if (!source || !this.media || this.closed) return;
    const frames: { n: number; frame: Int16Array }[] = [];
    while (this.nextFrame - Math.max(this.settled, this.barrier) < AHEAD_FRAMES) {
      const frame = source.nextFrame();
      if (!frame) break;
      const n = this.nextFrame++;
      this.pending.set(n, frame);
      frames.push({ n, frame });
    }
    if (frames.length > 0) this.thread.send({ op: 'queue', id: this.id, frames });
  }

  /** Drops what the thread has queued (the source was flushed: a barge-in). */
  private flush(): void {
    if (this.nextFrame === this.barrier) return;
    this.barrier = this.nextFrame;
    this.thread.send({ op: 'flush', id: this.id, upTo: this.nextFrame - 1 });
  }

  /** Frames numbered up to `upTo` were sent or dropped: forgotten. */
  private settle(upTo: number): void {
    while (this.settled <= upTo) this.pending.delete(this.settled++);
  }
}
