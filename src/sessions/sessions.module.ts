import { Inject, Module, OnModuleInit } from '@nestjs/common';
import type { BoundedContext } from '../runtime/bounded-context';
import { sessionsMigrations } from './sessions.migrations';
import { sessionEvents, type SessionPayloads } from './sessions.events';
import { APP_CONFIG, AppConfig } from '../config/config';
import { ProjectionsService } from '../runtime/processors.service';
import { TenantsModule } from '../tenants/tenants.module';
import { TimersService } from '../runtime/timers.service';
import { CallsController } from './api/calls.controller';
import { MediaIngestController } from './api/media-ingest.controller';
import { RecordingsController } from './api/recordings.controller';
import { PlaceCallHandler, SessionActionHandler } from './application/session.commands';
import { sessionReactor } from './application/session-reactor.processor';
import { SessionTimers } from './infra/session-timers';
import { sessionsProjection } from './projections/sessions.projection';

@Module({
  imports: [TenantsModule],
  controllers: [CallsController, RecordingsController, MediaIngestController],
  providers: [PlaceCallHandler, SessionActionHandler, SessionTimers],
})
export class SessionsModule implements OnModuleInit {
  static readonly context: BoundedContext<SessionPayloads> = {
    name: 'sessions',
    migrations: sessionsMigrations,
    events: sessionEvents,
  };

  constructor(
    private readonly projections: ProjectionsService,
    private readonly timers: TimersService,
    private readonly sessionTimers: SessionTimers,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.projections.registerProjection(sessionsProjection);
    this.projections.registerProcessor(
      sessionReactor(this.timers, {
        simTimeScale: this.config.simTimeScale,
        gateway: this.config.mediaGatewayUrl !== null,
      }),
    );
    this.sessionTimers.register();
  }
}
