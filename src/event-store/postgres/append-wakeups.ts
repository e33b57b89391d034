import type { Pool, PoolClient } from 'pg';

/** At most one NOTIFY per this many ms: each is a statement of its own (a transaction). 20 ms saved
 *  about three per call at 50 calls/s, but then the instance that heard first kept winning every
 *  page, and the other's delivery worker, never woken by an outbox commit, sat idle (the two-instance
 *  kill -9 test found it): other instances must hear promptly. */
const NOTIFY_EVERY_MS = 5;

/**
 * The store's wake-up hints: local readers are called at once after an append; other instances get
 * `NOTIFY events_appended` (debounced) and hear it on one `LISTEN` connection per store, set up
 * again with a growing pause when it is lost. Only a hint: readers also poll.
 */
export class AppendWakeups {
  private readonly listeners = new Set<() => void>();
  private listenClient: PoolClient | null = null;
  private listening: Promise<void> | null = null;
  private listenRetry: NodeJS.Timeout | null = null;
  private listenFailures = 0;
  private notifyTimer: NodeJS.Timeout | null = null;
  private closed = false;

  /** `report`: background failures (a listener that threw, NOTIFY or LISTEN failing). */
  constructor(
    private readonly pool: Pool,
    private readonly report: (err: unknown) => void = () => undefined,
  ) {}

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    // One LISTEN connection however many readers register (they register concurrently at start).
    this.listening ??= this.startListening().finally(() => {
      this.listening = null;
    });
    return () => this.listeners.delete(listener);
  }

  close(): void {
    this.closed = true;
    if (this.listenRetry) clearTimeout(this.listenRetry);
    this.listenRetry = null;
    if (this.notifyTimer) clearTimeout(this.notifyTimer);
    this.notifyTimer = null;
    const client = this.listenClient;
    this.listenClient = null;
    if (client) {
      client.removeAllListeners('notification');
      client.release(true);
    }
    this.listeners.clear();
  }

  /** Local readers wake at once; other instances get one NOTIFY per 5 ms, sent outside the append
   *  transaction so that NOTIFY's commit-time queue lock never serialises appends. */
  appended(): void {
    this.emit();
    if (this.notifyTimer || this.closed) return;
    this.notifyTimer = setTimeout(() => {
      this.notifyTimer = null;
      if (!this.closed) this.pool.query("SELECT pg_notify('events_appended', '')").catch((err) => this.failed(err));
    }, NOTIFY_EVERY_MS);
    this.notifyTimer.unref();
  }

  /** Calls every listener; one that throws is reported, never thrown into the append that woke it. */
  private emit(): void {
    for (const listener of [...this.listeners]) {
      try {
        listener();
      } catch (err) {
        this.failed(err);
      }
    }
  }

  private failed(err: unknown): void {
    if (!this.closed) this.report(err);
  }

  private async startListening(): Promise<void> {
    if (this.listenClient || this.closed) return;
    try {
      const client = await this.pool.connect();
      if (this.closed) {
        client.release();
        return;
      }
      this.listenClient = client;
      client.on('notification', () => this.emit());
      client.on('error', (err) => this.listenLost(client, err));
      await client.query('LISTEN events_appended');
      this.listenFailures = 0;
    } catch (err) {
      if (this.listenClient) this.listenLost(this.listenClient, err);
      else {
        this.failed(err);
        this.relisten();
      }
    }
  }

  /**
   * A lost LISTEN connection only costs latency (readers poll as well), but it is given back to the
   * pool as broken (not leaked) and LISTEN is set up again, with a growing pause while the server
   * is away; readers are woken, since a notification may have been missed meanwhile.
   */
  private listenLost(client: PoolClient, err: unknown): void {
    if (this.listenClient !== client) return;
    this.failed(err);
    this.listenClient = null;
    client.removeAllListeners('notification');
    client.release(err instanceof Error ? err : true);
    this.relisten();
  }

  private relisten(): void {
    if (this.closed || this.listenRetry) return;
    const delay = Math.min(5_000, 100 * 2 ** this.listenFailures++);
    this.listenRetry = setTimeout(() => {
      this.listenRetry = null;
      if (this.closed || this.listeners.size === 0) return;
      this.listening ??= this.startListening().finally(() => {
        this.listening = null;
      });
      this.emit();
    }, delay);
    this.listenRetry.unref();
  }
}
