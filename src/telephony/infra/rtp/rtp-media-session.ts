/**
 * One call's media as the platform uses it (PhoneMedia): the conversation pipeline's audio-transport
 * port at 8000 Hz over an RTP stream that lives on the media thread (rtp-thread.ts, rtp-stream.ts),
 * where one 20 ms clock paces every call on an event loop of its own.
 * - Out: the agent's audio is taken from its source ahead of time (`FrameSource.ahead`), up to
 *   `AHEAD_FRAMES` (200 ms) and only what is ready, and queued on the media thread, which sends one
 *   frame per tick (silence when none is queued): a busy main thread delays nothing the peer hears
 *   while that much is queued. Each frame sent is told to the source (it is idle once all were); a
 *   tick that sent silence asks the source as the old tick did (an underrun is such a tick in the
 *   middle of an answer); a flush of the source (a barge-in, the end) drops what the thread holds.
 *   A frame counts as played when taken: an interrupted answer's played share can be up to 200 ms
 *   ahead of what the peer heard. A source without `ahead` (a test's) is taken from until it has none.
 * - In: each tick's frame heard (decoded, or concealed by the jitter buffer) comes back with the
 *   tick, in order, for the listeners. Once the call is a conversation's (`listen`), the agent's echo
 *   is cancelled on the thread, and a frame that is only echo (the thread's echo gate) or a key's
 *   tone is silence to the listeners (the recording keeps it as it came).
 * - Recording (`record`): each tick's frame sent (left) and frame heard (right) are written at the
 *   tick's place on the stream's timeline, tick × 160 samples (src/kernel/media/dual-channel-recorder.ts):
 *   the two sides stay paired, and a stall the thread's clock skipped is silence on both.
 * - A report this session cannot handle (a listener or the source throws) fails this call only
 *   (rtp-thread.ts catches it); a failure of the stream (a bad address) fails this call (`onFailed`).
 * `onFrame` gives what the peer says, `onSentFrame` what we send, one call per 20 ms frame.
 */
import type { AudioTransport, FrameSource, Keypad } from '../../../conversations/index';
import type { TimelineRecorder } from '../../../kernel/media/dual-channel-recorder';
import { TransportListeners } from '../../../kernel/media/transport-listeners';
import { eventOfDigit } from './dtmf';
import { FRAME, type MediaStats } from './rtp-stream';
import { PortTaken, type RtpThread, type StreamPeer } from './rtp-thread';
import type { TickReport } from './rtp-thread-protocol';
import type { RtpPortAllocator } from './rtp-ports';
import type { NegotiatedMedia } from './sdp';

export type { MediaStats } from './rtp-stream';

/** The agent's audio queued on the media thread ahead of its ticks, at most (10 frames: 200 ms). */
export const AHEAD_FRAMES = 10;

type Listener<T> = (value: T) => void;

const SILENCE = new Int16Array(FRAME);
/** One RFC 4733 digit on the wire: 100 ms of events, its end three times, then three packets of gap (rtp-stream.ts). */
const DIGIT_MS = 11 * 20;
/** What `w` waits in a keypad's keys. */
const KEY_PAUSE_MS = 500;

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
      } catch (error) {
        // Another program holds this pair: keep it marked as taken and try the next. Anything else
        // (the media thread died or could not start) gives the pair back and fails the call.
        if (!(error instanceof PortTaken)) {
          ports.free(port);
          throw error;
        }
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
    source.ahead?.onFlush(() => this.flush());
    this.feed();
  }

  /**
   * What is heard is for a conversation from now on: the agent's echo cancelled on the media thread,
   * and frames of echo only or of a key's tone silence to the listeners (the recording keeps them).
   */
  listen(on = true): void {
    if (!this.closed) this.thread.send({ op: 'listen', id: this.id, on });
  }

  /** Queues digits (0-9, *, #, A-D) as RFC 4733 events; false when the peer did not offer them. */
  sendDtmf(digits: string): boolean {
    if (this.media?.dtmfPayloadType == null) return false;
    for (const digit of digits) eventOfDigit(digit); // throws here, for the caller, on a digit that is not one
    this.thread.send({ op: 'dtmf', id: this.id, digits });
    return true;
  }

  /**
   * The call's keypad for the conversation: the peer's digits, and ours as RFC 4733 events, `w`
   * waiting 500 ms. A peer that offered no telephone-event takes no keys (press throws).
   */
  readonly keypad: Keypad = {
    onDigit: (listener) => this.onDtmf(listener),
    press: async (digits) => {
      for (const run of digits.split(/(w)/)) {
        if (this.closed) return;
        if (run === 'w') await delay(KEY_PAUSE_MS);
        else if (run) {
          if (!this.sendDtmf(run)) throw new Error('the other party takes no RFC 4733 keys');
          await delay(run.length * DIGIT_MS);
        }
      }
    },
  };

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
    // A frame sent before a flush reached the thread was dropped from the source's count already.
    if (report.sent >= this.barrier) this.source?.ahead?.sent();
    const silenceSent = report.sent < 0 && this.queued === 0;
    this.settle(Math.max(report.sent, report.flushed));
    this.recorder?.write(0, position, sent);
    for (const l of this.sentListeners) l(sent);
    this.pacingListener?.(lateMs);
    if (report.heard) {
      this.recorder?.write(1, position, report.heard);
      // What is left of the agent's own echo, or a key's tone, is not the caller speaking: silence to the conversation.
      this.listeners.heard(report.masked ? SILENCE : report.heard);
    }
    if (report.flowing) this.markFlowing();
    for (const digit of report.digits) for (const l of this.dtmfListeners) l(digit);
    // A tick that sent silence with nothing taken ahead: asked as a tick of its own clock would ask.
    if (silenceSent && this.source?.ahead && this.source.ahead.ready() === 0) this.source.nextFrame();
    this.feed();
  }

  /** The media thread's report that the stream failed (StreamPeer): the user agent hangs up. */
  failed(error: Error): void {
    const listener = this.failedListener;
    this.failedListener = null;
    listener?.(error);
    this.close();
  }

  /** Takes the agent's frames until `AHEAD_FRAMES` are queued on the thread (or the source has none ready). */
  private feed(): void {
    const source = this.source;
    if (!source || !this.media || this.closed) return;
    const ahead = source.ahead;
    const frames: { n: number; frame: Int16Array }[] = [];
    while (this.queued < AHEAD_FRAMES) {
      if (ahead && ahead.ready() === 0) break;
      const frame = ahead ? ahead.take() : source.nextFrame();
      if (!frame) break;
      const n = this.nextFrame++;
      this.pending.set(n, frame);
      frames.push({ n, frame });
    }
    if (frames.length > 0) this.thread.send({ op: 'queue', id: this.id, frames });
  }

  /** Drops what the thread has queued (the source was flushed: a barge-in, the end). */
  private flush(): void {
    if (this.nextFrame === this.barrier) return;
    this.barrier = this.nextFrame;
    this.thread.send({ op: 'flush', id: this.id, upTo: this.nextFrame - 1 });
  }

  /** Frames taken and queued on the thread, neither sent nor flushed yet. */
  private get queued(): number {
    return this.nextFrame - Math.max(this.settled, this.barrier);
  }

  /** Frames numbered up to `upTo` were sent or dropped: forgotten. */
  private settle(upTo: number): void {
    while (this.settled <= upTo) this.pending.delete(this.settled++);
  }
}

const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
