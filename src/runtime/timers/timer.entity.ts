import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A durable timer (timers.service.ts), claimed with FOR UPDATE SKIP LOCKED (raw SQL, see
 * docs/decisions/0018-typeorm-maps-every-table-and-runs-the-migrations-raw-sql.md).
 */
@Entity({ name: 'timers' })
export class TimerEntity {
  @PrimaryColumn({ name: 'timer_id', type: 'uuid' }) timerId!: string;
  @Column({ type: 'text' }) kind!: string;
  @Column({ name: 'dedupe_key', type: 'text', nullable: true }) dedupeKey!: string | null;
  @Column({ name: 'due_at', type: 'timestamptz' }) dueAt!: Date;
  @Column({ type: 'jsonb' }) payload!: Record<string, unknown>;
  @Column({ type: 'integer' }) attempts!: number;
  @Column({ name: 'locked_until', type: 'timestamptz', nullable: true }) lockedUntil!: Date | null;
  @Column({ name: 'last_error', type: 'text', nullable: true }) lastError!: string | null;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @Column({ type: 'integer' }) wakes!: number;
  /** The tenant it works for ('' for none): claims are fair across tenants. */
  @Column({ name: 'tenant_id', type: 'text' }) tenantId!: string;
  /** The claim's token while claimed (with `locked_until`, the lease). */
  @Column({ name: 'lease_id', type: 'uuid', nullable: true }) leaseId!: string | null;
  /** The key a parked timer waits on until `TimersService.release` (see TimerPark). */
  @Column({ name: 'held_on', type: 'text', nullable: true }) heldOn!: string | null;
}
