import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { EVENT_STORE, EventStore } from '../../event-store/event-store.port';
import { PG_POOL } from '../../infra/database/database.tokens';
import { isDatabaseUnavailable } from '../../infra/database/faults';
import { DeadLetterEntity, DeadLetterStatus } from './dead-letter.entity';
import { describeFailure } from './processor-failures';
import { ProjectionsService } from './processors.service';

export interface DeadLetterPage {
  data: DeadLetterEntity[];
  hasMore: boolean;
}

export type RetryOutcome =
  | { outcome: 'retried'; letter: DeadLetterEntity }
  /** The processor still cannot apply the event: the row keeps it, with the new error. */
  | { outcome: 'failed'; letter: DeadLetterEntity; error: string }
  | { outcome: 'not_found' }
  /** Nothing to do or nothing to do it with: already retried, processor not registered, event gone. */
  | { outcome: 'conflict'; letter: DeadLetterEntity; reason: string };

/**
 * The operator's side of dead letters (decision 23): the list, and a retry that replays one event
 * through its processor now, in a transaction of its own. The runner writes the rows.
 */
@Injectable()
export class DeadLettersService {
  private readonly logger = new Logger('DeadLetters');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly projections: ProjectionsService,
  ) {}

  private get rows() {
    return this.dataSource.getRepository(DeadLetterEntity);
  }

  /** Newest first, after the dead letter `startingAfter` when given; null when that id is unknown. */
  async list(page: {
    processor?: string;
    status?: DeadLetterStatus;
    startingAfter?: string;
    limit: number;
  }): Promise<DeadLetterPage | null> {
    let cursor: string | null = null;
    if (page.startingAfter !== undefined) {
      const row = await this.rows.findOne({ select: { id: true, seq: true }, where: { id: page.startingAfter } });
      if (!row) return null;
      cursor = row.seq;
    }
    const query = this.rows.createQueryBuilder('d');
    if (page.processor !== undefined) query.andWhere('d.processor = :processor', { processor: page.processor });
    if (page.status !== undefined) query.andWhere('d.status = :status', { status: page.status });
    if (cursor !== null) query.andWhere('d.seq < :cursor', { cursor });
    const rows = await query
      .orderBy('d.seq', 'DESC')
      .limit(page.limit + 1)
      .getMany();
    return { data: rows.slice(0, page.limit), hasMore: rows.length > page.limit };
  }

  get(id: string): Promise<DeadLetterEntity | null> {
    return this.rows.findOne({ where: { id } });
  }

  /**
   * Applies the dead letter's event with its processor's `handle` in one transaction that also marks
   * it `retried`; the row is locked meanwhile, so two retries never apply it twice. When the
   * processor fails again, its effects are rolled back and the row keeps the event with the new
   * error and one more try. The event is applied after the events that followed it, which the
   * processor has already applied: for a read model whose rows depend on the order of events, a
   * rebuild is the other way back (it replays the history in order, without the open dead letters).
   */
  async retry(id: string): Promise<RetryOutcome> {
    const letter = await this.get(id);
    if (!letter) return { outcome: 'not_found' };
    if (letter.status !== 'dead')
      return { outcome: 'conflict', letter, reason: 'This dead letter was already retried.' };
    const processor = this.projections.processor(letter.processor);
    if (!processor) {
      return {
        outcome: 'conflict',
        letter,
        reason: `No processor named ${letter.processor} runs in this service; it cannot be retried here.`,
      };
    }
    const [event] = await this.store.readByIds([letter.eventId]);
    if (!event) return { outcome: 'conflict', letter, reason: 'The event is no longer in the event store.' };

    let error: string | null = null;
    const tx = await this.pool.connect();
    try {
      await tx.query('BEGIN');
      const locked = await tx.query<{ status: string }>('SELECT status FROM dead_letters WHERE id = $1 FOR UPDATE', [
        id,
      ]);
      if (locked.rows[0]?.status !== 'dead') {
        await tx.query('ROLLBACK');
        const now = await this.get(id);
        return now
          ? { outcome: 'conflict', letter: now, reason: 'This dead letter was already retried.' }
          : { outcome: 'not_found' };
      }
      await tx.query('SAVEPOINT retry_apply');
      try {
        await processor.handle(tx, [event]);
      } catch (err) {
        if (isDatabaseUnavailable(err)) throw err;
        error = describeFailure(err);
        await tx.query('ROLLBACK TO SAVEPOINT retry_apply');
      }
      if (error === null) {
        await tx.query(
          `UPDATE dead_letters SET status = 'retried', retried_at = now(), attempts = attempts + 1 WHERE id = $1`,
          [id],
        );
      } else {
        await tx.query(
          'UPDATE dead_letters SET attempts = attempts + 1, error = $2, last_failed_at = now() WHERE id = $1',
          [id, error],
        );
      }
      await tx.query('COMMIT');
    } catch (err) {
      await tx.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      tx.release();
    }
    const after = (await this.get(id)) ?? letter;
    if (error !== null) {
      this.logger.warn(`retry of dead letter ${id} (${letter.processor}, event ${letter.eventId}) failed: ${error}`);
      return { outcome: 'failed', letter: after, error };
    }
    processor.afterCommit?.();
    this.logger.log(`dead letter ${id} (${letter.processor}, event ${letter.eventId}) retried and applied`);
    return { outcome: 'retried', letter: after };
  }
}
