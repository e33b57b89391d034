import type { Pool, PoolClient } from 'pg';
import { PollingWorker } from './polling-worker';
import { comparePositions, EventStore, Position, START, StoredEvent } from '../event-store/event-store.port';

/**
 * A consumer of the global event order whose effects and checkpoint commit in one PostgreSQL
 * transaction: projections, the webhook outbox and reactors are all processors. A crash after
 * commit loses nothing and a crash before commit redoes the batch, so `handle` must be idempotent
 * only across restarts of the same batch, which the shared transaction already guarantees.
 */
export interface Processor {
  readonly name: string;
  /** Event types it reads; the checkpoint still moves past the others. */
  readonly handles: '*' | readonly string[];
  handle(tx: PoolClient, events: readonly StoredEvent[]): Promise<void>;
  /** Called after each committed batch, e.g. to wake the timer loop for timers scheduled in it. */
  afterCommit?(): void;
}

export interface RunnerOptions {
  batchSize?: number;
  /** Fallback polling interval; appends in this process and NOTIFY from others wake the runner sooner. */
  pollMs?: number;
  onError?: (err: unknown) => void;
  /** Called after each committed batch. An open processor transaction hides newer events from other
   *  readers (the snapshot-xmin rule), so its commit is the moment to wake them. */
  onCommitted?: () => void;
}

export class ProcessorRunner extends PollingWorker {
  private unsubscribe: (() => void) | null = null;
  private last: Position = START;
  private waiters: { position: Position; resolve: () => void }[] = [];
  private readonly accepts: (type: string) => boolean;
  private checkpointRowExists = false;
  /** The next page, read while the current one is handled. A read returns a prefix of the final
   *  commit order (nothing can commit below the snapshot's xmin later), so it stays valid. */
  private readAhead: { from: Position; events: Promise<StoredEvent[] | null> } | null = null;

  constructor(
    private readonly pool: Pool,
    private readonly store: EventStore,
    readonly processor: Processor,
    private readonly options: RunnerOptions = {},
  ) {
    super(`processor:${processor.name}`, { onError: options.onError });
    const handles = processor.handles;
    const set = handles === '*' ? null : new Set(handles);
    this.accepts = set === null ? () => true : (type) => set.has(type);
  }

  override start(): void {
    if (this.isRunning) return;
    this.unsubscribe = this.store.onAppended(() => this.poke());
    super.start();
  }

  override async stop(): Promise<void> {
    this.unsubscribe?.();
    this.unsubscribe = null;
    await super.stop();
  }

  protected async tick(): Promise<boolean> {
    return (await this.step()) > 0;
  }

  protected override idleMs(): number {
    return this.options.pollMs ?? 100;
  }

  /** Resolves once this processor has committed every event up to `position`. */
  waitFor(position: Position, timeoutMs = 10_000): Promise<boolean> {
    if (comparePositions(this.last, position) >= 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      this.waiters.push({ position, resolve: () => (clearTimeout(timer), resolve(true)) });
      this.poke();
    });
  }

  /** Processes everything available now, then returns: for tests, the CLI and rebuilds. */
  async drain(): Promise<number> {
    let total = 0;
    for (;;) {
      const n = await this.step();
      if (n === 0) return total;
      total += n;
    }
  }

  /**
   * One batch. The checkpoint and the events are read outside any transaction; the transaction only
   * applies the batch and moves the checkpoint from where it was read (`WHERE position = old`), so
   * when another instance got there first this one rolls back and reads again. Keeping transactions
   * short matters: readers see only events below the oldest running transaction.
   * Commits are asynchronous: everything a processor writes derives from durable events, and a
   * commit lost in a crash is redone from the checkpoint that was lost with it.
   */
  private async step(): Promise<number> {
    for (;;) {
      const from = await this.checkpoint();
      const events = await this.read(from);
      const lastEvent = events[events.length - 1];
      if (!lastEvent) {
        this.advanced(from);
        return 0;
      }
      if (events.length === this.batchSize()) this.startReadAhead(lastEvent.position);
      const relevant = events.filter((e) => this.accepts(e.type));
      if (await this.commit(relevant, from, lastEvent.position)) {
        if (relevant.length > 0) this.processor.afterCommit?.();
        this.options.onCommitted?.();
        this.advanced(lastEvent.position);
        return events.length;
      }
      this.readAhead = null;
    }
  }

  private async checkpoint(): Promise<Position> {
    if (!this.checkpointRowExists) {
      await this.pool.query(
        `INSERT INTO projection_checkpoints (name, commit_position, prepare_position) VALUES ($1, -1, -1)
         ON CONFLICT (name) DO NOTHING`,
        [this.processor.name],
      );
      this.checkpointRowExists = true;
    }
    const { rows } = await this.pool.query<{ commit_position: string; prepare_position: string }>({
      name: 'checkpoint_read',
      text: 'SELECT commit_position, prepare_position FROM projection_checkpoints WHERE name = $1',
      values: [this.processor.name],
    });
    const row = rows[0];
    return row ? { commit: BigInt(row.commit_position), prepare: BigInt(row.prepare_position) } : START;
  }

  /** Applies the batch and moves the checkpoint from `from` to `to`; false when another instance moved it. */
  private async commit(relevant: readonly StoredEvent[], from: Position, to: Position): Promise<boolean> {
    const tx = await this.pool.connect();
    try {
      await tx.query('BEGIN; SET LOCAL synchronous_commit = off');
      if (relevant.length > 0) await this.processor.handle(tx, relevant);
      const moved = await tx.query({
        name: 'checkpoint_move',
        text: `UPDATE projection_checkpoints SET commit_position = $2, prepare_position = $3, updated_at = now()
               WHERE name = $1 AND commit_position = $4 AND prepare_position = $5`,
        values: [
          this.processor.name,
          to.commit.toString(),
          to.prepare.toString(),
          from.commit.toString(),
          from.prepare.toString(),
        ],
      });
      if (moved.rowCount !== 1) {
        await tx.query('ROLLBACK');
        return false;
      }
      await tx.query('COMMIT');
      return true;
    } catch (err) {
      await tx.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      tx.release();
    }
  }

  private batchSize(): number {
    return this.options.batchSize ?? 2000;
  }

  private async read(from: Position): Promise<StoredEvent[]> {
    const ahead = this.readAhead;
    this.readAhead = null;
    if (ahead && comparePositions(ahead.from, from) === 0) {
      const events = await ahead.events;
      if (events && events.length > 0) return events;
    }
    return this.store.readAll(from, this.batchSize());
  }

  private startReadAhead(from: Position): void {
    this.readAhead = { from, events: this.store.readAll(from, this.batchSize()).catch(() => null) };
  }

  private advanced(position: Position): void {
    if (comparePositions(position, this.last) > 0) this.last = position;
    if (this.waiters.length === 0) return;
    const still: typeof this.waiters = [];
    for (const w of this.waiters) {
      if (comparePositions(this.last, w.position) >= 0) w.resolve();
      else still.push(w);
    }
    this.waiters = still;
  }
}
