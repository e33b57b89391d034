import { Body, Controller, Get, Inject, Param, Post, Query, Res, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { SESSION_STATUSES } from '../sessions.events';
import { pageLimit } from '../../kernel/http/page-limit';
import { ApiError } from '../../kernel/http/api-error';
import { CurrentTenant } from '../../kernel/http/current-tenant';
import { APP_CONFIG, AppConfig } from '../../config/config';
import type { AuthenticatedTenant } from '../../kernel/http/current-tenant';
import { ApiKeyGuard } from '../../tenants';
import { PlaceCallCommand } from '../application/session.commands';
import { normalisePhoneNumber } from '../../kernel/phone-number';
import { agentConfigOf, CreateCallDto } from './calls.dto';
import { presentSession, SessionRow, sessionRowFromStream } from './session-view';
import { RecordingLinks } from '../infra/recording-links';
import { EVENT_STORE, EventStore } from '../../event-store/event-store.port';
import { sessionStream } from '../domain/session.decider';
import { SessionsQueries } from '../application/sessions.queries';
import { AuditQueries } from '../../audit';

/** POST /v1/calls returns as soon as the call is queued; the outcome arrives as events. */
@ApiTags('calls and sessions')
@ApiBearerAuth()
@UseGuards(ApiKeyGuard)
@Controller('v1')
export class CallsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly sessions: SessionsQueries,
    private readonly audit: AuditQueries,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly links: RecordingLinks,
  ) {}

  @Post('calls')
  async placeCall(@CurrentTenant() tenant: AuthenticatedTenant, @Body() body: CreateCallDto) {
    const to = normalisePhoneNumber(body.to);
    if (!to)
      throw ApiError.invalid('to must be a valid phone number in international format, e.g. +14155550100.', 'to');
    const from = normalisePhoneNumber(body.from);
    if (!from)
      throw ApiError.invalid('from must be a valid phone number in international format, e.g. +14155550000.', 'from');
    const { sessionId, events } = await this.commands.execute(
      new PlaceCallCommand(tenant.tenantId, {
        to,
        from,
        testMode: body.test_mode ?? false,
        agentConfig: agentConfigOf(body.agent_config),
      }),
    );
    // Answered from the events just stored: the read model has not seen them yet (decision 16).
    // None were stored when the call had already been placed under this key: answer with it.
    if (events.length === 0) return this.load(tenant, sessionId);
    const row = sessionRowFromStream(events, tenant.tenantId);
    if (!row) throw ApiError.notFound('session', 'session_id');
    return this.present(row);
  }

  @Get('sessions')
  @ApiQuery({ name: 'status', required: false, enum: SESSION_STATUSES })
  @ApiQuery({ name: 'campaign_id', required: false })
  @ApiQuery({ name: 'limit', required: false, description: '1 to 100, default 20' })
  @ApiQuery({ name: 'starting_after', required: false, description: 'A session id: the page after it' })
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
    const limit = pageLimit(limitText);
    const page = await this.sessions.list(tenant.tenantId, { status, campaignId, startingAfter, limit });
    if (!page) throw ApiError.notFound('session', 'starting_after');
    return { data: page.data.map((r) => this.present(r)), has_more: page.hasMore };
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
    return { data: await this.audit.sessionEvents(tenant.tenantId, id) };
  }

  /**
   * A fresh signed link to the session's recording (its owner only): `302` to it, with the link in
   * the body too, so that a link that expired can be renewed (`curl -L` gets the file). `404` for
   * an unknown or another tenant's session, and while there is no recording or once it is purged.
   */
  @Get('sessions/:id/recording')
  async recording(
    @CurrentTenant() tenant: AuthenticatedTenant,
    @Param('id') id: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const row = await this.row(tenant, id);
    if (row.recordingId === null || (row.recordingStatus !== 'available' && row.recordingStatus !== 'pending_purge'))
      throw ApiError.notFound('recording');
    const { url, expiresAt } = this.links.link(row.recordingId);
    reply.status(302).header('location', url).header('cache-control', 'no-store');
    return { recording_id: row.recordingId, recording_url: url, expires_at: expiresAt.toISOString() };
  }

  private async load(tenant: AuthenticatedTenant, id: string) {
    return this.present(await this.row(tenant, id));
  }

  private async row(tenant: AuthenticatedTenant, id: string): Promise<SessionRow> {
    const row =
      (await this.sessions.get(tenant.tenantId, id)) ??
      sessionRowFromStream(await this.store.readStream(sessionStream(id)), tenant.tenantId);
    if (!row) throw ApiError.notFound('session', 'session_id');
    return row;
  }

  private present(row: SessionRow) {
    return presentSession(row, this.config, (recordingId) => this.links.link(recordingId).url);
  }
}
