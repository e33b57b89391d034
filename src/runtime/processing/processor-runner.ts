import type { Pool, PoolClient } from 'pg';
import { LogWorker } from '../workers/log-worker';
import {
  comparePositions,
  EventStore,
  Page,
  pageEnd,
  Position,
  START,
  StoredEvent,
} from '../../event-store/event-store.port';
import { newId } from '../../kernel/ids';
import { describeFailure, EventFailedError, isTransientFailure, type EventFailure } from './processor-failures';
import { PageReader } from './page-reader';

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
  /** Tries of one event, each in a transaction of its own, before it is set aside as a dead letter
   *  and the processor moves on (PROCESSOR_MAX_ATTEMPTS). Default 5. */
  maxAttempts?: number;
  /** After each failed try of one event (transient database failures are not tries). */
  onEventFailed?: (failure: Readonly<EventFailure>) => void;
  /** After a dead letter committed with the checkpoint move past its event. */
  onDeadLettered?: (letter: DeadLettered) => void;
  /** Pages read at once, concurrently, where the store can (default 2); 1 reads one page at a time. */
  readDepth?: number;
}

/** An event this runner set aside: it is in `dead_letters` and the checkpoint has moved past it. */
export interface DeadLettered {
  readonly id: string;
  readonly failure: Readonly<EventFailure>;
}

export class ProcessorRunner extends LogWorker {
  /** The checkpoint as stored, as far as this instance knows; null until read (and after another
   *  instance was found to have moved it). Every move is conditional on it. */
  private stored: Position | null = null;
  /** How far this processor has got: past `stored` by events it ignores, whose checkpoint move waits
   *  for its next transaction (a restart reads them again and ignores them again). */
  private at: Position = START;
  private waiters: { position: Position; resolve: () => void }[] = [];
  readonly accepts: (type: string) => boolean;
  /** Reads the next pages while the current one is handled (and several at once where the store can). */
  private readonly reader: PageReader;
  /** Events that failed alone and have tries left, by event id. At most the first relevant event of
   *  the next page is here: the checkpoint stops just before an event that fails. */
  private readonly failing = new Map<string, EventFailure>();

  constructor(
    private readonly pool: Pool,
    store: EventStore,
    readonly processor: Processor,
    private readonly options: RunnerOptions = {},
  ) {
    super(`processor:${processor.name}`, store, { onError: options.onError });
    this.reader = new PageReader(store, this.batchSize(), options.readDepth);
    const handles = processor.handles;
    const set = handles === '*' ? null : new Set(handles);
    this.accepts = set === null ? () => true : (type) => set.has(type);
  }

  protected async tick(): Promise<boolean> {
    return (await this.step()) > 0;
  }

  protected override idleMs(): number {
    return this.options.pollMs ?? 100;
  }

  /** Resolves once this processor has committed every event up to `position`. */
  waitFor(position: Position, timeoutMs = 10_000): Promise<boolean> {
    if (comparePositions(this.at, position) >= 0) return Promise.resolve(true);
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

  /** How far this processor has got (in memory; see `at`). */
  get position(): Position {
    return this.at;
  }

  /** The checkpoint as stored, as far as this instance knows (null: to be read). */
  get storedPosition(): Position | null {
    return this.stored;
  }

  /** Whether the checkpoint is known (false at first use, and once another instance was found to have moved it). */
  get loaded(): boolean {
    return this.stored !== null;
  }

  /** The checkpoint moves that wait for a transaction: events passed that it ignores. */
  get unsaved(): boolean {
    return this.stored !== null && comparePositions(this.at, this.stored) > 0;
  }

  /** Forgets the stored checkpoint: the next round reads it again. */
  reload(): void {
    this.stored = null;
    this.reader.reset();
  }

  /** Takes the checkpoint as read from the database. */
  loadedAt(position: Position): void {
    this.stored = position;
    this.at = position;
    this.advanced(position);
  }

  /**
   * One round on its own: reads a page from where this processor is and applies it.
   * Commits are asynchronous: everything a processor writes derives from durable events, and a
   * commit lost in a crash is redone from the checkpoint that was lost with it.
   */
  private async step(): Promise<number> {
    for (;;) {
      if (this.stored === null) await this.load();
      const from = this.at;
      const page = await this.reader.read(from);
      const lastEvent = page.events[page.events.length - 1];
      if (!lastEvent) {
        this.passedRest(from, page);
        if (this.unsaved && !(await this.save())) continue;
        this.advanced(this.at);
        return 0;
      }
      const passed = await this.applyPage(page.events);
      if (passed !== null) {
        this.passedRest(from, page);
        return passed;
      }
      this.reload();
    }
  }

  /**
   * Applies the events of `page` that come after this processor's position. A page with nothing for
   * it only moves its position in memory (no transaction). Otherwise the events and the checkpoint
   * move commit in one transaction whose first statement moves the checkpoint from where it was
   * stored (`WHERE position = stored`): when another instance got there first, nothing is done and
   * null is returned (the caller reads the checkpoint again). The checkpoint row is locked first,
   * as the group and a rebuild lock it, so that they never deadlock.
   *
   * A batch that fails for a reason other than the database being unavailable is applied again
   * event by event (`isolate`), which finds the event that fails; after `maxAttempts` tries that
   * event is set aside as a dead letter and every other event is applied, in order.
   */
  async applyPage(page: readonly StoredEvent[]): Promise<number | null> {
    if (this.stored === null) return null;
    const from = this.stored;
    const events = page.filter((e) => comparePositions(e.position, this.at) > 0);
    const lastEvent = events[events.length - 1];
    if (!lastEvent) return 0;
    const relevant = events.filter((e) => this.accepts(e.type));
    if (relevant.length === 0) {
      this.skipped(lastEvent.position);
      return events.length;
    }
    const first = relevant[0];
    // What failed before and is not at the head of the page any more was passed (here or by
    // another instance): forget it.
    if (!first || !this.failing.has(first.id)) this.failing.clear();
    if (first && this.failing.has(first.id)) return this.isolate(events, from);
    let moved: boolean | 'failed';
    try {
      moved = await this.commit(from, lastEvent.position, relevant);
    } catch (err) {
      if (isTransientFailure(err)) throw err;
      moved = 'failed';
    }
    if (moved === 'failed') return this.isolate(events, from);
    if (!moved) return null;
    this.committed(lastEvent.position, true);
    return events.length;
  }

  /** Whether the first event of `page` it would apply failed before: that page goes through `applyPage` alone. */
  isFailingOn(page: readonly StoredEvent[]): boolean {
    if (this.failing.size === 0) return false;
    const first = page.find((e) => comparePositions(e.position, this.at) > 0 && this.accepts(e.type));
    return first !== undefined && this.failing.has(first.id);
  }

  /** After a group transaction that moved this checkpoint to `position`. */
  committedInGroup(position: Position, applied: boolean): void {
    this.failing.clear();
    this.stored = position;
    this.committed(position, applied);
  }

  /** Moves past events it ignores, in memory. */
  skipped(position: Position): void {
    this.advanced(position);
  }

  /**
   * Once every event of `page` (read after `from`) is passed, moves on past the records the store
   * left out after them (`Page.end`), in memory: the next read starts after them.
   */
  passedRest(from: Position, page: Page): void {
    const lastEvent = page.events[page.events.length - 1]?.position ?? from;
    if (comparePositions(this.at, lastEvent) >= 0) this.advanced(pageEnd(from, page));
  }

  /** Writes the checkpoint moves that waited (`unsaved`); false when another instance moved it. */
  private async save(): Promise<boolean> {
    if (this.stored === null) return false;
    return this.commit(this.stored, this.at, []);
  }

  /**
   * Applies the page's events one by one, each in its own transaction with the checkpoint move up
   * to it, in commit order, until one fails. A failed try with tries left ends the round with an
   * `EventFailedError` (the worker backs off; the next round starts at that event); the last try
   * writes the dead letter in the transaction that moves the checkpoint past the event, so that
   * of several instances exactly one sets it aside. Once the failing event is settled (applied or
   * set aside) the round ends, and the next one goes back to whole batches. Returns the number of
   * events passed, or null when another instance moved the checkpoint.
   */
  private async isolate(events: readonly StoredEvent[], from: Position): Promise<number | null> {
    this.reader.reset();
    let at = from;
    for (const [index, event] of events.entries()) {
      if (!this.accepts(event.type)) continue;
      const passed = index + 1;
      const known = this.failing.get(event.id);
      let moved: boolean;
      try {
        moved = await this.commit(at, event.position, [event]);
      } catch (err) {
        if (isTransientFailure(err)) throw err;
        const failure = this.noteFailure(event, err, known);
        if (failure.attempts < this.maxAttempts()) throw new EventFailedError(failure, this.maxAttempts(), err);
        let id = '';
        const setAside = async (tx: PoolClient): Promise<void> => {
          id = await this.insertDeadLetter(tx, failure);
        };
        if (!(await this.commit(at, event.position, [], setAside))) return null;
        this.failing.delete(event.id);
        this.committed(event.position, false);
        this.options.onDeadLettered?.({ id, failure });
        return passed;
      }
      if (!moved) return null;
      this.committed(event.position, true);
      at = event.position;
      if (known) {
        this.failing.delete(event.id);
        return passed;
      }
    }
    const lastEvent = events[events.length - 1];
    if (!lastEvent) return 0;
    if (comparePositions(at, lastEvent.position) < 0) {
      if (!(await this.commit(at, lastEvent.position, []))) return null;
      this.committed(lastEvent.position, false);
    }
    return events.length;
  }

  private noteFailure(event: StoredEvent, err: unknown, known: EventFailure | undefined): EventFailure {
    const now = new Date();
    const failure: EventFailure = known ?? {
      processor: this.processor.name,
      event,
      attempts: 0,
      firstFailedAt: now,
      lastFailedAt: now,
      error: '',
    };
    failure.attempts++;
    failure.lastFailedAt = now;
    failure.error = describeFailure(err);
    this.failing.set(event.id, failure);
    this.options.onEventFailed?.(failure);
    return failure;
  }

  /** Writes the dead letter of a failure; returns its id. */
  private async insertDeadLetter(tx: PoolClient, f: EventFailure): Promise<string> {
    const e = f.event;
    // One row per processor and event: should an event be set aside again (its processor's
    // checkpoint was moved back by hand), the row is reopened rather than duplicated.
    const { rows } = await tx.query<{ id: string }>(
      `INSERT INTO dead_letters (id, processor, event_id, event_type, stream_id, stream_position, commit_position,
           prepare_position, tenant_id, error, attempts, status, first_failed_at, last_failed_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 'dead', $12, $13)
       ON CONFLICT (processor, event_id) DO UPDATE SET status = 'dead', error = EXCLUDED.error,
           attempts = dead_letters.attempts + EXCLUDED.attempts, last_failed_at = EXCLUDED.last_failed_at,
           retried_at = NULL
       RETURNING id`,
      [
        newId('dl'),
        f.processor,
        e.id,
        e.type,
        e.streamId,
        e.streamPosition,
        e.position.commit.toString(),
        e.position.prepare.toString(),
        e.metadata.tenant_id ?? null,
        f.error,
        f.attempts,
        f.firstFailedAt.toISOString(),
        f.lastFailedAt.toISOString(),
      ],
    );
    return rows[0]?.id ?? '';
  }

  private committed(position: Position, applied: boolean): void {
    this.stored = position;
    if (applied) this.processor.afterCommit?.();
    this.advanced(position);
  }

  private maxAttempts(): number {
    return Math.max(1, this.options.maxAttempts ?? 5);
  }

  private async load(): Promise<void> {
    const [position] = await loadCheckpoints(this.pool, [this.processor.name], this.store.identity);
    this.loadedAt(position ?? START);
  }

  /**
   * Applies `events` (and `also`) and moves the checkpoint from `from` to `to` in one transaction;
   * false when another instance moved it first (everything is rolled back).
   */
  private async commit(
    from: Position,
    to: Position,
    events: readonly StoredEvent[],
    also?: (tx: PoolClient) => Promise<void>,
  ): Promise<boolean> {
    const tx = await this.pool.connect();
    try {
      await tx.query('BEGIN; SET LOCAL synchronous_commit = off');
      const moved = await tx.query({
        name: 'checkpoint_move',
        // only a row of this store's log: another store may have claimed it meanwhile (then nothing
        // moves, and the reload refuses it: CheckpointStoreMismatchError)
        text: `UPDATE projection_checkpoints SET commit_position = $2, prepare_position = $3, updated_at = now()
               WHERE name = $1 AND commit_position = $4 AND prepare_position = $5 AND event_store = $6`,
        values: [
          this.processor.name,
          to.commit.toString(),
          to.prepare.toString(),
          from.commit.toString(),
          from.prepare.toString(),
          this.store.identity,
        ],
      });
      if (moved.rowCount !== 1) {
        await tx.query('ROLLBACK');
        return false;
      }
      if (events.length > 0) await this.processor.handle(tx, events);
      if (also) await also(tx);
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

  private advanced(position: Position): void {
    if (comparePositions(position, this.at) > 0) this.at = position;
    if (this.waiters.length === 0) return;
    const still: typeof this.waiters = [];
    for (const w of this.waiters) {
      if (comparePositions(this.at, w.position) >= 0) w.resolve();
      else still.push(w);
    }
    this.waiters = still;
  }
}

/** Checkpoints written against another event store's log than the one this instance reads. */
export class CheckpointStoreMismatchError extends Error {
  constructor(
    readonly identity: string,
    readonly foreign: readonly { name: string; eventStore: string }[],
  ) {
    const fromPostgres = identity === 'kurrentdb' && foreign.every((f) => f.eventStore === 'postgresql');
    super(
      `The checkpoints of ${foreign.map((f) => `${f.name} (${f.eventStore})`).join(', ')} were written against ` +
        `another event store than this instance reads (${identity}): positions of one log mean nothing in ` +
        `another. ` +
        (fromPostgres
          ? `If this platform is moving from PostgreSQL to KurrentDB, copy the history and move them with ` +
            `\`npm run events:migrate-to-kurrentdb -- --checkpoints\` (docs/kurrentdb.md); otherwise `
          : '') +
        `set EVENTSTORE_URL back to the store they were written against, or rebuild the read models from this one.`,
    );
    this.name = 'CheckpointStoreMismatchError';
  }
}

/**
 * Reads the checkpoints of `names` (creating missing rows at the start), in the order given. Each
 * belongs to the log of the event store named `identity`: a row at the start, or one recorded before
 * checkpoints named their store (`event_store` NULL), is claimed for it; a row elsewhere in another
 * store's log is refused (CheckpointStoreMismatchError).
 */
export async function loadCheckpoints(pool: Pool, names: readonly string[], identity: string): Promise<Position[]> {
  await pool.query(
    `INSERT INTO projection_checkpoints (name, commit_position, prepare_position, event_store)
     SELECT unnest($1::text[]), -1, -1, $2 ON CONFLICT (name) DO NOTHING`,
    [names, identity],
  );
  await pool.query(
    `UPDATE projection_checkpoints SET event_store = $2
     WHERE name = ANY($1::text[])
       AND (event_store IS NULL OR (event_store <> $2 AND commit_position = -1 AND prepare_position = -1))`,
    [names, identity],
  );
  const { rows } = await pool.query<{
    name: string;
    commit_position: string;
    prepare_position: string;
    event_store: string | null;
  }>(
    'SELECT name, commit_position, prepare_position, event_store FROM projection_checkpoints WHERE name = ANY($1::text[])',
    [names],
  );
  const foreign = rows.filter((r) => r.event_store !== identity);
  if (foreign.length > 0) {
    throw new CheckpointStoreMismatchError(
      identity,
      foreign.map((r) => ({ name: r.name, eventStore: r.event_store ?? 'none' })),
    );
  }
  const byName = new Map(
    rows.map((r) => [r.name, { commit: BigInt(r.commit_position), prepare: BigInt(r.prepare_position) }]),
  );
  return names.map((n) => byName.get(n) ?? START);
}

/**
 * Refuses to start on checkpoints of another store's log (see `loadCheckpoints`); at the start, or
 * recorded before checkpoints named their store (NULL: `<>` never holds), they are anyone's.
 */
export async function assertCheckpointsOf(pool: Pool, identity: string): Promise<void> {
  const { rows } = await pool.query<{ name: string; event_store: string }>(
    `SELECT name, event_store FROM projection_checkpoints
     WHERE event_store <> $1 AND NOT (commit_position = -1 AND prepare_position = -1) ORDER BY name`,
    [identity],
  );
  if (rows.length > 0) {
    throw new CheckpointStoreMismatchError(
      identity,
      rows.map((r) => ({ name: r.name, eventStore: r.event_store })),
    );
  }
}
