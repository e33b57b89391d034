import { Logger } from '@nestjs/common';
import type { Pool } from 'pg';
import { EventStore, pageEnd, Position, START, StoredEvent } from '../../event-store/event-store.port';
import { LogWorker } from '../workers/log-worker';

/** Called with the observed events of the types it asked for, in commit order. Must not throw or block. */
export type LogCallback = (events: readonly StoredEvent[]) => void;

export interface LogObserverOptions {
  /** Where to start; default: the start of the log. The runtime passes the furthest processor checkpoint. */
  readonly startFrom?: () => Promise<Position>;
  /** Events per read. Default 1,000. */
  readonly pageSize?: number;
  /** Sleep when nothing new was found and no wake-up came; at least 1 s. Default 1 s. */
  readonly pollMs?: number;
  /** Least time between two reads that follow a wake-up, so a busy log costs at most a read per interval. Default 100 ms. */
  readonly minIntervalMs?: number;
}

/**
 * A non-checkpointed observer of the log's tail, for in-process caches that an event invalidates (in
 * every instance): callbacks registered with `observe(types, callback)` get the new events of those
 * types. It remembers its position in memory only: after a restart it starts again near the end of
 * the log (caches start empty then). It is a hint with a bound, never a source of truth: it sees an
 * event some time after its commit (a wake-up, at most `minIntervalMs`, plus the store's commit-order
 * delay), so whoever relies on it also bounds how long it trusts what it caches.
 *
 * The feed is `publish(events)`: today this worker's own `readAll` rounds, woken by the store's
 * `onAppended` hint and a slow poll; a shared log read may call it instead.
 */
/** What the observer reads of the event store: pages of the log, and the append hint. */
export type ObservedLog = Pick<EventStore, 'readPage' | 'onAppended'>;

export class LogObserver extends LogWorker<ObservedLog> {
  private readonly logger = new Logger('LogObserver');
  private readonly observers: { types: ReadonlySet<string> | '*'; callback: LogCallback }[] = [];
  private position: Position | null = null;
  private lastReadAt = 0;
  constructor(
    store: ObservedLog,
    private readonly options: LogObserverOptions = {},
  ) {
    super('log-observer', store, { onError: (err) => this.logger.warn(`reading the log failed: ${String(err)}`) });
  }

  /** Registers `callback` for events of `types` (`'*'`: all); returns a function that unregisters it. */
  observe(types: readonly string[] | '*', callback: LogCallback): () => void {
    const observer = { types: types === '*' ? types : new Set(types), callback };
    this.observers.push(observer);
    return () => {
      const i = this.observers.indexOf(observer);
      if (i >= 0) this.observers.splice(i, 1);
    };
  }

  /** Hands `events` (in commit order) to the callbacks that asked for their types. */
  publish(events: readonly StoredEvent[]): void {
    for (const { types, callback } of this.observers) {
      const wanted = types === '*' ? events : events.filter((e) => types.has(e.type));
      if (wanted.length === 0) continue;
      try {
        callback(wanted);
      } catch (err) {
        this.logger.error(
          `an observer of ${types === '*' ? 'all events' : [...types].join(', ')} failed: ${String(err)}`,
        );
      }
    }
  }

  /** Where the observer starts (`startFrom`), taken once, before the instance serves requests. */
  async takePosition(): Promise<Position> {
    return (this.position ??= this.options.startFrom ? await this.options.startFrom() : START);
  }

  protected async tick(): Promise<boolean> {
    if (this.observers.length === 0) return false;
    const from = await this.takePosition();
    const pageSize = this.options.pageSize ?? 1000;
    const wait = this.lastReadAt + (this.options.minIntervalMs ?? 100) - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const page = await this.store.readPage(from, pageSize);
    const { events } = page;
    this.position = pageEnd(from, page);
    if (events.length === 0) {
      this.lastReadAt = Date.now();
      return false;
    }
    this.publish(events);
    // A full page: more is waiting, read it at once (catching up is not throttled).
    if (events.length === pageSize) return true;
    this.lastReadAt = Date.now();
    return false;
  }

  protected override idleMs(): number {
    return Math.max(1000, this.options.pollMs ?? 1000);
  }
}

/**
 * The furthest position any processor has committed (START when none has): where the observer starts,
 * so that it does not read the history. That is the end of the log give or take the processors' lag,
 * and the events after it are all observed.
 */
export async function furthestCheckpoint(pool: Pool, identity: string): Promise<Position> {
  const { rows } = await pool.query<{ commit_position: string; prepare_position: string }>(
    `SELECT commit_position, prepare_position FROM projection_checkpoints WHERE event_store = $1
     ORDER BY commit_position DESC, prepare_position DESC LIMIT 1`,
    [identity],
  );
  const row = rows[0];
  return row ? { commit: BigInt(row.commit_position), prepare: BigInt(row.prepare_position) } : START;
}
