/**
 * Media toolkit (src/kernel/media/): the listeners an audio transport keeps, the same for every media
 * path (a room's WebRTC peer, an RTP session, a loopback call): the frames heard, and the end, told
 * once (also to a listener added after it). A listener that throws is dropped: its bug must not reach
 * the media path's packet handling.
 */
export class TransportListeners {
  private readonly frames = new Set<(frame: Int16Array) => void>();
  private readonly ends = new Set<() => void>();
  private ended = false;

  onFrame(listener: (frame: Int16Array) => void): () => void {
    if (this.ended) return () => undefined;
    this.frames.add(listener);
    return () => this.frames.delete(listener);
  }

  onClosed(listener: () => void): () => void {
    if (this.ended) {
      listener();
      return () => undefined;
    }
    this.ends.add(listener);
    return () => this.ends.delete(listener);
  }

  /** Hands a frame heard to every frame listener. */
  heard(frame: Int16Array): void {
    for (const listener of this.frames) {
      try {
        listener(frame);
      } catch {
        this.frames.delete(listener);
      }
    }
  }

  get isClosed(): boolean {
    return this.ended;
  }

  /** Tells every end listener, once; then forgets all listeners. */
  closed(): void {
    if (this.ended) return;
    this.ended = true;
    for (const listener of this.ends) {
      try {
        listener();
      } catch {
        // As for frames: one listener's bug does not keep the others from hearing of the end.
      }
    }
    this.ends.clear();
    this.frames.clear();
  }
}
