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
import { ApiBearerAuth, ApiQuery, ApiTags } from '@nestjs/swagger';
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
import { resolvePublicAddress, validateWebhookUrl, withPrivateUrlHint } from '../infra/address-policy';
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
@ApiTags('webhook endpoints')
@ApiBearerAuth()
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
  async list(@CurrentTenant() tenant: AuthenticatedTenant) {
    return { data: (await this.queries.listEndpoints(tenant.tenantId)).map(present) };
  }

  @Get(':id')
  async get(@CurrentTenant() tenant: AuthenticatedTenant, @Param('id') id: string) {
    return this.load(tenant, id);
  }

  @Patch(':id')
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
  async remove(@CurrentTenant() tenant: AuthenticatedTenant, @Param('id') id: string) {
    await this.commands.execute(new ChangeEndpoint(tenant.tenantId, id, { type: 'delete' }));
    return { id, deleted: true };
  }

  @Post(':id/rotate_secret')
  @HttpCode(200)
  async rotate(@CurrentTenant() tenant: AuthenticatedTenant, @Param('id') id: string) {
    const { secret } = await this.commands.execute(new ChangeEndpoint(tenant.tenantId, id, { type: 'rotate_secret' }));
    return { id, secret };
  }

  @Post(':id/test')
  @HttpCode(202)
  async test(@CurrentTenant() tenant: AuthenticatedTenant, @Param('id') id: string) {
    const { eventIds } = await this.commands.execute(new ChangeEndpoint(tenant.tenantId, id, { type: 'send_test' }));
    return { event_id: eventIds['webhook.test'] };
  }

  @Post(':id/enable')
  @HttpCode(200)
  async enable(@CurrentTenant() tenant: AuthenticatedTenant, @Param('id') id: string) {
    await this.commands.execute(new ChangeEndpoint(tenant.tenantId, id, { type: 'enable' }));
    this.worker.poke();
    return this.load(tenant, id);
  }

  @Get(':id/deliveries')
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
    const allowPrivate = settingsOf(this.config, webhooksSettings).allowPrivateUrls;
    const valid = validateWebhookUrl(raw, { allowPrivate });
    // A refusal that WEBHOOK_ALLOW_PRIVATE_URLS=true would lift says so (and names `vap listen`).
    if (!valid.ok) throw ApiError.invalid(withPrivateUrlHint(valid.message, raw), 'url');
    if (!allowPrivate) {
      // One message whether the name does not resolve or resolves to a private address (the
      // difference would let a tenant probe internal names); the reason goes to the log only.
      const resolved = await resolvePublicAddress(valid.url.hostname, {
        allowPrivate,
        log: (reason) => this.logger.warn(`tenant ${tenantId}: webhook url refused: ${reason}`),
      });
      if (!resolved.ok) throw ApiError.invalid(withPrivateUrlHint(resolved.message, raw), 'url');
    }
    return valid.url.toString();
  }

  private checkEvents(events: string[]): string[] {
    const parsed = this.catalog.parseEventFilter(events);
    if (!parsed.ok) throw ApiError.invalid(`Unknown event types: ${parsed.invalid.join(', ')}.`, 'events');
    return [...new Set(events)];
  }
}
