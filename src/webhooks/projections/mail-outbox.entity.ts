import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * E-mail notices (endpoint suspended), queued by the outbox processor and sent by the mail worker
 * (raw SQL, see docs/decisions/0018-typeorm-maps-every-table-and-runs-the-migrations-raw-sql.md).
 */
@Entity({ name: 'mail_outbox' })
export class MailOutboxEntity {
  @PrimaryColumn({ name: 'mail_id', type: 'text' }) mailId!: string;
  @Column({ name: 'tenant_id', type: 'text' }) tenantId!: string;
  @Column({ name: 'to_address', type: 'text', nullable: true }) toAddress!: string | null;
  @Column({ type: 'text' }) subject!: string;
  @Column({ type: 'text' }) body!: string;
  @Column({ type: 'text' }) status!: string;
  @Column({ type: 'integer' }) attempts!: number;
  @Column({ name: 'next_attempt_at', type: 'timestamptz' }) nextAttemptAt!: Date;
  @Column({ name: 'locked_until', type: 'timestamptz', nullable: true }) lockedUntil!: Date | null;
  @Column({ name: 'last_error', type: 'text', nullable: true }) lastError!: string | null;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @Column({ name: 'sent_at', type: 'timestamptz', nullable: true }) sentAt!: Date | null;
}
