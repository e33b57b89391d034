import { comparePositions, EventStore, Page, pageEnd, Position, START } from '../../event-store/event-store.port';

/** Pages read at once when the store can read them concurrently (`EventStore.readPages`). */
export const DEFAULT_READ_DEPTH = 2;

/**
 * Reads the log page after page for one consumer, ahead of it: `depth` pages at a time (built
 * concurrently when the store can) and the next set while the consumer handles the current one.
 * A read returns a prefix of the final commit order (nothing can commit below the snapshot's xmin
 * later), so pages read ahead stay valid; they are used only when the consumer asks for the page
 * starting where they start, otherwise they are dropped and read again.
 */
export class PageReader {
  /** Pages read, not yet handed out, each with the position it starts after. */
  private ready: { from: Position; page: Page }[] = [];
  private ahead: { from: Position; pages: Promise<Page[] | null> } | null = null;

  constructor(
    private readonly store: EventStore,
    private readonly limit: number,
    private readonly depth = DEFAULT_READ_DEPTH,
  ) {}

  /** The page after `from`, as `store.readPage(from, limit)` would return it. */
  async read(from: Position): Promise<Page> {
    let head = this.ready[0];
    if (!head || comparePositions(head.from, from) !== 0) {
      this.ready = [];
      const ahead = this.ahead;
      this.ahead = null;
      const pages = ahead && comparePositions(ahead.from, from) === 0 ? await ahead.pages : null;
      // A page read ahead that came back empty may be stale: read again.
      // A read that was not ahead is one page, one statement: live, pages are short, and the
      // concurrent read costs a statement more (the page ends). Sets of pages are read ahead only
      // after a full page, that is while catching up.
      this.queue(
        from,
        pages && (pages[0]?.events.length ?? 0) > 0 ? pages : [await this.store.readPage(from, this.limit)],
      );
      head = this.ready[0];
    }
    this.ready.shift();
    this.readAheadAfter(this.ready[this.ready.length - 1]?.page ?? head?.page);
    return head?.page ?? { events: [], hidden: false };
  }

  /** Drops what was read ahead (the consumer moved elsewhere). */
  reset(): void {
    this.ready = [];
    this.ahead = null;
  }

  private fetch(from: Position): Promise<Page[]> {
    if (this.depth > 1 && this.store.readPages) return this.store.readPages(from, this.limit, this.depth);
    return this.store.readPage(from, this.limit).then((page) => [page]);
  }

  private queue(from: Position, pages: readonly Page[]): void {
    let at = from;
    for (const page of pages) {
      this.ready.push({ from: at, page });
      if (page.events.length === 0) break;
      at = pageEnd(at, page);
    }
  }

  /** After the last page known: read the next set while this one is handled, when it was full. */
  private readAheadAfter(last: Page | undefined): void {
    if (this.ahead || !last || last.events.length < this.limit) return;
    const from = pageEnd(last.events[0]?.position ?? START, last);
    this.ahead = { from, pages: this.fetch(from).catch(() => null) };
  }
}
