import type { ListPage } from './types.js';

/**
 * The answer of a list method: awaiting it gives the first page (`{data, has_more}`), and
 * `for await (const item of list)` walks every item of every page, fetching the next page (with the
 * last item's id as the cursor) only when it is needed.
 */
export class AutoPaginatingList<T> implements PromiseLike<ListPage<T>>, AsyncIterable<T> {
  private first: Promise<ListPage<T>> | null = null;

  constructor(
    private readonly fetchPage: (cursor: string | undefined) => Promise<ListPage<T>>,
    private readonly cursorOf: (item: T) => string,
  ) {}

  then<R1 = ListPage<T>, R2 = never>(
    onFulfilled?: ((page: ListPage<T>) => R1 | PromiseLike<R1>) | null,
    onRejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.firstPage().then(onFulfilled, onRejected);
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    let page = await this.firstPage();
    for (;;) {
      for (const item of page.data) yield item;
      const last = page.data[page.data.length - 1];
      if (!page.has_more || last === undefined) return;
      page = await this.fetchPage(this.cursorOf(last));
    }
  }

  /** Every item of every page, in one array (mind the size of what you list). */
  async toArray(limit = Infinity): Promise<T[]> {
    const items: T[] = [];
    for await (const item of this) {
      if (items.length >= limit) break;
      items.push(item);
    }
    return items;
  }

  private firstPage(): Promise<ListPage<T>> {
    return (this.first ??= this.fetchPage(undefined));
  }
}
