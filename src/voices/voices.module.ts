import { Inject, Logger, Module, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { APP_CONFIG, AppConfig, settingsOf } from '../config/config';
import { voicesSettings } from './voices.config';
import { BLOB_STORE, type BlobStore } from '../infra/blobs/blob-store.port';
import type { BoundedContext } from '../runtime/bounded-context';
import { ProjectionsService } from '../runtime/processing/processors.service';
import { TimersService } from '../runtime/timers/timers.service';
import { TenantsModule } from '../tenants';
import { VoicesController } from './api/voices.controller';
import { ChangeVoiceCloneHandler, UploadVoiceCloneHandler } from './application/voice-clone.commands';
import { LegacySamples } from './application/legacy-samples';
import { VoiceTraining, voicesReactor } from './application/voice-training';
import { VoiceQuota } from './application/voice-quota';
import { VoiceUsableHandler } from './application/voice-usable.query';
import { VoicesQueries } from './application/voices.queries';
import { VOICE_TRAINER } from './domain/voice-trainer';
import { BuiltinVoiceTrainer } from './infra/builtin-voice-trainer';
import { DECODE_POOL, DecodePool } from './infra/decode-pool';
import { SAMPLE_STORE, SampleStore } from './infra/sample-store';
import { VoiceCloneEntity } from './projections/voice-clone.entity';
import { voicesProjection } from './projections/voices.projection';
import { voiceCloneEvents, type VoiceClonePayloads } from './voices.events';
import { voicesMigrations } from './voices.migrations';
import { voiceCloneEdge } from './domain/voice-clone.decider';

/** Staging directories older than this at start were left by a crash mid-upload. */
const STALE_UPLOAD_MS = 60 * 60_000;

/** Voice clones: uploads, the training job behind the trainer port, and the voice check (docs/voices.md). */
@Module({
  imports: [TypeOrmModule.forFeature([VoiceCloneEntity]), TenantsModule],
  controllers: [VoicesController],
  providers: [
    UploadVoiceCloneHandler,
    ChangeVoiceCloneHandler,
    VoiceUsableHandler,
    VoicesQueries,
    VoiceTraining,
    VoiceQuota,
    {
      provide: DECODE_POOL,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => {
        const limits = settingsOf(config, voicesSettings);
        return new DecodePool({ workers: limits.decodeWorkers, measureTimeoutMs: limits.decodeTimeoutMs });
      },
    },
    LegacySamples,
    { provide: VOICE_TRAINER, useFactory: () => new BuiltinVoiceTrainer() },
    {
      provide: SAMPLE_STORE,
      inject: [APP_CONFIG, BLOB_STORE],
      useFactory: (config: AppConfig, blobs: BlobStore) => new SampleStore(config.dataDir, blobs),
    },
  ],
})
export class VoicesModule implements OnModuleInit, OnApplicationShutdown {
  static readonly context: BoundedContext<VoiceClonePayloads> = {
    name: 'voices',
    migrations: voicesMigrations,
    events: voiceCloneEvents,
    settings: voicesSettings,

    edge: voiceCloneEdge,
  };

  constructor(
    private readonly projections: ProjectionsService,
    private readonly timers: TimersService,
    private readonly training: VoiceTraining,
    @Inject(SAMPLE_STORE) private readonly store: SampleStore,
    @Inject(DECODE_POOL) private readonly decoding: DecodePool,
  ) {}

  onModuleInit(): void {
    this.projections.registerProjection(voicesProjection);
    this.projections.registerProcessor(voicesReactor(this.timers));
    this.training.register();
    this.store
      .sweepStaging(STALE_UPLOAD_MS)
      .catch((err: unknown) => new Logger('Voices').warn(`sweeping stale uploads failed: ${String(err)}`));
  }

  /** After the timers have stopped (their handlers ended): the decoding workers go. */
  onApplicationShutdown(): Promise<void> {
    return this.decoding.close();
  }
}
