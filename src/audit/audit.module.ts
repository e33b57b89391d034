import { Module, OnModuleInit } from '@nestjs/common';
import { ProjectionsService } from '../runtime/processors.service';
import { TenantsModule } from '../tenants/tenants.module';
import { EventsController } from './api/events.controller';
import { auditEventsProjection } from './projections/audit-events.projection';

@Module({ imports: [TenantsModule], controllers: [EventsController] })
export class AuditModule implements OnModuleInit {
  constructor(private readonly projections: ProjectionsService) {}

  onModuleInit(): void {
    this.projections.registerProjection(auditEventsProjection);
  }
}
