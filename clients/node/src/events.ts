import { VoiceAgentError } from './errors.js';
import type { RequestOptions, Transport } from './http.js';
import type { FeedEvent, ListPage } from './types.js';
import { AutoPaginatingList } from './pagination.js';
import type { ListEventsParams } from './resources.js';

export interface FollowOptions {
  /** Start after this event id; default: the start of the feed. */
  after?: string | null;
  /** Only this catalog type (the feed's `type` filter). */
  type?: string;
  /** Seconds each long poll is held (1-30, default 25). */
  waitSeconds?: number;
  /** Stops following: the iterator ends. */
  signal?: AbortSignal;
  /** Called when a poll failed and will be tried again (the service is down, or answered 429 or 5xx). */
  onRetry?: (error: VoiceAgentError, delayMs: number) => void;
}

/** The tenant's events feed (`GET /v1/events`): catalog events in commit order, as webhook envelopes. */
export class Events {
  constructor(private readonly t: Transport) {}

  /** In commit order after `after`. `await` it for one page, or `for await` over every event up to now. */
  list(params: Omit<ListEventsParams, 'wait'> = {}, options?: RequestOptions): AutoPaginatingList<FeedEvent> {
    return new AutoPaginatingList(
      (cursor) => this.page({ ...params, ...(cursor === undefined ? {} : { after: cursor }) }, options),
      (e) => e.id,
    );
  }

  /** One page; with `wait` (seconds, at most 30) the request is held until an event follows the cursor. */
  async page(params: ListEventsParams = {}, options: RequestOptions = {}): Promise<ListPage<FeedEvent>> {
    const wait = params.wait ?? 0;
    const page = await this.t.body(
      this.t.api.GET('/v1/events', {
        params: { query: params },
        ...this.t.with({ ...options, timeoutMs: options.timeoutMs ?? (wait > 0 ? (wait + 15) * 1000 : undefined) }),
      }),
    );
    // The document types an item as any envelope; the event union (generated from the same catalog)
    // names each type's `data`.
    return { data: page.data as FeedEvent[], has_more: page.has_more };
  }

  /** The id of the newest event (the feed's tail now), or null when the tenant has none. */
  async latestId(options?: RequestOptions): Promise<string | null> {
    const page = await this.page({ order: 'desc', limit: 1 }, options);
    return page.data[0]?.id ?? null;
  }

  /**
   * Follows the feed with long polling, forever (until `signal` aborts): yields each event once, in
   * commit order, after `after`. Polls that fail for a passing reason (no connection, 429, 5xx) are
   * tried again with backoff; other errors (a bad key, an unknown cursor) end it with the error.
   */
  async *follow(options: FollowOptions = {}): AsyncGenerator<FeedEvent, void, undefined> {
    let after = options.after ?? undefined;
    const wait = Math.min(30, Math.max(1, options.waitSeconds ?? 25));
    let failures = 0;
    while (!options.signal?.aborted) {
      let page: ListPage<FeedEvent>;
      try {
        page = await this.page(
          { after, type: options.type, wait, limit: 100 },
          { signal: options.signal, maxRetries: 0 },
        );
        failures = 0;
      } catch (err) {
        if (options.signal?.aborted) return;
        if (!(err instanceof VoiceAgentError) || !(err.status === 0 || err.status === 429 || err.status >= 500))
          throw err;
        const delay = Math.min(10_000, 500 * 2 ** failures++);
        options.onRetry?.(err, delay);
        await new Promise((resolve) => setTimeout(resolve, delay));
        continue;
      }
      for (const event of page.data) {
        after = event.id;
        yield event;
      }
    }
  }
}
