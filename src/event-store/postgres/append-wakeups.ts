import { randomUUID } from 'node:crypto';
import type { Pool, PoolClient } from 'pg';
import type { AppendOrigin } from '../event-store.port';

/** At most one NOTIFY per this many ms: each is a statement of its own (a transaction). 20 ms saved
 *  a few per call (docs/benchmarks.md), but then the instance that heard first kept winning every
 *  page, and the other's delivery worker, never woken by an outbox commit, sat idle (the two-instance
 *  kill -9 test found it): other instances must hear promptly. */
const NOTIFY_EVERY_MS = 5;
/** How long the answer to "does another process listen?" is trusted while appends go on. */
const PEERS_CHECK_EVERY_MS = 1_000;
const CHANNEL_LISTEN = 'LISTEN events_appended';

/**
 * The store's wake-up hints: local readers are called at once after an append; other instances get
 * `NOTIFY events_appended` (debounced) and hear it on one `LISTEN` connection per store, set up
 * again with a growing pause when it is lost. Only a hint: readers also poll.
 *
 * A NOTIFY is a transaction of its own, so it is sent only when another process listens: whether
 * one does is read from pg_stat_activity (another backend whose last statement is the LISTEN, or
 * one this role may not see), at most once a second while appends go on, never when idle (decision
 * 161). A process that starts listening is heard from within that second; meanwhile its readers
 * poll. Each NOTIFY carries this store's id, so that its own echo does not wake its readers twice.
 */
export class AppendWakeups {
  private readonly listeners = new Set<(origin: AppendOrigin, streams?: readonly string[]) => void>();
  /** Sent with every NOTIFY: this store's own notifications are ignored when they come back. */
  private readonly id = randomUUID();
  /** Whether another process listened at the last check (shared while it runs), and when it was made. */
  private peers: Promise<boolean> = Promise.resolve(true);
  private peersCheckedAt = -Infinity;
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

  subscribe(listener: (origin: AppendOrigin, streams?: readonly string[]) => void): () => void {
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

  /** Local readers wake at once, told which streams were appended to; other instances get one NOTIFY
   *  per 5 ms, sent outside the append transaction so that NOTIFY's commit-time queue lock never
   *  serialises appends. */
  appended(streams: readonly string[]): void {
    this.emit('local', streams);
    if (this.notifyTimer || this.closed) return;
    this.notifyTimer = setTimeout(() => {
      this.notifyTimer = null;
      if (!this.closed) this.notifyPeers().catch((err) => this.failed(err));
    }, NOTIFY_EVERY_MS);
    this.notifyTimer.unref();
  }

  private async notifyPeers(): Promise<void> {
    if (Date.now() - this.peersCheckedAt >= PEERS_CHECK_EVERY_MS) {
      this.peersCheckedAt = Date.now();
      this.peers = this.othersListen().catch(() => true);
    }
    if ((await this.peers) && !this.closed) await this.pool.query("SELECT pg_notify('events_appended', $1)", [this.id]);
  }

  /**
   * Whether a backend other than this store's listener has `LISTEN events_appended` as its last
   * statement (a listening connection runs nothing else) or hides its statement from this role:
   * then it may be a listener, and it is told.
   */
  private async othersListen(): Promise<boolean> {
    const own = this.listenClient ? listenerPid(this.listenClient) : null;
    const { rows } = await this.pool.query<{ found: boolean }>(
      `SELECT EXISTS (
         SELECT 1 FROM pg_stat_activity
         WHERE datname = current_database() AND pid <> pg_backend_pid() AND pid <> coalesce($1::int, 0)
           AND (query = $2 OR query = '<insufficient privilege>')
       ) AS found`,
      [own, CHANNEL_LISTEN],
    );
    return rows[0]?.found ?? true;
  }

  /** Calls every listener; one that throws is reported, never thrown into the append that woke it. */
  private emit(origin: AppendOrigin, streams?: readonly string[]): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(origin, streams);
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
      // This store's own NOTIFY coming back: its readers were woken when it appended.
      client.on('notification', (message: { payload?: string }) => {
        if (message.payload !== this.id) this.emit('remote');
      });
      client.on('error', (err) => this.listenLost(client, err));
      await client.query(CHANNEL_LISTEN);
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
      this.emit('remote');
    }, delay);
    this.listenRetry.unref();
  }
}

/** The backend process id of a pooled connection (node-postgres keeps it on the client). */
function listenerPid(client: PoolClient): number | null {
  const pid = (client as PoolClient & { processID?: unknown }).processID;
  return typeof pid === 'number' ? pid : null;
}
