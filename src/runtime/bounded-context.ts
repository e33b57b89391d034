import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What a bounded context contributes without booting Nest: its migrations (and its catalog
 * fragment). A context's module carries it as `static readonly context`, and `app.module.ts` lists
 * the modules; everything else (processors, timer kinds, workers) the module registers itself with
 * the runtime when Nest initialises it.
 */

/**
 * A TypeORM migration class. Its name ends in the 13-digit number that orders it across the whole
 * platform (TypeORM's "timestamp": the old runner's id NNNN became NNNN0, see docs/decisions.md);
 * TypeORM runs each once, recorded by class name in its `migrations` table.
 */
export type Migration = new () => MigrationInterface;

/** Migrations are forward-only, as they always were: a release that needs to undo one adds another. */
export abstract class ForwardOnlyMigration implements MigrationInterface {
  abstract up(db: QueryRunner): Promise<void>;

  down(): Promise<void> {
    return Promise.reject(new Error(`${this.constructor.name} is forward-only`));
  }
}

export interface BoundedContext {
  readonly name: string;
  readonly migrations?: readonly Migration[];
}

/** A Nest module class that is a bounded context. */
export interface ContextModule {
  readonly context: BoundedContext;
  new (...args: never[]): unknown;
}
