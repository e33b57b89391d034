import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Written by sessions.projection.ts (schema in sessions.migrations.ts). */
@Entity({ name: 'sessions' })
export class SessionEntity {
  @PrimaryColumn({ name: 'session_id', type: 'text' }) sessionId!: string;
  @Column({ name: 'tenant_id', type: 'text' }) tenantId!: string;
  @Column({ type: 'text' }) status!: string;
  /** Why a queued session waits (SESSION_HOLD_REASONS); null otherwise. */
  @Column({ name: 'hold_reason', type: 'text', nullable: true }) holdReason!: string | null;
  @Column({ type: 'text' }) direction!: 'outbound' | 'inbound';
  @Column({ name: 'to_number', type: 'text', nullable: true }) toNumber!: string | null;
  @Column({ name: 'from_number', type: 'text', nullable: true }) fromNumber!: string | null;
  @Column({ name: 'campaign_id', type: 'text', nullable: true }) campaignId!: string | null;
  @Column({ name: 'contact_id', type: 'text', nullable: true }) contactId!: string | null;
  @Column({ type: 'text', nullable: true }) email!: string | null;
  @Column({ name: 'first_name', type: 'text', nullable: true }) firstName!: string | null;
  @Column({ name: 'last_name', type: 'text', nullable: true }) lastName!: string | null;
  @Column({ name: 'client_reference_id', type: 'text', nullable: true }) clientReferenceId!: string | null;
  @Column({ name: 'voice_id', type: 'text' }) voiceId!: string;
  @Column({ name: 'test_mode', type: 'boolean' }) testMode!: boolean;
  /** A test call with a `test_persona` (a simulated callee that speaks): capped per tenant while live. */
  @Column({ name: 'test_persona', type: 'boolean' }) testPersona!: boolean;
  @Column({ name: 'end_reason', type: 'text', nullable: true }) endReason!: string | null;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @Column({ name: 'started_at', type: 'timestamptz', nullable: true }) startedAt!: Date | null;
  @Column({ name: 'ended_at', type: 'timestamptz', nullable: true }) endedAt!: Date | null;
  @Column({ name: 'duration_seconds', type: 'integer' }) durationSeconds!: number;
  @Column({ name: 'actual_cost_cents', type: 'integer' }) actualCostCents!: number;
  @Column({ type: 'jsonb' }) transcript!: unknown[];
  @Column({ name: 'function_invocations', type: 'jsonb' }) functionInvocations!: unknown[];
  /** Each measured agent turn (TurnMetrics), in order. */
  @Column({ name: 'turn_metrics', type: 'jsonb' }) turnMetrics!: unknown[];
  @Column({ name: 'transfer_number', type: 'text', nullable: true }) transferNumber!: string | null;
  @Column({ name: 'opted_out', type: 'boolean' }) optedOut!: boolean;
  @Column({ name: 'consent_refused', type: 'boolean' }) consentRefused!: boolean;
  @Column({ name: 'agent_disposition', type: 'jsonb', nullable: true }) agentDisposition!: unknown;
  @Column({ name: 'recording_id', type: 'text', nullable: true }) recordingId!: string | null;
  @Column({ name: 'recording_status', type: 'text', nullable: true }) recordingStatus!: string | null;
  @Column({ name: 'recording_url', type: 'text', nullable: true }) recordingUrl!: string | null;
  @Column({ name: 'purge_after', type: 'timestamptz', nullable: true }) purgeAfter!: Date | null;
  /** The post-call analysis (`session.analysis_completed`: CallAnalysis); null until done, or when none was asked. */
  @Column({ type: 'jsonb', nullable: true }) analysis!: unknown;
  /** Who answered an outbound call (`session.amd_decided`: AnsweringMachineDetection); null when not screened. */
  @Column({ type: 'jsonb', nullable: true }) amd!: unknown;
  /** An answering machine took the call and the agent left its message (`session.failed`, status voicemail). */
  @Column({ name: 'voicemail_message_left', type: 'boolean', default: false }) voicemailMessageLeft!: boolean;
}
