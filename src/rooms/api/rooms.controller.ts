import { APP_CONFIG, AppConfig } from '../../config/config';
import { Inject, Body, Controller, Get, Param, Post, Query, UseGuards } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiQuery } from '@nestjs/swagger';
import { ApiDoc, TenantApi } from '../../kernel/http/api-docs';
import { ROOM, ROOM_EXAMPLE, ROOM_PAGE } from './rooms.schemas';
import { pageLimit } from '../../kernel/http/page-limit';
import { ApiError } from '../../kernel/http/api-error';
import { CurrentTenant } from '../../kernel/http/current-tenant';
import type { AuthenticatedTenant } from '../../kernel/http/current-tenant';
import { checkAgentConfig } from '../../sessions';
import { ApiKeyGuard } from '../../tenants';
import { ensureVoiceUsable } from '../../voices';
import { CreateRoom } from '../application/room.commands';
import { RoomsQueries } from '../application/rooms.queries';
import { ROOM_STATUSES } from '../domain/room.decider';
import { CreateRoomDto } from './rooms.dto';
import { presentRoom } from './room-view';

/** WebRTC rooms: a signed link for a participant who talks with an agent in the browser (docs/rooms.md). */
@TenantApi('rooms')
@UseGuards(ApiKeyGuard)
@Controller('v1/rooms')
export class RoomsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly rooms: RoomsQueries,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post()
  @ApiDoc({
    id: 'createRoom',
    summary: 'Create a room',
    description:
      'A browser conversation with an agent: give `room_url` to the participant, who talks to the agent over WebRTC until the room expires (`expires_in_seconds`). The room’s events and its session follow.',
    status: 201,
    body: ROOM,
    returns: 'The room.',
    example: ROOM_EXAMPLE,
    errors: [400, 403, 422],
  })
  async create(@CurrentTenant() tenant: AuthenticatedTenant, @Body() body: CreateRoomDto) {
    const agent = body.agent_config;
    // A voice that is unknown, another tenant's, or not trained: 422 voice_not_ready, as for calls.
    if (body.voice_id) await ensureVoiceUsable(this.queries, tenant.tenantId, body.voice_id, 'voice_id');
    if (agent?.voice_id)
      await ensureVoiceUsable(this.queries, tenant.tenantId, agent.voice_id, 'agent_config.voice_id');
    const { roomId } = await this.commands.execute(
      new CreateRoom(tenant.tenantId, {
        clientReferenceId: body.client_reference_id ?? null,
        agentConfig: agent ? await checkAgentConfig(agent, this.config, tenant.tenantId) : null,
        voiceId: body.voice_id ?? null,
        expiresInSeconds: body.expires_in_seconds ?? null,
        testScenario: body.test_scenario ?? null,
      }),
    );
    return this.load(tenant, roomId);
  }

  @Get()
  @ApiDoc({
    id: 'listRooms',
    summary: 'List rooms',
    description: 'The tenant’s rooms, newest first, filtered by status.',
    body: ROOM_PAGE,
    returns: 'A page of rooms.',
    example: { data: [ROOM_EXAMPLE], has_more: false },
    errors: [400, 404],
  })
  @ApiQuery({ name: 'status', required: false, enum: ROOM_STATUSES })
  @ApiQuery({ name: 'limit', required: false, description: '1 to 100, default 20' })
  @ApiQuery({ name: 'starting_after', required: false, description: 'A room id: the page after it' })
  async list(
    @CurrentTenant() tenant: AuthenticatedTenant,
    @Query('status') status?: string,
    @Query('limit') limitText?: string,
    @Query('starting_after') startingAfter?: string,
  ) {
    if (status !== undefined && !(ROOM_STATUSES as readonly string[]).includes(status))
      throw ApiError.invalid(`status must be one of ${ROOM_STATUSES.join(', ')}.`, 'status');
    const page = await this.rooms.list(tenant.tenantId, { status, startingAfter, limit: pageLimit(limitText) });
    if (!page) throw ApiError.notFound('room', 'starting_after');
    return { data: page.data.map(presentRoom), has_more: page.hasMore };
  }

  @Get(':room_id')
  @ApiDoc({
    id: 'getRoom',
    summary: 'Get a room',
    description: 'The room, its state and its session once joined.',
    body: ROOM,
    returns: 'The room.',
    example: ROOM_EXAMPLE,
    errors: [404],
  })
  get(@CurrentTenant() tenant: AuthenticatedTenant, @Param('room_id') roomId: string) {
    return this.load(tenant, roomId);
  }

  private async load(tenant: AuthenticatedTenant, roomId: string) {
    const row = await this.rooms.get(tenant.tenantId, roomId);
    if (!row) throw ApiError.notFound('room', 'room_id');
    return presentRoom(row);
  }
}
