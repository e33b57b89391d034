import type { MigrationInterface, QueryRunner } from 'typeorm';
import type { EventFragment } from '../catalog/event-fragment';

/**
 * What a bounded context contributes without booting Nest: its migrations and its event catalog
 * fragment. A context's module carries it as `static readonly context`, and `app.module.ts` lists
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

/**
 * P is the payload map of its events (`BoundedContext<SessionPayloads>`), from which app.module.ts
 * derives the typed union of catalog events; a context without events writes plain `BoundedContext`,
 * which accepts no fragment (so a fragment cannot be registered without its types).
 */
export interface BoundedContext<P = never> {
  readonly name: string;
  readonly migrations?: readonly Migration[];
  readonly events?: EventFragment<P>;
}

/** A Nest module class that is a bounded context. */
export interface ContextModule {
  readonly context: BoundedContext<unknown>;
  new (...args: never[]): unknown;
}
