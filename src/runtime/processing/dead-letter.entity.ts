import { Column, Entity, PrimaryColumn } from 'typeorm';

export const DEAD_LETTER_STATUSES = ['dead', 'retried'] as const;
export type DeadLetterStatus = (typeof DEAD_LETTER_STATUSES)[number];

/**
 * An event a processor could not apply after PROCESSOR_MAX_ATTEMPTS tries (schema in
 * src/infra/database/migrations.ts). Written by the processor runner in the transaction that moves
 * its checkpoint past the event (raw SQL, see
 * docs/decisions/0018-typeorm-maps-every-table-and-runs-the-migrations-raw-sql.md and
 * 0022-recordings-behind-expiring-signed-links-webhook-dns-bounded.md); read by the operator API.
 */
@Entity({ name: 'dead_letters' })
export class DeadLetterEntity {
  @PrimaryColumn({ type: 'text' }) id!: string;
  /** Insertion order: the list's order (newest first) and its cursor. */
  @Column({ type: 'bigint', insert: false, update: false }) seq!: string;
  @Column({ type: 'text' }) processor!: string;
  @Column({ name: 'event_id', type: 'text' }) eventId!: string;
  @Column({ name: 'event_type', type: 'text' }) eventType!: string;
  @Column({ name: 'stream_id', type: 'text' }) streamId!: string;
  @Column({ name: 'stream_position', type: 'integer' }) streamPosition!: number;
  @Column({ name: 'commit_position', type: 'bigint' }) commitPosition!: string;
  @Column({ name: 'prepare_position', type: 'bigint' }) preparePosition!: string;
  @Column({ name: 'tenant_id', type: 'text', nullable: true }) tenantId!: string | null;
  @Column({ type: 'text' }) error!: string;
  @Column({ type: 'integer' }) attempts!: number;
  @Column({ type: 'text' }) status!: DeadLetterStatus;
  @Column({ name: 'first_failed_at', type: 'timestamptz' }) firstFailedAt!: Date;
  @Column({ name: 'last_failed_at', type: 'timestamptz' }) lastFailedAt!: Date;
  @Column({ name: 'retried_at', type: 'timestamptz', nullable: true }) retriedAt!: Date | null;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
}
