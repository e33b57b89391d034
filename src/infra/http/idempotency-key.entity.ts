import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A stored Idempotency-Key and its sealed response (idempotency.interceptor.ts, raw SQL, see
 * docs/decisions/0018-typeorm-maps-every-table-and-runs-the-migrations-raw-sql.md).
 */
@Entity({ name: 'idempotency_keys' })
export class IdempotencyKeyEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'text' }) tenantId!: string;
  @PrimaryColumn({ type: 'text' }) key!: string;
  @Column({ type: 'text' }) method!: string;
  @Column({ type: 'text' }) path!: string;
  @Column({ name: 'request_hash', type: 'text' }) requestHash!: string;
  @Column({ type: 'text' }) status!: 'in_progress' | 'completed';
  @Column({ name: 'response_status', type: 'integer', nullable: true }) responseStatus!: number | null;
  @Column({ name: 'response_sealed', type: 'text', nullable: true }) responseSealed!: string | null;
  @Column({ name: 'locked_until', type: 'timestamptz', nullable: true }) lockedUntil!: Date | null;
  /** What the stored answer left out (`api_key`, `secret`): its replay is a 409 (decision 63). */
  @Column({ name: 'secrets_withheld', type: 'text', nullable: true }) secretsWithheld!: string | null;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
}
