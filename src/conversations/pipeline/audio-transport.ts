/**
 * Where a conversation's audio comes from and goes to: one port for every media path (a room's
 * WebRTC peer, a test persona, the media gateway, a SIP call). Frames are 20 ms of mono 16-bit PCM at
 * the transport's `sampleRate` (8, 16 or 48 kHz); the pipeline converts to what its engines take.
 */
export interface AudioTransport {
  /** Samples per second of the frames both ways: 8000, 16000 or 48000. */
  readonly sampleRate: number;
  /** Every 20 ms frame heard from the other party, in order, as it arrives. Returns an unsubscribe. */
  onFrame(listener: (frame: Int16Array) => void): () => void;
  /**
   * The agent's voice: from now on the transport asks `source` for one 20 ms frame per tick of its
   * own clock (real time), and sends silence when it answers null. The tick is where pacing lives.
   */
  play(source: FrameSource): void;
  /** Called once when the other party or the medium ends the call. Returns an unsubscribe. */
  onClosed(listener: () => void): () => void;
  /** Present when the medium carries keys (a phone call): the other party's presses, and the agent's. */
  readonly keypad?: Keypad;
}

/** The telephone keypad of a call: keys are 0-9, *, # and A-D. */
export interface Keypad {
  /** Each key the other party pressed, once (RFC 4733 events or tones in the audio). Returns an unsubscribe. */
  onDigit(listener: (digit: string) => void): () => void;
  /** Presses `digits` in order, where `w` waits 500 ms; resolves once all went out. Throws on any other character. */
  press(digits: string): Promise<void>;
}

export interface FrameSource {
  /** The next 20 ms frame to send (exactly sampleRate / 50 samples), or null for silence. */
  nextFrame(): Int16Array | null;
  /** Present when the source may be taken ahead of the transport's clock (OutputQueue). */
  readonly ahead?: AheadSource;
}

/**
 * A source as a transport that queues frames ahead of its clock takes it (the SIP media thread,
 * which holds up to 200 ms): frames are taken only while some are ready, so that taking none is not a
 * gap; the transport says when each was sent, so that the source is idle only once all were; and a
 * flush of the source (a barge-in, the end) tells the transport to drop what it took.
 */
export interface AheadSource {
  /** Frames that can be taken now (an answer's pieces not yet synthesised are not). */
  ready(): number;
  /** The next frame, counted as in the transport until `sent`; null when none is ready. */
  take(): Int16Array | null;
  /** One frame taken was sent to the peer. */
  sent(): void;
  /** Calls `listener` each time the source drops what it had not sent (one listener). */
  onFlush(listener: () => void): void;
}

/** Samples in one 20 ms frame at `sampleRate`. */
export const frameSamples = (sampleRate: number): number => sampleRate / 50;
