import { Body, Controller, Get, Inject, Param, Post, Query, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { Pool } from 'pg';
import { SESSION_STATUSES } from '../sessions.events';
import { ApiError } from '../../kernel/http/api-error';
import { CurrentTenant } from '../../kernel/http/current-tenant';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { PG_POOL } from '../../infra/database/database.tokens';
import { newId } from '../../kernel/ids';
import { ApiKeyGuard, type AuthenticatedTenant } from '../../tenants/api/auth.guards';
import { PlaceCallCommand } from '../application/session.commands';
import { normalisePhoneNumber } from '../../kernel/phone-number';
import { CreateCallDto } from './calls.dto';
import { presentSession, SessionRow, sessionRowFromStream } from './session-view';
import { EVENT_STORE, EventStore } from '../../event-store/event-store.port';
import { sessionStream } from '../domain/session.decider';

const SESSION_COLUMNS = `session_id, status, to_number, from_number, campaign_id, contact_id, client_reference_id, voice_id,
  test_mode, end_reason, created_at, started_at, ended_at, duration_seconds, actual_cost_cents, transcript,
  function_invocations, transfer_number, agent_disposition, recording_id, recording_status, recording_url`;

/** POST /v1/calls returns as soon as the call is queued; the outcome arrives as events. */
@ApiTags('calls and sessions')
@ApiBearerAuth()
@UseGuards(ApiKeyGuard)
@Controller('v1')
export class CallsController {
  constructor(
    private readonly commands: CommandBus,
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(EVENT_STORE) private readonly store: EventStore,
  ) {}

  @Post('calls')
  async placeCall(@CurrentTenant() tenant: AuthenticatedTenant, @Body() body: CreateCallDto) {
    const to = normalisePhoneNumber(body.to);
    if (!to)
      throw ApiError.invalid('to must be a valid phone number in international format, e.g. +14155550100.', 'to');
    const from = normalisePhoneNumber(body.from);
    if (!from)
      throw ApiError.invalid('from must be a valid phone number in international format, e.g. +14155550000.', 'from');
    if (tenant.status === 'suspended')
      throw new ApiError(403, 'forbidden', 'This account is suspended; calls cannot be placed.');
    const sessionId = newId('ses');
    await this.commands.execute(
      new PlaceCallCommand(tenant.tenantId, {
        sessionId,
        to,
        from,
        testMode: body.test_mode ?? false,
        agentConfig: {
          prompt: body.agent_config.prompt,
          ...(body.agent_config.voice_id ? { voice_id: body.agent_config.voice_id } : {}),
          ...(body.agent_config.dispositions
            ? {
                dispositions: body.agent_config.dispositions.map((d) => ({ code: d.code, description: d.description })),
              }
            : {}),
        },
      }),
    );
    return this.load(tenant, sessionId);
  }

  @Get('sessions')
  async list(
    @CurrentTenant() tenant: AuthenticatedTenant,
    @Query('status') status?: string,
    @Query('campaign_id') campaignId?: string,
    @Query('limit') limitText?: string,
    @Query('starting_after') startingAfter?: string,
  ) {
    if (status !== undefined && !(SESSION_STATUSES as readonly string[]).includes(status)) {
      throw ApiError.invalid(`status must be one of ${SESSION_STATUSES.join(', ')}.`, 'status');
    }
    const limit = limitText === undefined ? 20 : Number(limitText);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100)
      throw ApiError.invalid('limit must be an integer from 1 to 100.', 'limit');
    let cursor: { created_at: Date; session_id: string } | null = null;
    if (startingAfter !== undefined) {
      const { rows } = await this.pool.query<{ created_at: Date; session_id: string }>(
        'SELECT created_at, session_id FROM sessions WHERE session_id = $1 AND tenant_id = $2',
        [startingAfter, tenant.tenantId],
      );
      if (!rows[0]) throw ApiError.notFound('session', 'starting_after');
      cursor = rows[0];
    }
    const { rows } = await this.pool.query<SessionRow>(
      `SELECT ${SESSION_COLUMNS} FROM sessions
       WHERE tenant_id = $1 AND ($2::text IS NULL OR status = $2) AND ($3::text IS NULL OR campaign_id = $3)
         AND ($4::timestamptz IS NULL OR (created_at, session_id) < ($4, $5))
       ORDER BY created_at DESC, session_id DESC LIMIT $6`,
      [
        tenant.tenantId,
        status ?? null,
        campaignId ?? null,
        cursor?.created_at ?? null,
        cursor?.session_id ?? null,
        limit + 1,
      ],
    );
    return { data: rows.slice(0, limit).map((r) => presentSession(r, this.config)), has_more: rows.length > limit };
  }

  @Get('sessions/:id')
  async get(@CurrentTenant() tenant: AuthenticatedTenant, @Param('id') id: string) {
    return this.load(tenant, id);
  }

  @Get('sessions/:id/transcript.json')
  async transcript(@CurrentTenant() tenant: AuthenticatedTenant, @Param('id') id: string) {
    const session = await this.load(tenant, id);
    return { session_id: session.session_id, transcript: session.transcript };
  }

  @Get('sessions/:id/events')
  async events(@CurrentTenant() tenant: AuthenticatedTenant, @Param('id') id: string) {
    await this.load(tenant, id);
    const { rows } = await this.pool.query<{ envelope: unknown }>(
      'SELECT envelope FROM audit_events WHERE tenant_id = $1 AND session_id = $2 ORDER BY seq',
      [tenant.tenantId, id],
    );
    return { data: rows.map((r) => r.envelope) };
  }

  private async load(tenant: AuthenticatedTenant, id: string) {
    const { rows } = await this.pool.query<SessionRow>(
      `SELECT ${SESSION_COLUMNS} FROM sessions WHERE session_id = $1 AND tenant_id = $2`,
      [id, tenant.tenantId],
    );
    const row = rows[0] ?? sessionRowFromStream(await this.store.readStream(sessionStream(id)), tenant.tenantId);
    if (!row) throw ApiError.notFound('session', 'session_id');
    return presentSession(row, this.config);
  }
}
