import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** Written by audit-events.projection.ts (schema in audit.migrations.ts). */
@Entity({ name: 'audit_events' })
export class AuditEventEntity {
  /** Commit order of the tenant's feed. */
  @PrimaryGeneratedColumn({ type: 'bigint' }) seq!: string;
  @Column({ name: 'event_id', type: 'uuid' }) eventId!: string;
  @Column({ name: 'tenant_id', type: 'text' }) tenantId!: string;
  @Column({ type: 'text' }) type!: string;
  @Column({ name: 'session_id', type: 'text', nullable: true }) sessionId!: string | null;
  /** `json`, not `jsonb`: the envelope comes back with its keys in the order they were written. */
  @Column({ type: 'json' }) envelope!: unknown;
}
