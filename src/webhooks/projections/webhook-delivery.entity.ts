import { Column, Entity, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';

/**
 * One event to one endpoint, created by the outbox fan-out and worked by the delivery worker (both
 * raw SQL, see docs/decisions/0018-typeorm-maps-every-table-and-runs-the-migrations-raw-sql.md);
 * schema in webhooks.migrations.ts.
 */
@Entity({ name: 'webhook_deliveries' })
export class WebhookDeliveryEntity {
  @PrimaryColumn({ name: 'delivery_id', type: 'text' }) deliveryId!: string;
  @Column({ name: 'event_id', type: 'uuid' }) eventId!: string;
  @Column({ name: 'endpoint_id', type: 'text' }) endpointId!: string;
  @Column({ name: 'tenant_id', type: 'text' }) tenantId!: string;
  @Column({ name: 'event_type', type: 'text' }) eventType!: string;
  @Column({ type: 'text' }) payload!: string;
  @Column({ type: 'text' }) status!: 'pending' | 'succeeded' | 'failed';
  @Column({ name: 'attempt_count', type: 'integer' }) attemptCount!: number;
  @Column({ name: 'next_attempt_at', type: 'timestamptz', nullable: true }) nextAttemptAt!: Date | null;
  @Column({ name: 'locked_until', type: 'timestamptz', nullable: true }) lockedUntil!: Date | null;
  @Column({ name: 'first_attempt_at', type: 'timestamptz', nullable: true }) firstAttemptAt!: Date | null;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @Column({ name: 'updated_at', type: 'timestamptz' }) updatedAt!: Date;
}

/** One try of a delivery, recorded by the delivery worker. */
@Entity({ name: 'webhook_attempts' })
export class WebhookAttemptEntity {
  @PrimaryGeneratedColumn({ name: 'attempt_id', type: 'bigint' }) attemptId!: string;
  @Column({ name: 'delivery_id', type: 'text' }) deliveryId!: string;
  @Column({ name: 'attempted_at', type: 'timestamptz' }) attemptedAt!: Date;
  @Column({ name: 'http_status', type: 'integer', nullable: true }) httpStatus!: number | null;
  @Column({ type: 'text', nullable: true }) error!: string | null;
  @Column({ name: 'duration_ms', type: 'integer' }) durationMs!: number;
  @Column({ name: 'response_body', type: 'text', nullable: true }) responseBody!: string | null;
}
