import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { AgentConfig } from '../../sessions';
import type { CampaignSettings } from '../domain/campaign.decider';

/** Written by campaigns.projection.ts (schema in campaigns.migrations.ts). */
@Entity({ name: 'campaigns' })
export class CampaignEntity {
  @PrimaryColumn({ name: 'campaign_id', type: 'text' }) campaignId!: string;
  @Column({ name: 'tenant_id', type: 'text' }) tenantId!: string;
  @Column({ type: 'text' }) name!: string;
  @Column({ type: 'text' }) status!: string;
  @Column({ name: 'from_number', type: 'text' }) fromNumber!: string;
  @Column({ name: 'test_mode', type: 'boolean' }) testMode!: boolean;
  @Column({ name: 'agent_config', type: 'jsonb', nullable: true }) agentConfig!: AgentConfig | null;
  @Column({ type: 'jsonb' }) settings!: CampaignSettings;
  @Column({ name: 'total_contacts', type: 'integer' }) totalContacts!: number;
  @Column({ name: 'pending_contacts', type: 'integer' }) pendingContacts!: number;
  @Column({ name: 'dispatched_contacts', type: 'integer' }) dispatchedContacts!: number;
  @Column({ name: 'completed_contacts', type: 'integer' }) completedContacts!: number;
  @Column({ name: 'failed_contacts', type: 'integer' }) failedContacts!: number;
  @Column({ name: 'skipped_contacts', type: 'integer' }) skippedContacts!: number;
  @Column({ name: 'next_open_at', type: 'timestamptz', nullable: true }) nextOpenAt!: Date | null;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @Column({ name: 'started_at', type: 'timestamptz', nullable: true }) startedAt!: Date | null;
  @Column({ name: 'paused_at', type: 'timestamptz', nullable: true }) pausedAt!: Date | null;
  @Column({ name: 'completed_at', type: 'timestamptz', nullable: true }) completedAt!: Date | null;
}

@Entity({ name: 'campaign_contacts' })
export class CampaignContactEntity {
  @PrimaryColumn({ name: 'contact_id', type: 'text' }) contactId!: string;
  @Column({ name: 'campaign_id', type: 'text' }) campaignId!: string;
  @Column({ name: 'tenant_id', type: 'text' }) tenantId!: string;
  @Column({ type: 'integer' }) ordinal!: number;
  @Column({ name: 'phone_number', type: 'text' }) phoneNumber!: string;
  @Column({ type: 'text', nullable: true }) email!: string | null;
  @Column({ name: 'first_name', type: 'text', nullable: true }) firstName!: string | null;
  @Column({ name: 'last_name', type: 'text', nullable: true }) lastName!: string | null;
  @Column({ type: 'text', nullable: true }) timezone!: string | null;
  @Column({ type: 'jsonb' }) zones!: string[];
  @Column({ type: 'text' }) status!: string;
  @Column({ name: 'skip_reason', type: 'text', nullable: true }) skipReason!: string | null;
  @Column({ name: 'session_id', type: 'text', nullable: true }) sessionId!: string | null;
  @Column({ name: 'dispatched_at', type: 'timestamptz', nullable: true }) dispatchedAt!: Date | null;
  @Column({ name: 'finished_at', type: 'timestamptz', nullable: true }) finishedAt!: Date | null;
  @Column({ name: 'duration_seconds', type: 'integer', nullable: true }) durationSeconds!: number | null;
  @Column({ name: 'actual_cost_cents', type: 'integer', nullable: true }) actualCostCents!: number | null;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
}
