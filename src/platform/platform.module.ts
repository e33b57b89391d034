import { Module } from '@nestjs/common';
import { DeadLettersController } from './dead-letters.controller';
import { MetricsController } from './metrics.controller';
import { ProjectionsController } from './projections.controller';

/**
 * The platform's own operator routes, which belong to no context: `/metrics` (the runtime's metrics
 * and every context's contributed registry), the dead letters and the rebuild of read models. All
 * are behind `AdminGuard` (src/infra/http/admin.guard.ts). It is no bounded context: app.module.ts
 * imports it beside the contexts.
 */
@Module({
  controllers: [MetricsController, DeadLettersController, ProjectionsController],
})
export class PlatformModule {}
