/**
 * The process's drain signal. main.ts starts it on SIGTERM before the HTTP server stops taking
 * requests; a request that holds itself open (a long poll on `GET /v1/events?wait=`) listens to it
 * and answers at once, so that the drain does not wait for its timer.
 */
export class DrainSignal {
  private closingNow = false;
  private readonly listeners = new Set<() => void>();

  get closing(): boolean {
    return this.closingNow;
  }

  /** Calls `listener` once when draining starts (at once if it has); returns a function that unregisters it. */
  onDrain(listener: () => void): () => void {
    if (this.closingNow) {
      listener();
      return () => undefined;
    }
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  start(): void {
    if (this.closingNow) return;
    this.closingNow = true;
    for (const listener of [...this.listeners]) listener();
    this.listeners.clear();
  }
}

export const draining = new DrainSignal();
