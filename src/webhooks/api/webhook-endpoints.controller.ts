import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Inject,
  Logger,
  Param,
  Patch,
  Post,
  Query,
  UseGuards,
} from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiQuery } from '@nestjs/swagger';
import { ApiDoc, DELETED, TenantApi } from '../../kernel/http/api-docs';
import {
  DELIVERY_LIST,
  DELIVERY_QUEUED,
  ENDPOINT_EXAMPLE,
  RECOVERY,
  ROTATED_SECRET,
  TEST_EVENT,
  WEBHOOK_ENDPOINT,
  WEBHOOK_ENDPOINT_LIST,
  WEBHOOK_ENDPOINT_WITH_SECRET,
} from './webhooks.schemas';
import { EVENT_CATALOG, EventCatalog } from '../../catalog/event-catalog';
import { pageLimit } from '../../kernel/http/page-limit';
import { ApiError } from '../../kernel/http/api-error';
import { CurrentTenant } from '../../kernel/http/current-tenant';
import { APP_CONFIG, AppConfig, settingsOf } from '../../config/config';
import { webhooksSettings } from '../webhooks.config';
import type { AuthenticatedTenant } from '../../kernel/http/current-tenant';
import { ApiKeyGuard } from '../../tenants';
import { Redeliver } from '../application/delivery.commands';
import { ChangeEndpoint, CreateEndpoint } from '../application/endpoint.commands';
import { WebhooksQueries } from '../application/webhooks.queries';
import { ensurePublicUrl } from '../application/public-url';
import { DeliveryWorker } from '../infra/delivery-worker';
import type { WebhookEndpointEntity } from '../projections/webhook-endpoint.entity';
import { CreateEndpointDto, RecoverDto, UpdateEndpointDto } from './webhook-endpoints.dto';
import { parseTimestamp } from '../../kernel/timestamp';

function present(
  row: Pick<WebhookEndpointEntity, 'endpointId' | 'url' | 'events' | 'description' | 'status' | 'createdAt'> & {
    health?: { failureStreak: number } | null;
  },
) {
  return {
    id: row.endpointId,
    url: row.url,
    events: row.events,
    description: row.description,
    status: row.status,
    failure_streak: row.health?.failureStreak ?? 0,
    created_at: row.createdAt.toISOString(),
  };
}

/** The endpoints API (docs/webhooks.md, "The endpoints API"). The secret is returned on creation and rotation only. */
@TenantApi('webhook endpoints')
@UseGuards(ApiKeyGuard)
@Controller('v1/webhook_endpoints')
export class WebhookEndpointsController {
  private readonly logger = new Logger('WebhookEndpoints');

  constructor(
    private readonly commands: CommandBus,
    private readonly queries: WebhooksQueries,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly worker: DeliveryWorker,
    @Inject(EVENT_CATALOG) private readonly catalog: EventCatalog,
  ) {}

  @Post()
  @ApiDoc({
    id: 'createWebhookEndpoint',
    summary: 'Create a webhook endpoint',
    description:
      'Registers a URL to receive signed deliveries of the events it subscribes to (default `*`). The answer carries the signing secret, shown this once; a replay under the same Idempotency-Key is a 409 that says so. The URL must be public HTTPS unless WEBHOOK_ALLOW_PRIVATE_URLS is set.',
    status: 201,
    body: WEBHOOK_ENDPOINT_WITH_SECRET,
    returns: 'The endpoint and its secret.',
    example: { ...ENDPOINT_EXAMPLE, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' },
    errors: [400, 409, 422],
  })
  async create(@CurrentTenant() tenant: AuthenticatedTenant, @Body() body: CreateEndpointDto) {
    const url = await this.checkUrl(tenant.tenantId, body.url);
    const events = this.checkEvents(body.events ?? ['*']);
    const description = body.description ?? null;
    const { endpointId, secret, createdAt } = await this.commands.execute(
      new CreateEndpoint(tenant.tenantId, { url, events, description }),
    );
    // Answered from what was stored, not the read model: a lagging projection must never turn the
    // one response that shows the secret into a 404 (which an Idempotency-Key would then keep).
    return {
      ...present({
        endpointId,
        url,
        events,
        description,
        status: 'active',
        createdAt: createdAt ? new Date(createdAt) : new Date(),
      }),
      secret,
    };
  }

  @Get()
  @ApiDoc({
    id: 'listWebhookEndpoints',
    summary: 'List webhook endpoints',
    description: 'Every endpoint of the tenant, with its status and failure streak (never its secret).',
    body: WEBHOOK_ENDPOINT_LIST,
    returns: 'The endpoints.',
    example: { data: [ENDPOINT_EXAMPLE] },
    errors: [],
  })
  async list(@CurrentTenant() tenant: AuthenticatedTenant) {
    return { data: (await this.queries.listEndpoints(tenant.tenantId)).map(present) };
  }

  @Get(':id')
  @ApiDoc({
    id: 'getWebhookEndpoint',
    summary: 'Get a webhook endpoint',
    description: 'One endpoint, with its status and failure streak (never its secret).',
    body: WEBHOOK_ENDPOINT,
    returns: 'The endpoint.',
    example: ENDPOINT_EXAMPLE,
    errors: [404],
  })
  async get(@CurrentTenant() tenant: AuthenticatedTenant, @Param('id') id: string) {
    return this.load(tenant, id);
  }

  @Patch(':id')
  @ApiDoc({
    id: 'updateWebhookEndpoint',
    summary: 'Update a webhook endpoint',
    description: 'Changes its URL, events or description (null clears it); fields not sent are kept.',
    body: WEBHOOK_ENDPOINT,
    returns: 'The endpoint as changed.',
    example: ENDPOINT_EXAMPLE,
    errors: [400, 404],
  })
  async update(@CurrentTenant() tenant: AuthenticatedTenant, @Param('id') id: string, @Body() body: UpdateEndpointDto) {
    await this.load(tenant, id);
    const url = body.url === undefined ? undefined : await this.checkUrl(tenant.tenantId, body.url);
    const events = body.events === undefined ? undefined : this.checkEvents(body.events);
    await this.commands.execute(
      new ChangeEndpoint(tenant.tenantId, id, {
        type: 'update',
        ...(url !== undefined ? { url } : {}),
        ...(events !== undefined ? { events } : {}),
        ...(body.description !== undefined ? { description: body.description } : {}),
      }),
    );
    return this.load(tenant, id);
  }

  @Delete(':id')
  @ApiDoc({
    id: 'deleteWebhookEndpoint',
    summary: 'Delete a webhook endpoint',
    description: 'No delivery is attempted to it any more.',
    body: DELETED,
    returns: 'The id, deleted.',
    example: { id: ENDPOINT_EXAMPLE.id, deleted: true },
    errors: [404],
  })
  async remove(@CurrentTenant() tenant: AuthenticatedTenant, @Param('id') id: string) {
    await this.commands.execute(new ChangeEndpoint(tenant.tenantId, id, { type: 'delete' }));
    return { id, deleted: true };
  }

  @Post(':id/rotate_secret')
  @ApiDoc({
    id: 'rotateWebhookSecret',
    summary: 'Rotate a webhook endpoint’s secret',
    description: 'Replaces the signing secret; the new one is shown this once and signs every delivery from now on.',
    body: ROTATED_SECRET,
    returns: 'The new secret.',
    example: { id: ENDPOINT_EXAMPLE.id, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' },
    errors: [404, 409],
  })
  @HttpCode(200)
  async rotate(@CurrentTenant() tenant: AuthenticatedTenant, @Param('id') id: string) {
    const { secret } = await this.commands.execute(new ChangeEndpoint(tenant.tenantId, id, { type: 'rotate_secret' }));
    return { id, secret };
  }

  @Post(':id/test')
  @ApiDoc({
    id: 'sendWebhookTest',
    summary: 'Send a test event',
    description: 'Queues a `webhook.test` event for this endpoint only; it is delivered and signed like any other.',
    status: 202,
    body: TEST_EVENT,
    returns: 'The test event’s id.',
    example: { event_id: '0193a1f2-7c3e-7a10-8b2c-1d2e3f405162' },
    errors: [404, 409],
  })
  @HttpCode(202)
  async test(@CurrentTenant() tenant: AuthenticatedTenant, @Param('id') id: string) {
    const { eventIds } = await this.commands.execute(new ChangeEndpoint(tenant.tenantId, id, { type: 'send_test' }));
    return { event_id: eventIds['webhook.test'] };
  }

  @Post(':id/enable')
  @ApiDoc({
    id: 'enableWebhookEndpoint',
    summary: 'Re-enable a suspended webhook endpoint',
    description: 'Makes a suspended endpoint active again; its pending deliveries are attempted at once.',
    body: WEBHOOK_ENDPOINT,
    returns: 'The endpoint, active.',
    example: ENDPOINT_EXAMPLE,
    errors: [404, 409],
  })
  @HttpCode(200)
  async enable(@CurrentTenant() tenant: AuthenticatedTenant, @Param('id') id: string) {
    await this.commands.execute(new ChangeEndpoint(tenant.tenantId, id, { type: 'enable' }));
    this.worker.poke();
    return this.load(tenant, id);
  }

  @Get(':id/deliveries')
  @ApiDoc({
    id: 'listWebhookDeliveries',
    summary: 'List a webhook endpoint’s deliveries',
    description: 'The latest deliveries to the endpoint, newest first, each with its attempts.',
    body: DELIVERY_LIST,
    returns: 'The deliveries.',
    example: {
      data: [
        {
          delivery_id: 'whd_01jf8w2c4v6b8n0m2q4w',
          event_id: '0193a1f2-7c3e-7a10-8b2c-1d2e3f405162',
          event_type: 'session.ended',
          status: 'succeeded',
          attempts: [{ at: '2026-11-21T10:00:01.000Z', http_status: 200, error: null, duration_ms: 84 }],
          next_attempt_at: null,
        },
      ],
    },
    errors: [400, 404],
  })
  @ApiQuery({ name: 'limit', required: false, description: '1 to 100' })
  async deliveries(
    @CurrentTenant() tenant: AuthenticatedTenant,
    @Param('id') id: string,
    @Query('limit') limitText?: string,
  ) {
    await this.load(tenant, id);
    const limit = pageLimit(limitText, 50);
    const deliveries = await this.queries.listDeliveries(tenant.tenantId, id, limit);
    return {
      data: deliveries.map((d) => ({
        delivery_id: d.deliveryId,
        event_id: d.eventId,
        event_type: d.eventType,
        status: d.status,
        attempts: d.attempts.map((a) => ({
          at: a.attemptedAt.toISOString(),
          http_status: a.httpStatus,
          error: a.error,
          duration_ms: a.durationMs,
        })),
        next_attempt_at: d.status === 'pending' && d.nextAttemptAt ? d.nextAttemptAt.toISOString() : null,
      })),
    };
  }

  @Post(':id/deliveries/:deliveryId/retry')
  @ApiDoc({
    id: 'retryWebhookDelivery',
    summary: 'Retry a delivery',
    description: 'Queues the delivery for another attempt now; a delivery whose attempt is in flight is a 409.',
    status: 202,
    body: DELIVERY_QUEUED,
    returns: 'The delivery, pending.',
    example: { delivery_id: 'whd_01jf8w2c4v6b8n0m2q4w', status: 'pending' },
    errors: [404, 409],
  })
  @HttpCode(202)
  async retry(
    @CurrentTenant() tenant: AuthenticatedTenant,
    @Param('id') id: string,
    @Param('deliveryId') deliveryId: string,
  ) {
    await this.load(tenant, id);
    const { queued, inFlight } = await this.commands.execute(
      new Redeliver(tenant.tenantId, id, { type: 'retry', deliveryId }),
    );
    if (inFlight)
      throw new ApiError(
        409,
        'conflict',
        'An attempt of this delivery is in flight; retry it once that attempt has ended.',
        'delivery_id',
      );
    if (!queued) throw ApiError.notFound('delivery', 'delivery_id');
    this.worker.poke();
    return { delivery_id: deliveryId, status: 'pending' };
  }

  @Post(':id/recover')
  @ApiDoc({
    id: 'recoverWebhookDeliveries',
    summary: 'Redeliver what failed since a time',
    description: 'Queues again every delivery to the endpoint created since `since` that did not succeed.',
    status: 202,
    body: RECOVERY,
    returns: 'How many deliveries were queued.',
    example: { id: ENDPOINT_EXAMPLE.id, since: '2026-11-21T00:00:00.000Z', recovered: 3 },
    errors: [400, 404],
  })
  @HttpCode(202)
  async recover(@CurrentTenant() tenant: AuthenticatedTenant, @Param('id') id: string, @Body() body: RecoverDto) {
    await this.load(tenant, id);
    const since = parseTimestamp(body.since);
    if (!since) throw ApiError.invalid('since must be an RFC 3339 date-time, e.g. 2026-01-01T00:00:00Z.', 'since');
    if (since.getTime() > Date.now()) throw ApiError.invalid('since must not be in the future.', 'since');
    const { queued } = await this.commands.execute(new Redeliver(tenant.tenantId, id, { type: 'recover', since }));
    this.worker.poke();
    return { id, since: since.toISOString(), recovered: queued };
  }

  private async load(tenant: AuthenticatedTenant, id: string) {
    const row = await this.queries.getEndpoint(tenant.tenantId, id);
    if (!row) throw ApiError.notFound('webhook endpoint', 'id');
    return present(row);
  }

  private async checkUrl(tenantId: string, raw: string): Promise<string> {
    return ensurePublicUrl(raw, {
      allowPrivate: settingsOf(this.config, webhooksSettings).allowPrivateUrls,
      param: 'url',
      log: (reason) => this.logger.warn(`tenant ${tenantId}: webhook url refused: ${reason}`),
    });
  }

  private checkEvents(events: string[]): string[] {
    const parsed = this.catalog.parseEventFilter(events);
    if (!parsed.ok) throw ApiError.invalid(`Unknown event types: ${parsed.invalid.join(', ')}.`, 'events');
    return [...new Set(events)];
  }
}
