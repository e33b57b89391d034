import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post, Query, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { Pool } from 'pg';
import { EVENT_CATALOG, EventCatalog } from '../../catalog/event-catalog';
import { ApiError } from '../../kernel/http/api-error';
import { CurrentTenant } from '../../kernel/http/current-tenant';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { PG_POOL } from '../../infra/database/database.tokens';
import { ApiKeyGuard, type AuthenticatedTenant } from '../../tenants/api/auth.guards';
import { ChangeEndpoint, CreateEndpoint } from '../application/endpoint.commands';
import { resolvePublicAddress, validateWebhookUrl } from '../infra/address-policy';
import { DeliveryWorker } from '../infra/delivery-worker';
import { CreateEndpointDto, RecoverDto, UpdateEndpointDto } from './webhook-endpoints.dto';

interface EndpointRow {
  endpoint_id: string;
  url: string;
  events: string[];
  description: string | null;
  status: string;
  created_at: Date;
  failure_streak: number | null;
}

const ENDPOINT_COLUMNS = `e.endpoint_id, e.url, e.events, e.description, e.status, e.created_at, h.failure_streak`;

function present(row: EndpointRow) {
  return {
    id: row.endpoint_id,
    url: row.url,
    events: row.events,
    description: row.description,
    status: row.status,
    failure_streak: row.failure_streak ?? 0,
    created_at: row.created_at.toISOString(),
  };
}

/** The endpoints API of CONTRACT.md. The secret is returned on creation and rotation only. */
@ApiTags('webhook endpoints')
@ApiBearerAuth()
@UseGuards(ApiKeyGuard)
@Controller('v1/webhook_endpoints')
export class WebhookEndpointsController {
  constructor(
    private readonly commands: CommandBus,
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly worker: DeliveryWorker,
    @Inject(EVENT_CATALOG) private readonly catalog: EventCatalog,
  ) {}

  @Post()
  async create(@CurrentTenant() tenant: AuthenticatedTenant, @Body() body: CreateEndpointDto) {
    const url = await this.checkUrl(body.url);
    const events = this.checkEvents(body.events ?? ['*']);
    const { endpointId, secret } = await this.commands.execute(
      new CreateEndpoint(tenant.tenantId, { url, events, description: body.description ?? null }),
    );
    return { ...(await this.load(tenant, endpointId)), secret };
  }

  @Get()
  async list(@CurrentTenant() tenant: AuthenticatedTenant) {
    const { rows } = await this.pool.query<EndpointRow>(
      `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints e LEFT JOIN webhook_endpoint_health h USING (endpoint_id)
       WHERE e.tenant_id = $1 AND e.status <> 'deleted' ORDER BY e.created_at DESC`,
      [tenant.tenantId],
    );
    return { data: rows.map(present) };
  }

  @Get(':id')
  async get(@CurrentTenant() tenant: AuthenticatedTenant, @Param('id') id: string) {
    return this.load(tenant, id);
  }

  @Patch(':id')
  async update(@CurrentTenant() tenant: AuthenticatedTenant, @Param('id') id: string, @Body() body: UpdateEndpointDto) {
    await this.load(tenant, id);
    const url = body.url === undefined ? undefined : await this.checkUrl(body.url);
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
  async deliveries(
    @CurrentTenant() tenant: AuthenticatedTenant,
    @Param('id') id: string,
    @Query('limit') limitText?: string,
  ) {
    await this.load(tenant, id);
    const limit = limitText === undefined ? 50 : Number(limitText);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100)
      throw ApiError.invalid('limit must be an integer from 1 to 100.', 'limit');
    const { rows } = await this.pool.query<{
      delivery_id: string;
      event_id: string;
      event_type: string;
      status: string;
      next_attempt_at: Date | null;
      attempts: { at: string; http_status: number | null; error: string | null; duration_ms: number }[];
    }>(
      `SELECT d.delivery_id, d.event_id, d.event_type, d.status, d.next_attempt_at,
              coalesce((SELECT json_agg(json_build_object('at', a.attempted_at, 'http_status', a.http_status,
                                  'error', a.error, 'duration_ms', a.duration_ms) ORDER BY a.attempt_id)
                        FROM webhook_attempts a WHERE a.delivery_id = d.delivery_id), '[]') AS attempts
       FROM webhook_deliveries d WHERE d.endpoint_id = $1 AND d.tenant_id = $2
       ORDER BY d.created_at DESC, d.delivery_id DESC LIMIT $3`,
      [id, tenant.tenantId, limit],
    );
    return {
      data: rows.map((r) => ({
        delivery_id: r.delivery_id,
        event_id: r.event_id,
        event_type: r.event_type,
        status: r.status,
        attempts: r.attempts.map((a) => ({ ...a, at: new Date(a.at).toISOString() })),
        next_attempt_at: r.status === 'pending' && r.next_attempt_at ? r.next_attempt_at.toISOString() : null,
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
    const { rowCount } = await this.pool.query(
      `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = now(), locked_until = NULL, updated_at = now()
       WHERE delivery_id = $1 AND endpoint_id = $2 AND tenant_id = $3`,
      [deliveryId, id, tenant.tenantId],
    );
    if (!rowCount) throw ApiError.notFound('delivery', 'delivery_id');
    this.worker.poke();
    return { delivery_id: deliveryId, status: 'pending' };
  }

  @Post(':id/recover')
  @HttpCode(202)
  async recover(@CurrentTenant() tenant: AuthenticatedTenant, @Param('id') id: string, @Body() body: RecoverDto) {
    await this.load(tenant, id);
    const since = new Date(body.since);
    if (since.getTime() > Date.now()) throw ApiError.invalid('since must not be in the future.', 'since');
    const { rowCount } = await this.pool.query(
      `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = now(), locked_until = NULL, updated_at = now()
       WHERE endpoint_id = $1 AND tenant_id = $2 AND created_at >= $3 AND status = 'failed'`,
      [id, tenant.tenantId, since],
    );
    this.worker.poke();
    return { id, since: since.toISOString(), recovered: rowCount ?? 0 };
  }

  private async load(tenant: AuthenticatedTenant, id: string) {
    const { rows } = await this.pool.query<EndpointRow>(
      `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints e LEFT JOIN webhook_endpoint_health h USING (endpoint_id)
       WHERE e.endpoint_id = $1 AND e.tenant_id = $2 AND e.status <> 'deleted'`,
      [id, tenant.tenantId],
    );
    const row = rows[0];
    if (!row) throw ApiError.notFound('webhook endpoint', 'id');
    return present(row);
  }

  private async checkUrl(raw: string): Promise<string> {
    const allowPrivate = this.config.webhookAllowPrivateUrls;
    const valid = validateWebhookUrl(raw, { allowPrivate });
    if (!valid.ok) throw ApiError.invalid(valid.message, 'url');
    if (!allowPrivate) {
      const resolved = await resolvePublicAddress(valid.url.hostname, { allowPrivate });
      if (!resolved.ok) throw ApiError.invalid(resolved.message, 'url');
    }
    return valid.url.toString();
  }

  private checkEvents(events: string[]): string[] {
    const parsed = this.catalog.parseEventFilter(events);
    if (!parsed.ok) throw ApiError.invalid(`Unknown event types: ${parsed.invalid.join(', ')}.`, 'events');
    return [...new Set(events)];
  }
}
