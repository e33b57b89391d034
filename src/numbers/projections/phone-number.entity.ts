import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { AgentConfig } from '../../sessions';

/** Written by numbers.projection.ts (schema in numbers.migrations.ts). A released number's row is deleted. */
@Entity({ name: 'phone_numbers' })
export class PhoneNumberEntity {
  @PrimaryColumn({ name: 'phone_number_id', type: 'text' }) phoneNumberId!: string;
  @Column({ name: 'tenant_id', type: 'text' }) tenantId!: string;
  @Column({ name: 'phone_number', type: 'text' }) phoneNumber!: string;
  @Column({ name: 'agent_config', type: 'jsonb' }) agentConfig!: AgentConfig;
  @Column({ name: 'test_mode', type: 'boolean' }) testMode!: boolean;
  /** This registration owns the number: it takes the media gateway's calls (at most one per number). */
  @Column({ name: 'owns', type: 'boolean' }) owns!: boolean;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @Column({ name: 'updated_at', type: 'timestamptz' }) updatedAt!: Date;
}
