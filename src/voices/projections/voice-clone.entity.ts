import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { SampleMeasurement } from '../domain/audio-meter';
import type { SampleFile } from '../domain/voice-clone.decider';
import type { VoiceModel } from '../domain/voice-trainer';

/** A sample as the read model keeps it: the file, and its measurement once the job has made it. */
export type StoredSample = SampleFile & { measurement: SampleMeasurement | null };

/** Written by voices.projection.ts (schema in voices.migrations.ts). A deleted voice's row is deleted. */
@Entity({ name: 'voice_clones' })
export class VoiceCloneEntity {
  @PrimaryColumn({ name: 'voice_id', type: 'text' }) voiceId!: string;
  @Column({ name: 'tenant_id', type: 'text' }) tenantId!: string;
  @Column({ type: 'text' }) name!: string;
  @Column({ type: 'text' }) status!: string;
  @Column({ type: 'jsonb' }) samples!: StoredSample[];
  @Column({ name: 'error_code', type: 'text', nullable: true }) errorCode!: string | null;
  @Column({ name: 'error_message', type: 'text', nullable: true }) errorMessage!: string | null;
  @Column({ type: 'jsonb', nullable: true }) model!: VoiceModel | null;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @Column({ name: 'training_started_at', type: 'timestamptz', nullable: true }) trainingStartedAt!: Date | null;
  @Column({ name: 'ready_at', type: 'timestamptz', nullable: true }) readyAt!: Date | null;
  @Column({ name: 'failed_at', type: 'timestamptz', nullable: true }) failedAt!: Date | null;
}
