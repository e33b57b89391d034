import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Written by rooms.projection.ts (schema in rooms.migrations.ts). */
@Entity({ name: 'rooms' })
export class RoomEntity {
  @PrimaryColumn({ name: 'room_id', type: 'text' }) roomId!: string;
  @Column({ name: 'tenant_id', type: 'text' }) tenantId!: string;
  @Column({ type: 'text' }) status!: string;
  @Column({ name: 'room_url', type: 'text' }) roomUrl!: string;
  @Column({ name: 'participant_id', type: 'text' }) participantId!: string;
  @Column({ name: 'session_id', type: 'text' }) sessionId!: string;
  @Column({ name: 'client_reference_id', type: 'text', nullable: true }) clientReferenceId!: string | null;
  @Column({ name: 'agent_config', type: 'jsonb', nullable: true }) agentConfig!: unknown;
  @Column({ name: 'voice_id', type: 'text' }) voiceId!: string;
  @Column({ name: 'test_scenario', type: 'text', nullable: true }) testScenario!: string | null;
  @Column({ name: 'expires_at', type: 'timestamptz' }) expiresAt!: Date;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @Column({ name: 'landing_viewed_at', type: 'timestamptz', nullable: true }) landingViewedAt!: Date | null;
  @Column({ name: 'joined_at', type: 'timestamptz', nullable: true }) joinedAt!: Date | null;
  @Column({ name: 'completed_at', type: 'timestamptz', nullable: true }) completedAt!: Date | null;
  @Column({ name: 'duration_seconds', type: 'integer', nullable: true }) durationSeconds!: number | null;
  @Column({ name: 'end_reason', type: 'text', nullable: true }) endReason!: string | null;
  @Column({ name: 'expired_at', type: 'timestamptz', nullable: true }) expiredAt!: Date | null;
  @Column({ name: 'failed_at', type: 'timestamptz', nullable: true }) failedAt!: Date | null;
  @Column({ name: 'error_code', type: 'text', nullable: true }) errorCode!: string | null;
  @Column({ name: 'error_message', type: 'text', nullable: true }) errorMessage!: string | null;
  @Column({ name: 'recording_id', type: 'text', nullable: true }) recordingId!: string | null;
}
