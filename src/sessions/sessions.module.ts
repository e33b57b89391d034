import { Global, Inject, Module, OnModuleInit } from '@nestjs/common';
import { CallAnalyticsController } from './api/call-analytics.controller';
import { CallAnalyticsQuery } from './application/call-analytics.query';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { BoundedContext } from '../runtime/bounded-context';
import { sessionsMigrations } from './sessions.migrations';
import { sessionEvents, type SessionPayloads } from './sessions.events';
import { APP_CONFIG, AppConfig, settingsOf } from '../config/config';
import { sessionsSettings } from './sessions.config';
import { ProjectionsService } from '../runtime/processing/processors.service';
import { TenantsModule } from '../tenants';
import { AuditModule } from '../audit';
import { TimersService } from '../runtime/timers/timers.service';
import { CallsController } from './api/calls.controller';
import { MediaIngestController } from './api/media-ingest.controller';
import { RecordingsController } from './api/recordings.controller';
import { OpenRoomSessionHandler, PlaceCallHandler, SessionActionHandler } from './application/session.commands';
import { SessionsQueries } from './application/sessions.queries';
import { RecentCallsToHandler } from './application/recent-calls.query';
import { GetSessionHandler, SessionViews } from './application/get-session.query';
import { VoicesModule } from '../voices';
import { sessionReactor } from './application/session-reactor.processor';
import { LegacyRecordings } from './application/legacy-recordings';
import { SessionTimers } from './application/session-timers';
import { SessionDispositions } from './application/session-dispositions';
import { SessionAnalysis } from './application/session-analysis';
import { SessionLive } from './application/session-live';
import { SessionPartials } from './application/session-partials';
import { SessionPersona } from './application/session-persona';
import { SessionEntity } from './projections/session.entity';
import { sessionsProjection } from './projections/sessions.projection';
import { RecordingLinks } from './infra/recording-links';
import { CLOCK, Clock } from '../kernel/clock';
import { sessionEdge } from './domain/session.decider';

/**
 * Sessions' partial transcripts and live view, global: conversations' CallHost publishes partials
 * where a call is carried, and rooms serve a room's live view to its participant, neither importing
 * this module (it provides sessions' ports).
 */
@Global()
@Module({ providers: [SessionPartials, SessionLive], exports: [SessionPartials, SessionLive] })
export class SessionLiveModule {}

@Module({
  imports: [TypeOrmModule.forFeature([SessionEntity]), TenantsModule, AuditModule, VoicesModule, SessionLiveModule],
  controllers: [CallsController, RecordingsController, MediaIngestController, CallAnalyticsController],
  providers: [
    CallAnalyticsQuery,
    PlaceCallHandler,
    OpenRoomSessionHandler,
    SessionActionHandler,
    SessionTimers,
    SessionDispositions,
    SessionAnalysis,
    SessionPersona,
    SessionsQueries,
    RecentCallsToHandler,
    SessionViews,
    GetSessionHandler,
    LegacyRecordings,
    {
      provide: RecordingLinks,
      inject: [APP_CONFIG, CLOCK],
      useFactory: (config: AppConfig, clock: Clock) => RecordingLinks.fromConfig(config, clock),
    },
  ],
})
export class SessionsModule implements OnModuleInit {
  static readonly context: BoundedContext<SessionPayloads> = {
    name: 'sessions',
    migrations: sessionsMigrations,
    events: sessionEvents,
    edge: sessionEdge,

    settings: sessionsSettings,
  };

  constructor(
    private readonly projections: ProjectionsService,
    private readonly timers: TimersService,
    private readonly sessionTimers: SessionTimers,
    private readonly dispositions: SessionDispositions,
    private readonly analysis: SessionAnalysis,
    private readonly persona: SessionPersona,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    // Production calls are dispatched by a timer to the media gateway or, without one, over SIP
    // (telephony's CallDialer, when SIP_TRUNK_URI is set); else the simulator plays them. The dispatch
    // is scheduled wherever the call is placed, and claimed by a process that has a dialer: an API
    // instance next to media processes (SIP_MEDIA_PROCESS=external) has none and leaves it to them.
    const sip = this.config.mediaGatewayUrl === null && this.config.sipTrunkUri !== null;
    this.projections.registerProjection(sessionsProjection);
    this.projections.registerProcessor(
      sessionReactor(this.timers, {
        simTimeScale: settingsOf(this.config, sessionsSettings).simTimeScale,
        gateway: this.config.mediaGatewayUrl !== null || sip,
        sip,
      }),
    );
    this.sessionTimers.register();
    this.dispositions.register();
    this.analysis.register();
    this.persona.register();
  }
}
