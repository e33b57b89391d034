/**
 * Items added in one turn of the event loop, written together: `add` resolves once the batch that
 * holds its item was written. Items added while a batch is being written form the next batch.
 * `write` handles its own failure (it must not reject): the timers service logs it, and the rows
 * stay claimed until their lease lapses.
 */
export class TurnBatch<T> {
  private pending: { item: T; done: () => void }[] = [];
  private writing = false;

  constructor(private readonly write: (items: T[]) => Promise<void>) {}

  add(item: T): Promise<void> {
    return new Promise((done) => {
      this.pending.push({ item, done });
      if (this.writing) return;
      this.writing = true;
      setImmediate(() => void this.flush());
    });
  }

  private async flush(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0);
      await this.write(batch.map((b) => b.item));
      for (const b of batch) b.done();
    }
    this.writing = false;
  }
}
