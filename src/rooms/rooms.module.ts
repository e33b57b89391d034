import { Inject, Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { APP_CONFIG, AppConfig } from '../config/config';
import { CLOCK, Clock } from '../kernel/clock';
import type { BoundedContext } from '../runtime/bounded-context';
import { roomsSettings } from './rooms.config';
import { WorkerLifecycle } from '../runtime/workers/lifecycle';
import { ProjectionsService } from '../runtime/processing/processors.service';
import { TimersService } from '../runtime/timers/timers.service';
import { TenantsModule } from '../tenants';
import { RoomMediaIngestController } from './api/room-media-ingest.controller';
import { RoomPageController, WHIP_BODIES } from './api/room-page.controller';
import { RoomsController } from './api/rooms.controller';
import { CreateRoomHandler, RoomActionHandler } from './application/room.commands';
import { RoomCalls } from './application/room-calls';
import { roomReactor } from './application/room-reactor.processor';
import { RoomTimers } from './application/room-timers';
import { RoomsQueries } from './application/rooms.queries';
import { RoomLinks } from './infra/room-links';
import { RoomSlots } from './infra/room-slots';
import { RoomEntity } from './projections/room.entity';
import { roomsProjection } from './projections/rooms.projection';
import { roomEvents, type RoomPayloads } from './rooms.events';
import { roomsMigrations } from './rooms.migrations';
import { roomEdge } from './domain/room.decider';

/** WebRTC rooms: signed links, the landing page, WHIP, the agent's peer and the room's session (docs/rooms.md). */
@Module({
  imports: [TypeOrmModule.forFeature([RoomEntity]), TenantsModule],
  controllers: [RoomsController, RoomPageController, RoomMediaIngestController],
  providers: [
    CreateRoomHandler,
    RoomActionHandler,
    RoomsQueries,
    RoomTimers,
    RoomCalls,
    RoomSlots,
    {
      provide: RoomLinks,
      inject: [APP_CONFIG, CLOCK],
      useFactory: (config: AppConfig, clock: Clock) => RoomLinks.fromConfig(config, clock),
    },
  ],
})
export class RoomsModule implements OnModuleInit {
  static readonly context: BoundedContext<RoomPayloads> = {
    name: 'rooms',
    migrations: roomsMigrations,
    events: roomEvents,
    textBodies: [WHIP_BODIES],

    edge: roomEdge,

    settings: roomsSettings,
  };

  constructor(
    private readonly projections: ProjectionsService,
    private readonly timers: TimersService,
    private readonly roomTimers: RoomTimers,
    private readonly calls: RoomCalls,
    private readonly lifecycle: WorkerLifecycle,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.projections.registerProjection(roomsProjection);
    this.projections.registerProcessor(roomReactor(this.timers, { gateway: this.config.mediaGatewayUrl !== null }));
    this.roomTimers.register();
    this.calls.register();
    this.lifecycle.register(this.calls);
  }
}
