import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * One row per processor: the store position it has applied. Written only by the processor runner,
 * in the same transaction as the processor's rows (raw SQL, see
 * docs/decisions/0018-typeorm-maps-every-table-and-runs-the-migrations-raw-sql.md).
 */
@Entity({ name: 'projection_checkpoints' })
export class ProjectionCheckpointEntity {
  @PrimaryColumn({ type: 'text' }) name!: string;
  @Column({ name: 'commit_position', type: 'bigint' }) commitPosition!: string;
  @Column({ name: 'prepare_position', type: 'bigint' }) preparePosition!: string;
  @Column({ name: 'updated_at', type: 'timestamptz' }) updatedAt!: Date;
  /** The event store whose log the position belongs to (`EventStore.identity`); null: recorded before
   *  checkpoints named their store, claimed by the next store to read it (decision 52). */
  @Column({ name: 'event_store', type: 'text', nullable: true }) eventStore!: string | null;
}
