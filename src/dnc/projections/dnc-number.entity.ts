import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Written by dnc.projection.ts (schema in dnc.migrations.ts). */
@Entity({ name: 'dnc_numbers' })
export class DncNumberEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'text' }) tenantId!: string;
  @PrimaryColumn({ name: 'phone_number', type: 'text' }) phoneNumber!: string;
  @Column({ type: 'text' }) source!: string;
  @Column({ name: 'session_id', type: 'text', nullable: true }) sessionId!: string | null;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
}
