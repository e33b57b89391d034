import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A TypeORM migration class. Its name ends in the 13-digit number that orders it across the whole
 * platform (TypeORM's "timestamp", read from the last 13 characters); TypeORM runs each once,
 * recorded by class name in its `migrations` table. Released ids are small numbers (the old runner's
 * id NNNN became NNNN0); a new migration ends in `Date.now()` at its writing, so that no one reads
 * another context's migrations to pick one (docs/architecture.md, test/unit/migration-ids.spec.ts).
 */
export type Migration = new () => MigrationInterface;

/** Migrations are forward-only, as they always were: a release that needs to undo one adds another. */
export abstract class ForwardOnlyMigration implements MigrationInterface {
  abstract up(db: QueryRunner): Promise<void>;

  down(): Promise<void> {
    return Promise.reject(new Error(`${this.constructor.name} is forward-only`));
  }
}
