import { Controller, Get, Header } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Registry } from 'prom-client';
import { RuntimeMetrics } from '../../runtime/runtime-metrics';
import { WebhookMetrics } from '../infra/webhook-metrics';

/** Prometheus text exposition. Bind the service to a private interface if it must not be public. */
@ApiExcludeController()
@Controller('metrics')
export class MetricsController {
  constructor(
    private readonly metrics: WebhookMetrics,
    private readonly runtime: RuntimeMetrics,
  ) {}

  @Get()
  @Header('content-type', 'text/plain; version=0.0.4; charset=utf-8')
  async metricsText(): Promise<string> {
    // The delivery metrics and the runtime's (processor failures, dead letters) on one page.
    return Registry.merge([this.metrics.registry, this.runtime.registry]).metrics();
  }
}
