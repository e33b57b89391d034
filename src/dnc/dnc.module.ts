import { Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { BoundedContext } from '../runtime/bounded-context';
import { dncMigrations } from './dnc.migrations';
import { ProjectionsService } from '../runtime/processing/processors.service';
import { TenantsModule } from '../tenants';
import { DncController } from './api/dnc.controller';
import { ChangeDncHandler } from './application/dnc.commands';
import { DncQueries, ListedNumbersHandler } from './application/dnc.queries';
import { DncNumberEntity } from './projections/dnc-number.entity';
import { dncProjection } from './projections/dnc.projection';
import { dncEdge } from './domain/dnc.decider';

@Module({
  imports: [TypeOrmModule.forFeature([DncNumberEntity]), TenantsModule],
  controllers: [DncController],
  providers: [ChangeDncHandler, DncQueries, ListedNumbersHandler],
})
export class DncModule implements OnModuleInit {
  static readonly context: BoundedContext = { name: 'dnc', migrations: dncMigrations, edge: dncEdge };

  constructor(private readonly projections: ProjectionsService) {}

  onModuleInit(): void {
    this.projections.registerProjection(dncProjection);
  }
}
