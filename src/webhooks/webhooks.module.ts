import { Inject, Module, OnModuleInit } from '@nestjs/common';
import type { BoundedContext } from '../runtime/bounded-context';
import { webhooksMigrations } from './webhooks.migrations';
import { webhookEvents, type WebhookPayloads } from './webhooks.events';
import { EVENT_CATALOG, EventCatalog } from '../catalog/event-catalog';
import { CommandBus } from '@nestjs/cqrs';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ProjectionsService } from '../runtime/processing/processors.service';
import { TenantsModule } from '../tenants';
import { RedeliverHandler } from './application/delivery.commands';
import { ChangeEndpoint, ChangeEndpointHandler, CreateEndpointHandler } from './application/endpoint.commands';
import { WebhooksQueries } from './application/webhooks.queries';
import { DeliveryReportsController } from './api/delivery-reports.controller';
import { WebhookEndpointsController } from './api/webhook-endpoints.controller';
import { AttemptRecorder } from './infra/attempt-recorder';
import { DeliveryClaims } from './infra/delivery-claims';
import { DeliverySender } from './infra/delivery-sender';
import { DeliveryWorker } from './infra/delivery-worker';
import { DeliveryRetention } from './infra/delivery-retention';
import { MailWorker } from './infra/mail-worker';
import { WebhookMetrics } from './infra/webhook-metrics';
import { MailOutboxEntity } from './projections/mail-outbox.entity';
import { WebhookAttemptEntity, WebhookDeliveryEntity } from './projections/webhook-delivery.entity';
import { WebhookEndpointEntity, WebhookEndpointHealthEntity } from './projections/webhook-endpoint.entity';
import { webhookOutboxProcessor } from './projections/webhook-outbox.processor';
import { WorkerLifecycle } from '../runtime/workers/lifecycle';
import { RuntimeMetrics } from '../runtime/observability/runtime-metrics';
import { APP_CONFIG, AppConfig, settingsOf } from '../config/config';
import { webhooksSettings } from './webhooks.config';
import { configureWebhookDns } from './infra/address-policy';
import { endpointEdge } from './domain/endpoint.decider';

@Module({
  imports: [
    TypeOrmModule.forFeature([
      WebhookEndpointEntity,
      WebhookEndpointHealthEntity,
      WebhookDeliveryEntity,
      WebhookAttemptEntity,
      MailOutboxEntity,
    ]),
    TenantsModule,
  ],
  controllers: [WebhookEndpointsController, DeliveryReportsController],
  providers: [
    CreateEndpointHandler,
    ChangeEndpointHandler,
    RedeliverHandler,
    WebhooksQueries,
    WebhookMetrics,
    DeliveryClaims,
    DeliverySender,
    AttemptRecorder,
    DeliveryWorker,
    DeliveryRetention,
    MailWorker,
    {
      // The worker suspends an endpoint through the same command as everything else.
      provide: 'SUSPEND_ENDPOINT',
      inject: [CommandBus],
      useFactory:
        (commands: CommandBus) =>
        async (
          tenantId: string,
          endpointId: string,
          failureStreak: number,
          lastStatus: number | null,
        ): Promise<void> => {
          await commands.execute(
            new ChangeEndpoint(tenantId, endpointId, { type: 'suspend', failureStreak, lastStatus }),
          );
        },
    },
  ],
  exports: [DeliveryWorker],
})
export class WebhooksModule implements OnModuleInit {
  static readonly context: BoundedContext<WebhookPayloads> = {
    name: 'webhooks',
    migrations: webhooksMigrations,
    events: webhookEvents,
    edge: endpointEdge,

    settings: webhooksSettings,
  };

  constructor(
    private readonly projections: ProjectionsService,
    private readonly worker: DeliveryWorker,
    private readonly mail: MailWorker,
    private readonly retention: DeliveryRetention,
    private readonly lifecycle: WorkerLifecycle,
    @Inject(EVENT_CATALOG) private readonly catalog: EventCatalog,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly metrics: WebhookMetrics,
    private readonly runtimeMetrics: RuntimeMetrics,
  ) {}

  onModuleInit(): void {
    configureWebhookDns({ timeoutMs: settingsOf(this.config, webhooksSettings).dnsTimeoutMs });
    this.projections.registerProjection(
      webhookOutboxProcessor(
        this.catalog,
        { deliveries: () => this.worker.poke(), mail: () => this.mail.poke() },
        this.config.baseUrl,
      ),
    );
    this.lifecycle.register(this.worker);
    this.lifecycle.register(this.mail);
    this.lifecycle.register(this.retention);
    this.runtimeMetrics.contribute(this.metrics.registry);
  }
}
