import { Module, OnModuleInit } from '@nestjs/common';
import type { BoundedContext } from '../runtime/bounded-context';
import { dncMigrations } from './dnc.migrations';
import { ProjectionsService } from '../runtime/processors.service';
import { TenantsModule } from '../tenants';
import { DncController } from './api/dnc.controller';
import { ChangeDncHandler } from './application/dnc.commands';
import { dncProjection } from './projections/dnc.projection';

@Module({ imports: [TenantsModule], controllers: [DncController], providers: [ChangeDncHandler] })
export class DncModule implements OnModuleInit {
  static readonly context: BoundedContext = { name: 'dnc', migrations: dncMigrations };

  constructor(private readonly projections: ProjectionsService) {}

  onModuleInit(): void {
    this.projections.registerProjection(dncProjection);
  }
}
