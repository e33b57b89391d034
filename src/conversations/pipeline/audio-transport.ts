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
}

export interface FrameSource {
  /** The next 20 ms frame to send (exactly sampleRate / 50 samples), or null for silence. */
  nextFrame(): Int16Array | null;
  /**
   * Tells `listener` each time the source drops what it had not given yet (a barge-in): a transport
   * that took frames ahead of its clock (the SIP media thread) drops them too. One listener.
   */
  onFlush?(listener: () => void): void;
}

/** Samples in one 20 ms frame at `sampleRate`. */
export const frameSamples = (sampleRate: number): number => sampleRate / 50;
