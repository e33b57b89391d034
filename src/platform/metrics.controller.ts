import { Controller, Get, Header, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { AdminGuard } from '../infra/http/admin.guard';
import { RuntimeMetrics } from '../runtime/observability/runtime-metrics';

/**
 * Prometheus text exposition, for the operator: it requires `Authorization: Bearer $ADMIN_TOKEN`
 * (Prometheus: `authorization: { credentials: … }` in the scrape config). Queue sizes and failure
 * counts of every tenant are not for anyone who can reach the port.
 */
@ApiExcludeController()
@UseGuards(AdminGuard)
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: RuntimeMetrics) {}

  @Get()
  @Header('content-type', 'text/plain; version=0.0.4; charset=utf-8')
  async metricsText(): Promise<string> {
    // The contexts' metrics (webhook deliveries) and the runtime's (processor failures, dead letters) on one page.
    return this.metrics.text();
  }
}
