/** The listeners of a store's background failures (`EventStore.onError`), shared by both adapters. */
export class ErrorListeners {
  private readonly listeners = new Set<(err: unknown) => void>();

  add(listener: (err: unknown) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** Tells every listener; one that throws has nobody left to tell, and does not stop the others. */
  report(err: unknown): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(err);
      } catch {
        // nothing to do
      }
    }
  }

  clear(): void {
    this.listeners.clear();
  }
}
