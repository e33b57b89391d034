import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * Written by the outbox processor, so that every delivery sees the endpoints as of its event (schema
 * in webhooks.migrations.ts).
 */
@Entity({ name: 'webhook_endpoints' })
export class WebhookEndpointEntity {
  @PrimaryColumn({ name: 'endpoint_id', type: 'text' }) endpointId!: string;
  @Column({ name: 'tenant_id', type: 'text' }) tenantId!: string;
  @Column({ type: 'text' }) url!: string;
  @Column({ type: 'text', array: true }) events!: string[];
  @Column({ type: 'text', nullable: true }) description!: string | null;
  @Column({ type: 'text' }) status!: string;
  @Column({ name: 'secret_sealed', type: 'text' }) secretSealed!: string;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @Column({ name: 'updated_at', type: 'timestamptz' }) updatedAt!: Date;
  /** Not a column: the endpoint's health row, when a query joins it (webhooks.queries.ts). */
  health?: WebhookEndpointHealthEntity | null;
}

/** The failure streak the delivery worker keeps per endpoint. */
@Entity({ name: 'webhook_endpoint_health' })
export class WebhookEndpointHealthEntity {
  @PrimaryColumn({ name: 'endpoint_id', type: 'text' }) endpointId!: string;
  @Column({ name: 'failure_streak', type: 'integer' }) failureStreak!: number;
  @Column({ name: 'last_status', type: 'integer', nullable: true }) lastStatus!: number | null;
  @Column({ name: 'last_failure_at', type: 'timestamptz', nullable: true }) lastFailureAt!: Date | null;
}
