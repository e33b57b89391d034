import { Inject, Module, OnModuleInit } from '@nestjs/common';
import type { BoundedContext } from '../runtime/bounded-context';
import { auditMigrations } from './audit.migrations';
import { EVENT_CATALOG, EventCatalog } from '../catalog/event-catalog';
import { ProjectionsService } from '../runtime/processors.service';
import { TenantsModule } from '../tenants/tenants.module';
import { EventsController } from './api/events.controller';
import { auditEventsProjection } from './projections/audit-events.projection';

@Module({ imports: [TenantsModule], controllers: [EventsController] })
export class AuditModule implements OnModuleInit {
  static readonly context: BoundedContext = { name: 'audit', migrations: auditMigrations };

  constructor(
    private readonly projections: ProjectionsService,
    @Inject(EVENT_CATALOG) private readonly catalog: EventCatalog,
  ) {}

  onModuleInit(): void {
    this.projections.registerProjection(auditEventsProjection(this.catalog));
  }
}
