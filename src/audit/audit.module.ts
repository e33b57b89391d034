import { Inject, Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { BoundedContext } from '../runtime/bounded-context';
import { auditMigrations } from './audit.migrations';
import { EVENT_CATALOG, EventCatalog } from '../catalog/event-catalog';
import { ProjectionsService } from '../runtime/processing/processors.service';
import { TenantsModule } from '../tenants';
import { EventsController } from './api/events.controller';
import { AuditQueries } from './application/audit.queries';
import { FeedWaiters } from './application/feed-waiters';
import { AuditEventEntity } from './projections/audit-event.entity';
import { auditEventsProjection } from './projections/audit-events.projection';

@Module({
  imports: [TypeOrmModule.forFeature([AuditEventEntity]), TenantsModule],
  controllers: [EventsController],
  providers: [AuditQueries, FeedWaiters],
  exports: [AuditQueries],
})
export class AuditModule implements OnModuleInit {
  static readonly context: BoundedContext = { name: 'audit', migrations: auditMigrations };

  constructor(
    private readonly projections: ProjectionsService,
    @Inject(EVENT_CATALOG) private readonly catalog: EventCatalog,
    private readonly feedWaiters: FeedWaiters,
  ) {}

  onModuleInit(): void {
    this.projections.registerProjection(
      auditEventsProjection(this.catalog, (tenants) => this.feedWaiters.wake(tenants)),
    );
  }
}
