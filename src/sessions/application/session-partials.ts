/**
 * The words heard so far of a caller's utterance in progress (a streaming recogniser's interim
 * results), for the live view's `partial_transcript` (session-live.ts, docs/conversations-api.md,
 * "Live view"). Never stored: they are many and transient, so they are best effort.
 *
 * `publish` is called where the call is carried; a live view may be served by any instance. At most
 * one partial per session per 100 ms goes on (the first at once, then the newest of each window):
 * to this instance's live views of the session at once, and to the other instances' as
 * `NOTIFY session_partials` (JSON: publisher id, session, content, t), heard on one `LISTEN`
 * connection per instance, held only while a live view is open there. A NOTIFY is a transaction of
 * its own, so it is sent only when another process listens: that is read from pg_stat_activity at
 * most once a second while partials flow (as the event store's append wake-ups do,
 * event-store/postgres/append-wakeups.ts). A view opened on another instance hears partials from
 * within that second; a notification lost while its LISTEN connection is down is not made up for.
 */
import { randomUUID } from 'node:crypto';
import { BeforeApplicationShutdown, Inject, Injectable, Logger } from '@nestjs/common';
import { PG_POOL } from '../../infra/database/database.tokens';

/** One partial: the words so far, and `t`, the utterance's start in seconds from the session's. */
export interface PartialTranscript {
  content: string;
  t: number;
}

/** What of the service's pg Pool this uses (PG_POOL). */
export interface PartialsPool {
  query(sql: string, params: unknown[]): Promise<{ rows: unknown[] }>;
  connect(): Promise<ListeningClient>;
}

/** What of a pooled pg client the LISTEN connection uses. */
export interface ListeningClient {
  query(sql: string): Promise<unknown>;
  on(event: 'notification', listener: (message: { channel?: string; payload?: string }) => void): unknown;
  on(event: 'error', listener: (err: Error) => void): unknown;
  removeAllListeners(event: 'notification'): unknown;
  release(err?: Error | boolean): void;
  /** The backend's process id (node-postgres keeps it on the client). */
  processID?: unknown;
}

/** At most one partial per session per this many ms (newest wins). */
export const PARTIALS_EVERY_MS = 100;
/** How long the answer to "does another process listen?" is trusted while partials flow. */
const PEERS_CHECK_EVERY_MS = 1_000;
/** The LISTEN connection is kept this long after the last live view here closed (a client reconnecting). */
const LISTEN_LINGER_MS = 5_000;
const CHANNEL = 'session_partials';
const CHANNEL_LISTEN = `LISTEN ${CHANNEL}`;
/** A NOTIFY payload must stay under 8000 bytes: the content is cut to fit. */
const MAX_PAYLOAD_BYTES = 7_800;

interface Throttle {
  pending: PartialTranscript | null;
  timer: NodeJS.Timeout;
}

@Injectable()
export class SessionPartials implements BeforeApplicationShutdown {
  private readonly logger = new Logger('SessionPartials');
  /** Sent with every NOTIFY: this instance's own notifications are ignored when they come back. */
  private readonly id = randomUUID();
  private readonly listeners = new Map<string, Set<(partial: PartialTranscript) => void>>();
  private readonly throttles = new Map<string, Throttle>();
  private peers: Promise<boolean> = Promise.resolve(false);
  private peersCheckedAt = -Infinity;
  private listenClient: ListeningClient | null = null;
  private listening: Promise<void> | null = null;
  private listenRetry: NodeJS.Timeout | null = null;
  private listenLinger: NodeJS.Timeout | null = null;
  private listenFailures = 0;
  private closed = false;

  constructor(@Inject(PG_POOL) private readonly pool: PartialsPool) {}

  /** The words so far of the session's utterance in progress: to its live views, wherever they are. */
  publish(sessionId: string, partial: PartialTranscript): void {
    if (this.closed) return;
    const throttle = this.throttles.get(sessionId);
    if (throttle) {
      throttle.pending = { content: partial.content, t: partial.t };
      return;
    }
    this.deliver(sessionId, partial);
    const next: Throttle = { pending: null, timer: setTimeout(() => this.window(sessionId, next), PARTIALS_EVERY_MS) };
    next.timer.unref();
    this.throttles.set(sessionId, next);
  }

  /** Calls `listener` with each partial of the session published on any instance, until unsubscribed. */
  subscribe(sessionId: string, listener: (partial: PartialTranscript) => void): () => void {
    let set = this.listeners.get(sessionId);
    if (!set) this.listeners.set(sessionId, (set = new Set()));
    set.add(listener);
    if (this.listenLinger) clearTimeout(this.listenLinger);
    this.listenLinger = null;
    this.listen();
    return () => {
      if (!set.delete(listener)) return;
      if (set.size === 0 && this.listeners.get(sessionId) === set) this.listeners.delete(sessionId);
      if (this.listeners.size === 0 && !this.closed && !this.listenLinger) {
        this.listenLinger = setTimeout(() => {
          this.listenLinger = null;
          if (this.listeners.size === 0) this.unlisten();
        }, LISTEN_LINGER_MS);
        this.listenLinger.unref();
      }
    };
  }

  /** Before the pool closes: the LISTEN connection is given back, nothing more is sent. */
  beforeApplicationShutdown(): void {
    this.closed = true;
    for (const throttle of this.throttles.values()) clearTimeout(throttle.timer);
    this.throttles.clear();
    for (const timer of [this.listenRetry, this.listenLinger]) if (timer) clearTimeout(timer);
    this.listenRetry = null;
    this.listenLinger = null;
    this.unlisten();
  }

  /** A throttle's window is over: its newest partial goes on (and opens another window), else it ends. */
  private window(sessionId: string, throttle: Throttle): void {
    const partial = throttle.pending;
    if (!partial || this.closed) {
      if (this.throttles.get(sessionId) === throttle) this.throttles.delete(sessionId);
      return;
    }
    throttle.pending = null;
    this.deliver(sessionId, partial);
    throttle.timer = setTimeout(() => this.window(sessionId, throttle), PARTIALS_EVERY_MS);
    throttle.timer.unref();
  }

  private deliver(sessionId: string, partial: PartialTranscript): void {
    this.emit(sessionId, partial);
    this.notifyPeers(sessionId, partial).catch((err: unknown) => this.failed('NOTIFY', err));
  }

  /** This instance's live views of the session; one that throws is logged, never thrown to the publisher. */
  private emit(sessionId: string, partial: PartialTranscript): void {
    for (const listener of [...(this.listeners.get(sessionId) ?? [])]) {
      try {
        listener(partial);
      } catch (err) {
        this.failed('a live view', err);
      }
    }
  }

  private async notifyPeers(sessionId: string, partial: PartialTranscript): Promise<void> {
    if (Date.now() - this.peersCheckedAt >= PEERS_CHECK_EVERY_MS) {
      this.peersCheckedAt = Date.now();
      this.peers = this.othersListen().catch(() => true);
    }
    if (!(await this.peers) || this.closed) return;
    await this.pool.query('SELECT pg_notify($1, $2)', [CHANNEL, payloadOf(this.id, sessionId, partial)]);
  }

  /**
   * Whether a backend other than this instance's listener has `LISTEN session_partials` as its last
   * statement (a listening connection runs nothing else) or hides its statement from this role.
   */
  private async othersListen(): Promise<boolean> {
    const own = this.listenClient ? backendPid(this.listenClient) : null;
    const { rows } = await this.pool.query(
      `SELECT EXISTS (
         SELECT 1 FROM pg_stat_activity
         WHERE datname = current_database() AND pid <> pg_backend_pid() AND pid <> coalesce($1::int, 0)
           AND (query = $2 OR query = '<insufficient privilege>')
       ) AS found`,
      [own, CHANNEL_LISTEN],
    );
    const found = (rows[0] as { found?: unknown } | undefined)?.found;
    return typeof found === 'boolean' ? found : true;
  }

  private listen(): void {
    if (this.closed || this.listenClient || this.listenRetry) return;
    this.listening ??= this.startListening().finally(() => {
      this.listening = null;
    });
  }

  private async startListening(): Promise<void> {
    let client: ListeningClient | null = null;
    try {
      client = await this.pool.connect();
      if (this.closed || this.listeners.size === 0) {
        client.release();
        return;
      }
      this.listenClient = client;
      const listener = client;
      listener.on('notification', (message: { channel?: string; payload?: string }) => {
        if (message.channel !== CHANNEL || !message.payload) return;
        const heard = partialOf(message.payload);
        if (heard && heard.from !== this.id) this.emit(heard.sessionId, heard.partial);
      });
      listener.on('error', (err) => this.listenLost(listener, err));
      await listener.query(CHANNEL_LISTEN);
      this.listenFailures = 0;
    } catch (err) {
      if (client && this.listenClient === client) this.listenLost(client, err);
      else if (!client) {
        this.failed('LISTEN', err);
        this.relisten();
      }
    }
  }

  /** The LISTEN connection is lost: given back as broken, and set up again after a growing pause. */
  private listenLost(client: ListeningClient, err: unknown): void {
    if (this.listenClient !== client) return;
    this.failed('LISTEN', err);
    this.listenClient = null;
    client.removeAllListeners('notification');
    client.release(err instanceof Error ? err : true);
    this.relisten();
  }

  private relisten(): void {
    if (this.closed || this.listenRetry || this.listeners.size === 0) return;
    const delay = Math.min(5_000, 100 * 2 ** this.listenFailures++);
    this.listenRetry = setTimeout(() => {
      this.listenRetry = null;
      if (this.listeners.size > 0) this.listen();
    }, delay);
    this.listenRetry.unref();
  }

  /** No live view here: the LISTEN connection is closed (not given back listening to the pool). */
  private unlisten(): void {
    const client = this.listenClient;
    this.listenClient = null;
    if (!client) return;
    client.removeAllListeners('notification');
    client.release(true);
  }

  private failed(what: string, err: unknown): void {
    if (!this.closed) this.logger.warn(`partial transcripts, ${what}: ${(err as Error)?.message ?? String(err)}`);
  }
}

/** The NOTIFY payload of a partial, its content cut until the payload fits. */
function payloadOf(from: string, sessionId: string, partial: PartialTranscript): string {
  let content = partial.content;
  for (;;) {
    const payload = JSON.stringify({ from, session_id: sessionId, content, t: partial.t });
    const bytes = Buffer.byteLength(payload);
    if (bytes <= MAX_PAYLOAD_BYTES) return payload;
    content = content.slice(0, Math.floor((content.length * MAX_PAYLOAD_BYTES) / bytes) - 1);
  }
}

/** A NOTIFY payload read back; null when it is not one (nothing else is sent on the channel). */
function partialOf(payload: string): { from: string; sessionId: string; partial: PartialTranscript } | null {
  try {
    const data = JSON.parse(payload) as Record<string, unknown>;
    const { from, session_id, content, t } = data;
    if (typeof from !== 'string' || typeof session_id !== 'string') return null;
    if (typeof content !== 'string' || typeof t !== 'number') return null;
    return { from, sessionId: session_id, partial: { content, t } };
  } catch {
    return null;
  }
}

/** The backend process id of a pooled connection. */
function backendPid(client: ListeningClient): number | null {
  return typeof client.processID === 'number' ? client.processID : null;
}
