import type { Pool, PoolClient } from 'pg';
import { comparePositions, EventStore, Position, StoredEvent } from '../../event-store/event-store.port';
import { LogWorker } from '../workers/log-worker';
import { EventFailedError, isTransientFailure } from './processor-failures';
import { inTransaction } from '../../infra/database/transaction';
import { loadCheckpoints, ProcessorRunner } from './processor-runner';
import { PageReader } from './page-reader';

export interface GroupOptions {
  batchSize?: number;
  /** Fallback poll when nothing wakes the group (a lost NOTIFY); appends and NOTIFY wake it at once. */
  pollMs?: number;
  onError?: (member: string | null, err: unknown) => void;
  /** How long an append waits for others before it wakes the group (default 10 ms). */
  lingerMs?: number;
  /** Pages read at once, concurrently, where the store can (default 2); 1 reads one page at a time. */
  readDepth?: number;
}

/** How long a member whose event failed waits before its next try, by consecutive failures. */
function memberBackoffMs(failures: number): number {
  return Math.min(5000, 100 * 2 ** failures);
}

interface Member {
  readonly runner: ProcessorRunner;
  failures: number;
  /** While set, the member sits out (its event failed and it waits for its next try). */
  retryAt: number;
}

/**
 * Every processor of the service (read models, reactors, the webhook outbox) fed from ONE read of
 * the log, and applied in ONE transaction per page: the members' checkpoint rows are locked first
 * (in name order, so that two instances and a rebuild never deadlock), checked against what this
 * instance believes is stored, then every member applies its events, then one statement moves every
 * checkpoint. Each member's rows and its checkpoint still commit together, and a page in which no
 * member has anything to do costs no transaction at all: the moves past ignored events wait, in
 * memory, for the next transaction (a restart reads those events again and ignores them again).
 *
 * A member lagging behind the others (new, rebuilt, or waiting to retry a failed event) makes the
 * page start where it is; the others pass over what they have already applied. When the group
 * transaction fails because of one member's event, the page is applied member by member (each in
 * its own transactions, `ProcessorRunner.applyPage`), which isolates the failing event, counts its
 * tries and sets it aside as a dead letter, exactly as a runner alone does; the other members commit.
 *
 * Wake-ups: an append in this process, a NOTIFY from another, or a page that saw committed events
 * it could not read yet (a transaction still running holds them back) and looks again shortly.
 * Otherwise the group polls every `pollMs`.
 */
export class ProcessorGroup extends LogWorker {
  private readonly members: Member[] = [];
  private readonly reader: PageReader;
  /** Consecutive rounds that saw events held back by a running transaction. */
  private hiddenRounds = 0;
  private lingering: NodeJS.Timeout | null = null;

  constructor(
    private readonly pool: Pool,
    store: EventStore,
    private readonly options: GroupOptions = {},
  ) {
    super('processors', store, { onError: (err) => options.onError?.(null, err) });
    this.reader = new PageReader(store, options.batchSize ?? 2000, options.readDepth);
  }

  add(runner: ProcessorRunner): void {
    this.members.push({ runner, failures: 0, retryAt: 0 });
  }

  override async stop(): Promise<void> {
    if (this.lingering) clearTimeout(this.lingering);
    this.lingering = null;
    await super.stop();
  }

  /**
   * An append wakes the group after `lingerMs`, not at once: the appends of those milliseconds
   * (other steps of other calls) then share one read and one transaction. What it costs is
   * latency, a few milliseconds per event; what it saves is most of the transactions under a
   * moderate load, when each append would otherwise get a round of its own.
   */
  protected override appended(): void {
    const linger = this.options.lingerMs ?? 10;
    if (linger <= 0) return this.poke();
    if (this.lingering) return;
    this.lingering = setTimeout(() => {
      this.lingering = null;
      this.poke();
    }, linger);
  }

  protected override async afterStop(): Promise<void> {
    // The moves past ignored events, so that a restart does not read them again.
    await this.save().catch(() => undefined);
  }

  protected async tick(): Promise<boolean> {
    const { passed, full } = await this.round();
    return passed > 0 && full;
  }

  protected override idleMs(): number {
    const poll = this.options.pollMs ?? 2000;
    let ms = poll;
    // Events committed behind a running transaction: look again soon, more slowly while it lasts.
    if (this.hiddenRounds > 0) ms = Math.min(ms, 2 * 2 ** Math.min(this.hiddenRounds, 6));
    const now = Date.now();
    for (const m of this.members) if (m.retryAt > now) ms = Math.min(ms, m.retryAt - now);
    return Math.max(1, ms);
  }

  /** Processes everything available now, then returns (tests, the CLI): failed members are reported, not thrown. */
  async drain(): Promise<number> {
    let total = 0;
    for (let rounds = 0; rounds < 100_000; rounds++) {
      const { passed } = await this.round(true);
      if (passed === 0) break;
      total += passed;
    }
    await this.save();
    return total;
  }

  /**
   * One page. Returns how many events it passed and whether the page was full (more may be waiting).
   * `ignoreBackoff`: a failing member tries again at once (drain).
   */
  private async round(ignoreBackoff = false): Promise<{ passed: number; full: boolean }> {
    const now = Date.now();
    const active = this.members.filter((m) => ignoreBackoff || m.retryAt <= now);
    if (active.length === 0) return { passed: 0, full: false };
    await this.load(active);
    const from = active.map((m) => m.runner.position).reduce((a, b) => (comparePositions(a, b) <= 0 ? a : b));
    const batch = this.options.batchSize ?? 2000;
    const page = await this.reader.read(from);
    const { events, hidden } = page;
    this.hiddenRounds = hidden && events.length < batch ? this.hiddenRounds + 1 : 0;
    const last = events[events.length - 1];
    if (!last) {
      for (const m of active) m.runner.passedRest(from, page);
      await this.save();
      return { passed: 0, full: false };
    }
    const full = events.length === batch;

    const alone = active.filter((m) => m.runner.isFailingOn(events));
    const together = active.filter((m) => !alone.includes(m));
    const working = together.filter((m) => this.hasWork(m, events));
    if (working.length === 0) {
      for (const m of together) m.runner.skipped(last.position);
    } else if (!(await this.applyTogether(together, working, events, last.position))) {
      // Another instance moved a checkpoint, or one member's event failed: each member alone.
      alone.push(...working);
      for (const m of together) if (!working.includes(m)) m.runner.skipped(last.position);
    }
    for (const m of alone) await this.applyAlone(m, events);
    for (const m of active) m.runner.passedRest(from, page);
    return { passed: events.length, full };
  }

  private hasWork(member: Member, events: readonly StoredEvent[]): boolean {
    return eventsFor(member.runner, events).length > 0;
  }

  /**
   * The group transaction. False when it could not commit for a reason of one member (its event
   * failed) or because another instance moved a checkpoint (those members then read it again).
   */
  private async applyTogether(
    together: readonly Member[],
    working: readonly Member[],
    events: readonly StoredEvent[],
    to: Position,
  ): Promise<boolean> {
    // Every member of the group passes the whole page; one already beyond it (a lagging member made
    // the page start early) stays where it is.
    const moving = together.filter((m) => comparePositions(m.runner.position, to) < 0);
    let going: readonly Member[] = [];
    let handling = false;
    try {
      await inTransaction(
        this.pool,
        async (tx) => {
          going = await this.lockCheckpoints(tx, moving);
          if (going.length === 0) return;
          handling = true;
          for (const m of working) {
            if (going.includes(m)) await m.runner.processor.handle(tx, eventsFor(m.runner, events));
          }
          handling = false;
          await moveCheckpoints(
            tx,
            this.store.identity,
            going.map((m) => ({ name: m.runner.processor.name, to })),
          );
        },
        ASYNC_COMMIT,
      );
    } catch (err) {
      // A processor's event failed (not the database): the caller applies the page member by member.
      if (handling && !isTransientFailure(err)) return false;
      throw err;
    }
    for (const m of going) {
      m.failures = 0;
      m.retryAt = 0;
      m.runner.committedInGroup(to, working.includes(m));
    }
    return true;
  }

  /**
   * Locks the members' checkpoint rows, skipping rows another transaction holds (another instance's
   * group, a rebuild): those members sit this page out. A row found elsewhere than this instance
   * believes (another instance moved it) is read again next round. Returns the members to move.
   */
  private async lockCheckpoints(tx: PoolClient, moving: readonly Member[]): Promise<Member[]> {
    const { rows } = await tx.query<{
      name: string;
      commit_position: string;
      prepare_position: string;
      event_store: string | null;
    }>({
      name: 'checkpoints_lock',
      text: `SELECT name, commit_position, prepare_position, event_store FROM projection_checkpoints
             WHERE name = ANY($1::text[]) FOR UPDATE SKIP LOCKED`,
      values: [moving.map((m) => m.runner.processor.name)],
    });
    // A row another store has claimed since it was loaded is not this instance's to move: it is read
    // again, and the load refuses it (CheckpointStoreMismatchError).
    const identity = this.store.identity;
    const locked = new Map(
      rows.map((r) => [
        r.name,
        r.event_store === identity ? { commit: BigInt(r.commit_position), prepare: BigInt(r.prepare_position) } : null,
      ]),
    );
    const going: Member[] = [];
    for (const m of moving) {
      const position = locked.get(m.runner.processor.name);
      if (position === undefined) continue;
      const expected = m.runner.storedPosition;
      if (position !== null && expected && comparePositions(position, expected) === 0) going.push(m);
      else m.runner.reload();
    }
    return going;
  }

  private async applyAlone(member: Member, events: readonly StoredEvent[]): Promise<void> {
    const { runner } = member;
    if (!runner.loaded) return;
    try {
      const passed = await runner.applyPage(events);
      if (passed === null) runner.reload();
      member.failures = 0;
      member.retryAt = 0;
    } catch (err) {
      if (!(err instanceof EventFailedError)) throw err;
      member.failures++;
      member.retryAt = Date.now() + memberBackoffMs(member.failures);
      this.options.onError?.(runner.processor.name, err);
    }
  }

  /** Reads the checkpoints of members that need it, in one round trip. */
  private async load(members: readonly Member[]): Promise<void> {
    const missing = members.filter((m) => !m.runner.loaded);
    if (missing.length === 0) return;
    this.reader.reset();
    const positions = await loadCheckpoints(
      this.pool,
      missing.map((m) => m.runner.processor.name),
      this.store.identity,
    );
    missing.forEach((m, i) => m.runner.loadedAt(positions[i] as Position));
  }

  /** Writes the checkpoint moves that waited for a transaction, in one. */
  private async save(): Promise<void> {
    const moving = this.members.filter((m) => m.runner.unsaved);
    if (moving.length === 0) return;
    let going: readonly Member[] = [];
    await inTransaction(
      this.pool,
      async (tx) => {
        going = await this.lockCheckpoints(tx, moving);
        await moveCheckpoints(
          tx,
          this.store.identity,
          going.map((m) => ({ name: m.runner.processor.name, to: m.runner.position })),
        );
      },
      ASYNC_COMMIT,
    );
    for (const m of going) m.runner.committedInGroup(m.runner.position, false);
  }
}

/** Processor transactions commit asynchronously: what they write derives from durable events (decision 17). */
const ASYNC_COMMIT = 'BEGIN; SET LOCAL synchronous_commit = off';

/** The events of `page` after the runner's position, of the types it handles. */
function eventsFor(runner: ProcessorRunner, page: readonly StoredEvent[]): StoredEvent[] {
  return page.filter((e) => comparePositions(e.position, runner.position) > 0 && runner.accepts(e.type));
}

/** Moves checkpoints of the store `identity` in one statement (their rows are locked and checked by the caller). */
async function moveCheckpoints(
  tx: PoolClient,
  identity: string,
  moves: readonly { name: string; to: Position }[],
): Promise<void> {
  await tx.query({
    name: 'checkpoints_move',
    text: `UPDATE projection_checkpoints c SET commit_position = m.c, prepare_position = m.p, updated_at = now()
           FROM unnest($1::text[], $2::bigint[], $3::bigint[]) AS m(name, c, p)
           WHERE c.name = m.name AND c.event_store = $4`,
    values: [
      moves.map((m) => m.name),
      moves.map((m) => m.to.commit.toString()),
      moves.map((m) => m.to.prepare.toString()),
      identity,
    ],
  });
}
