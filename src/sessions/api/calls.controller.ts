import { Body, Controller, Get, Inject, Optional, Param, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiQuery } from '@nestjs/swagger';
import { ApiDoc, TenantApi } from '../../kernel/http/api-docs';
import { RECORDING_LINK, SESSION, SESSION_EVENTS, SESSION_EXAMPLE, SESSION_PAGE, TRANSCRIPT } from './sessions.schemas';
import { APP_CONFIG, AppConfig, settingsOf } from '../../config/config';
import { sessionsSettings } from '../sessions.config';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SessionLive } from '../application/session-live';
import { streamLive } from './live-stream';
import { SESSION_STATUSES } from '../sessions.events';
import { pageLimit } from '../../kernel/http/page-limit';
import { ApiError } from '../../kernel/http/api-error';
import { CurrentTenant } from '../../kernel/http/current-tenant';
import type { AuthenticatedTenant } from '../../kernel/http/current-tenant';
import { ApiKeyGuard } from '../../tenants';
import { PlaceCallCommand } from '../application/session.commands';
import { normalisePhoneNumber } from '../../kernel/phone-number';
import { checkAgentConfig } from './agent-config.dto';
import { CreateCallDto } from './calls.dto';
import { DEFAULT_PERSONA_PAUSE_MS } from '../domain/session.state';
import type { SessionRow } from '../application/session-view';
import { SessionViews } from '../application/get-session.query';
import { RecordingLinks } from '../infra/recording-links';
import { SessionsQueries } from '../application/sessions.queries';
import { AuditQueries } from '../../audit';
import { CallerIds } from '../application/caller-ids';
import { PersonaCalls } from '../application/persona-calls';
import { ensureVoiceUsable } from '../../voices';

const DIRECTIONS = ['outbound', 'inbound'];
/** Test persona calls one tenant may run at once (queued or in progress, on every instance together). */
export const MAX_PERSONA_CALLS_PER_TENANT = 4;

/** POST /v1/calls returns as soon as the call is queued; the outcome arrives as events. */
@TenantApi('calls and sessions')
@UseGuards(ApiKeyGuard)
@Controller('v1')
export class CallsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly sessions: SessionsQueries,
    private readonly views: SessionViews,
    private readonly audit: AuditQueries,
    private readonly links: RecordingLinks,
    private readonly callerIds: CallerIds,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly live: SessionLive,
    @Optional() @Inject(PersonaCalls) private readonly personaCalls: PersonaCalls | null = null,
  ) {}

  @Post('calls')
  @ApiDoc({
    id: 'placeCall',
    summary: 'Place an outbound call',
    description:
      'Queues a call from `from` to `to` with the agent of `agent_config`, and answers at once with its session (`queued`); the outcome arrives as `session.*` events. `test_mode` plays it on the test pool: no carrier, no credits. A production call’s `from` must be an active phone number of the tenant (assigned by the operator or verified), else 422 `from_number_not_owned` and nothing is dialled; a test call may use any number. A production call waits while the credit balance is depleted, up to MAX_QUEUED_CALLS_PER_TENANT calls (then 429). A tenant runs at most 4 test calls with `test_persona` at once, queued or in progress (then 429, with `Retry-After`); a persona call placed while the platform carries all the conversations it can is refused (503 `at_capacity`, with `Retry-After`).',
    status: 201,
    body: SESSION,
    returns: 'The new session, queued.',
    example: SESSION_EXAMPLE,
    errors: [400, 403, 409, 422, 429, 503],
  })
  async placeCall(@CurrentTenant() tenant: AuthenticatedTenant, @Body() body: CreateCallDto) {
    const toNumber = normalisePhoneNumber(body.to);
    if (!toNumber)
      throw ApiError.invalid('to must be a valid phone number in international format, e.g. +14155550100.', 'to');
    const fromNumber = normalisePhoneNumber(body.from);
    if (!fromNumber)
      throw ApiError.invalid('from must be a valid phone number in international format, e.g. +14155550000.', 'from');
    // A speaking callee is a simulation: a production call has a real one (decision 116).
    if (body.test_persona && body.test_mode !== true)
      throw ApiError.invalid('test_persona is only allowed with test_mode: true.', 'test_persona');
    // A cloned voice must have finished training (422 voice_not_ready); none given is voice_default.
    if (body.agent_config.voice_id)
      await ensureVoiceUsable(this.queries, tenant.tenantId, body.agent_config.voice_id, 'agent_config.voice_id');
    const agentConfig = await checkAgentConfig(body.agent_config, this.config, tenant.tenantId);
    // A production call's caller ID is one of the tenant's own active numbers, else 422
    // from_number_not_owned and nothing is placed; a test call may show any number (decision 178).
    if (!body.test_mode) await this.callerIds.ensureOwned(tenant.tenantId, fromNumber, 'from');
    // A persona call converses on an instance with room (docs/capacity.md): none now, it is refused.
    if (body.test_persona && this.personaCalls && !this.personaCalls.admitting())
      throw new ApiError(
        503,
        'at_capacity',
        'The platform carries all the conversations it can right now; retry the persona call in a few seconds.',
        undefined,
        { 'retry-after': '5' },
      );
    const admission = !body.test_mode
      ? await this.admitToQueue(tenant.tenantId)
      : body.test_persona
        ? await this.admitPersonaCall(tenant.tenantId)
        : null;
    const placed = await this.commands
      .execute(
        new PlaceCallCommand(tenant.tenantId, {
          toNumber,
          fromNumber,
          testMode: body.test_mode ?? false,
          agentConfig,
          ...(body.test_persona
            ? {
                testPersona: {
                  script: [...body.test_persona.script],
                  pause_ms: body.test_persona.pause_ms ?? DEFAULT_PERSONA_PAUSE_MS,
                },
              }
            : {}),
        }),
      )
      .catch(async (err: unknown) => {
        // Not placed: its place in the queue is free again at once.
        if (admission) await this.sessions.dropAdmission(admission);
        throw err;
      });
    const { sessionId, events } = placed;
    if (admission) await this.sessions.placedAdmission(admission, sessionId);
    // Answered from the events just stored: the read model has not seen them yet (decision 16).
    // None were stored when the call had already been placed under this key: answer with it.
    if (events.length === 0) return this.load(tenant, sessionId);
    const session = this.views.fromEvents(tenant.tenantId, events);
    if (!session) throw ApiError.notFound('session', 'session_id');
    return session;
  }

  @Get('sessions')
  @ApiDoc({
    id: 'listSessions',
    summary: 'List sessions',
    description:
      'The tenant’s sessions (calls and room conversations), newest first, filtered by status, campaign or direction.',
    body: SESSION_PAGE,
    returns: 'A page of sessions.',
    example: { data: [SESSION_EXAMPLE], has_more: false },
    errors: [400, 404],
  })
  @ApiQuery({ name: 'status', required: false, enum: SESSION_STATUSES })
  @ApiQuery({ name: 'campaign_id', required: false })
  @ApiQuery({ name: 'direction', required: false, enum: DIRECTIONS })
  @ApiQuery({ name: 'limit', required: false, description: '1 to 100, default 20' })
  @ApiQuery({ name: 'starting_after', required: false, description: 'A session id: the page after it' })
  async list(
    @CurrentTenant() tenant: AuthenticatedTenant,
    @Query('status') status?: string,
    @Query('campaign_id') campaignId?: string,
    @Query('direction') direction?: string,
    @Query('limit') limitText?: string,
    @Query('starting_after') startingAfter?: string,
  ) {
    if (status !== undefined && !(SESSION_STATUSES as readonly string[]).includes(status)) {
      throw ApiError.invalid(`status must be one of ${SESSION_STATUSES.join(', ')}.`, 'status');
    }
    if (direction !== undefined && !DIRECTIONS.includes(direction))
      throw ApiError.invalid(`direction must be one of ${DIRECTIONS.join(', ')}.`, 'direction');
    const limit = pageLimit(limitText);
    const page = await this.sessions.list(tenant.tenantId, { status, campaignId, direction, startingAfter, limit });
    if (!page) throw ApiError.notFound('session', 'starting_after');
    return { data: page.data.map((r) => this.views.present(r)), has_more: page.hasMore };
  }

  @Get('sessions/:id')
  @ApiDoc({
    id: 'getSession',
    summary: 'Get a session',
    description: 'A session as it is now: status, parties, transcript, cost, disposition and recording.',
    body: SESSION,
    returns: 'The session.',
    example: SESSION_EXAMPLE,
    errors: [404],
  })
  async get(@CurrentTenant() tenant: AuthenticatedTenant, @Param('id') id: string) {
    return this.load(tenant, id);
  }

  @Get('sessions/:id/transcript.json')
  @ApiDoc({
    id: 'getSessionTranscript',
    summary: 'Get a session’s transcript',
    description:
      'The transcript alone: one entry per turn, `role`, `content` and `t` (seconds from the start); keys the caller pressed are a user turn with `dtmf` and empty `content`.',
    body: TRANSCRIPT,
    returns: 'The transcript.',
    example: { session_id: SESSION_EXAMPLE.session_id, transcript: [{ role: 'agent', content: 'Hello!', t: 0.4 }] },
    errors: [404],
  })
  async transcript(@CurrentTenant() tenant: AuthenticatedTenant, @Param('id') id: string) {
    const session = await this.load(tenant, id);
    return { session_id: session.session_id, transcript: session.transcript };
  }

  @Get('sessions/:id/live')
  @ApiDoc({
    id: 'followSessionLive',
    summary: 'Follow a session live (Server-Sent Events)',
    description:
      'The session as it happens, as `text/event-stream`: `status` (queued, in_progress, who answered, a transfer and its failure), `turn` (each transcript entry), `metrics` (each agent turn’s latency breakdown), `function_call` (each tool call), `partial_transcript` (`{role: "user", content, t}`: the words heard so far of the caller’s utterance in progress, from a streaming recogniser; not stored, no `id`, best effort, at most one per 100 ms) and `ended` (the final status), after which the stream closes (at once for a session that has ended). Each stored event’s `id` is its place in the session’s stream: reconnect with `Last-Event-ID` to go on from there. A comment line every 15 s keeps it open.',
    body: { type: 'string', description: 'Server-Sent Events (`event:`, `id:`, `data:` a JSON object).' },
    contentType: 'text/event-stream',
    returns: 'The session’s events as they are stored.',
    example:
      'id: 1\nevent: status\ndata: {"status":"queued"}\n\nid: 4\nevent: turn\ndata: {"role":"agent","content":"Hello!","t":0.4}\n\n',
    errors: [404],
  })
  async followLive(
    @CurrentTenant() tenant: AuthenticatedTenant,
    @Param('id') id: string,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    await this.row(tenant, id);
    streamLive(this.live, id, request, reply);
  }

  @Get('sessions/:id/events')
  @ApiDoc({
    id: 'listSessionEvents',
    summary: 'List a session’s events',
    description: 'Every catalog event of the session, oldest first, as the webhook envelopes deliver them.',
    body: SESSION_EVENTS,
    returns: 'The session’s events.',
    example: {
      data: [
        {
          id: '0193a1f2-7c3e-7a10-8b2c-1d2e3f405162',
          type: 'session.created',
          tenant_id: 'ten_01jf8w2c4v6b8n0m2q4w',
          created_at: '2026-11-21T10:00:00.000Z',
          data: { session_id: SESSION_EXAMPLE.session_id },
        },
      ],
    },
    errors: [404],
  })
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
  @ApiDoc({
    id: 'getSessionRecording',
    summary: 'Get a fresh link to a session’s recording',
    description:
      'Redirects (302) to a newly signed link to the recording’s WAV file, the link also in the body, so that an expired link can be renewed (`curl -L` gets the file). 404 while there is no recording, and once it is purged.',
    status: 302,
    location: true,
    body: RECORDING_LINK,
    returns: 'The signed link, also in `Location`.',
    example: {
      recording_id: 'rec_01jd8x6k2m3n4p5q6r7s8t9v0w',
      recording_url:
        'http://localhost:3000/recordings/rec_01jd8x6k2m3n4p5q6r7s8t9v0w.wav?expires=1795000000&signature=…',
      expires_at: '2026-11-21T11:00:00.000Z',
    },
    errors: [404],
  })
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

  /**
   * A tenant's queued production calls (waiting for a depleted balance to be topped up) are capped:
   * one more is a 429. Admitted under a per-tenant lock, counting the calls the read model does not
   * show yet (SessionsQueries.admitQueuedProduction), so a burst cannot pass the cap.
   */
  private async admitToQueue(tenantId: string): Promise<string> {
    const cap = settingsOf(this.config, sessionsSettings).maxQueuedCallsPerTenant;
    const admission = await this.sessions.admitQueuedProduction(tenantId, cap);
    if (admission !== null) return admission;
    throw new ApiError(
      429,
      'rate_limited',
      `At most ${cap} production calls may be queued at once per tenant (MAX_QUEUED_CALLS_PER_TENANT); ` +
        'they wait while the credit balance is depleted. Top up, or retry once some have started.',
      undefined,
      { 'retry-after': '60' },
    );
  }

  /**
   * A tenant runs at most MAX_PERSONA_CALLS_PER_TENANT test persona calls at once (each converses in
   * real time with the embedded engines and records to disk): one more is a 429 (decision 181). Live
   * ones are counted in the read model (queued or in progress, on any instance) with the admissions
   * it does not show yet, under the same per-tenant lock as the production queue.
   */
  private async admitPersonaCall(tenantId: string): Promise<string> {
    const admission = await this.sessions.admitPersonaCall(tenantId, MAX_PERSONA_CALLS_PER_TENANT);
    if (admission !== null) return admission;
    throw new ApiError(
      429,
      'rate_limited',
      `At most ${MAX_PERSONA_CALLS_PER_TENANT} test calls with test_persona may run at once per tenant; retry once one has ended.`,
      undefined,
      { 'retry-after': '30' },
    );
  }

  private async load(tenant: AuthenticatedTenant, id: string) {
    return this.views.present(await this.row(tenant, id));
  }

  private async row(tenant: AuthenticatedTenant, id: string): Promise<SessionRow> {
    const row = await this.views.row(tenant.tenantId, id);
    if (!row) throw ApiError.notFound('session', 'session_id');
    return row;
  }
}
