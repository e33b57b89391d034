import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Pool } from 'pg';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { EVENT_STORE, EventStore, pageEnd, Position, START } from '../../event-store/event-store.port';
import { PG_POOL } from '../../infra/database/database.tokens';
import { inTransaction } from '../../infra/database/transaction';
import { ProcessorGroup } from './processor-group';
import { ProcessorRunner } from './processor-runner';
import { PageReader } from './page-reader';
import type { Projection } from './processor';
import type { Processor } from './processor-runner';
import { WorkerLifecycle } from '../workers/lifecycle';
import { RuntimeMetrics } from '../observability/runtime-metrics';
import { errorMessage } from '../../kernel/errors';

/**
 * Runs every registered projection (read model) and reactor from its checkpoint. Modules register
 * theirs in onModuleInit; the runners start once the application has bootstrapped.
 */
@Injectable()
export class ProjectionsService {
  private readonly logger = new Logger('Projections');
  private readonly projections = new Map<string, Projection>();
  private readonly runners = new Map<string, ProcessorRunner>();
  private readonly group: ProcessorGroup;

  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    lifecycle: WorkerLifecycle,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly metrics: RuntimeMetrics,
  ) {
    this.group = new ProcessorGroup(pool, store, {
      onError: (member, err) => this.logger.error(`${member ?? 'processors'} failed: ${errorMessage(err)}`),
    });
    lifecycle.register(this.group);
  }

  registerProjection(projection: Projection): void {
    this.projections.set(projection.name, projection);
    this.addRunner(projection);
  }

  /** Reactors and the outbox: processors with effects but no rebuildable tables. */
  registerProcessor(processor: Processor): void {
    this.addRunner(processor);
  }

  /** A registered projection or reactor by name (to replay a dead letter through it). */
  processor(name: string): Processor | undefined {
    return this.runners.get(name)?.processor;
  }

  /** Projections that a rebuild can replay. */
  names(): string[] {
    return [...this.projections.values()].filter((p) => p.rebuildable !== false).map((p) => p.name);
  }

  /** Read-your-writes for the API: waits until every read model has applied `position`. */
  async waitForProjections(position: Position, timeoutMs = 10_000): Promise<boolean> {
    const waits: Promise<boolean>[] = [];
    for (const name of this.projections.keys()) {
      const runner = this.runners.get(name);
      if (runner) waits.push(runner.waitFor(position, timeoutMs));
    }
    this.group.poke();
    const results = await Promise.all(waits);
    return results.every(Boolean);
  }

  /** Waits until the read model `name` has applied `position` (false after `timeoutMs`, or when unknown). */
  async waitForProjection(name: string, position: Position, timeoutMs = 10_000): Promise<boolean> {
    const runner = this.projections.has(name) ? this.runners.get(name) : undefined;
    if (!runner) return false;
    this.group.poke();
    return runner.waitFor(position, timeoutMs);
  }

  /** Processes everything currently stored, in every runner (tests and CLI). */
  async drainAll(): Promise<void> {
    await this.group.drain();
  }

  /**
   * Rebuilds read models from the full history in one transaction: readers keep seeing the old rows
   * until the rebuilt ones commit (MVCC), then see the new ones at once, as a table swap would give.
   */
  async rebuild(name?: string): Promise<{ projection: string; events: number }[]> {
    const targets = name
      ? [this.projections.get(name)]
      : [...this.projections.values()].filter((p) => p.rebuildable !== false);
    const out: { projection: string; events: number }[] = [];
    for (const projection of targets) {
      if (!projection || projection.rebuildable === false) throw new Error(`unknown projection ${String(name)}`);
      out.push({ projection: projection.name, events: await this.rebuildOne(projection) });
    }
    return out;
  }

  private async rebuildOne(projection: Projection): Promise<number> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.rebuildOnce(projection);
      } catch (err) {
        // A live batch of a projection with several tables writes them in any order, so it can still
        // deadlock with the rebuild's table locks; PostgreSQL aborts one side: start over.
        if (attempt >= 5 || (err as { code?: unknown }).code !== DEADLOCK_DETECTED) throw err;
        this.logger.warn(`rebuild of ${projection.name} deadlocked with a live batch; retrying`);
      }
    }
  }

  private async rebuildOnce(projection: Projection): Promise<number> {
    const accepts = projection.handles === '*' ? null : new Set(projection.handles);
    let count = 0;
    await inTransaction(this.pool, async (tx) => {
      // The checkpoint row first, then the tables: the live group and runners lock checkpoint rows
      // before they write any row, so a batch in flight either commits before the rebuild starts or
      // waits for it, and neither deadlocks. EXCLUSIVE still lets readers see the old rows.
      await tx.query(
        `INSERT INTO projection_checkpoints (name, commit_position, prepare_position, event_store)
         VALUES ($1, -1, -1, $2) ON CONFLICT (name) DO NOTHING`,
        [projection.name, this.store.identity],
      );
      await tx.query('SELECT 1 FROM projection_checkpoints WHERE name = $1 FOR UPDATE', [projection.name]);
      if (projection.tables.length > 0) await tx.query(`LOCK TABLE ${projection.tables.join(', ')} IN EXCLUSIVE MODE`);
      // The live projection skipped its open dead letters; the rebuilt one skips them too, so that a
      // rebuild gives the same rows and does not fail on the same event (decision 23).
      const { rows: dead } = await tx.query<{ event_id: string }>(
        `SELECT event_id FROM dead_letters WHERE processor = $1 AND status = 'dead'`,
        [projection.name],
      );
      const skipped = new Set(dead.map((r) => r.event_id));
      for (const table of projection.tables) await tx.query(`DELETE FROM ${table}`);
      let position: Position = START;
      // Pages read ahead, two at a time, on connections other than this transaction's.
      const reader = new PageReader(this.store, 5000);
      for (;;) {
        const page = await reader.read(position);
        const { events } = page;
        const relevant = events.filter((e) => (!accepts || accepts.has(e.type)) && !skipped.has(e.id));
        if (relevant.length > 0) await projection.handle(tx, relevant);
        count += relevant.length;
        position = pageEnd(position, page);
        if (events.length === 0) break;
      }
      await tx.query(
        // rebuilt from this store's log: the checkpoint is this store's now, whichever it was before
        `UPDATE projection_checkpoints SET commit_position = $2, prepare_position = $3, event_store = $4, updated_at = now()
         WHERE name = $1`,
        [projection.name, position.commit.toString(), position.prepare.toString(), this.store.identity],
      );
    });
    this.logger.log(`rebuilt ${projection.name} from ${count} events`);
    return count;
  }

  private addRunner(processor: Processor): void {
    if (this.runners.has(processor.name)) return;
    const runner = new ProcessorRunner(this.pool, this.store, processor, {
      maxAttempts: this.config.processorMaxAttempts,
      onEventFailed: () => this.metrics.eventFailed(processor.name),
      onDeadLettered: ({ id, failure }) => {
        this.metrics.eventDeadLettered(processor.name);
        const e = failure.event;
        this.logger.error(
          `${processor.name} set event ${e.id} (${e.type}, stream ${e.streamId}, tenant ${e.metadata.tenant_id ?? '-'}) ` +
            `aside as dead letter ${id} after ${failure.attempts} tries and moved on: ${failure.error}. ` +
            `Fix the cause, then POST /admin/v1/dead_letters/${id}/retry.`,
        );
      },
    });
    this.metrics.registered(processor.name);
    this.runners.set(processor.name, runner);
    this.group.add(runner);
  }
}

/** SQLSTATE 40P01. */
const DEADLOCK_DETECTED = '40P01';
