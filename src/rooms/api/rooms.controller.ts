import { Body, Controller, Get, Param, Post, Query, UseGuards } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiQuery, ApiTags } from '@nestjs/swagger';
import { pageLimit } from '../../kernel/http/page-limit';
import { ApiError } from '../../kernel/http/api-error';
import { CurrentTenant } from '../../kernel/http/current-tenant';
import type { AuthenticatedTenant } from '../../kernel/http/current-tenant';
import { agentConfigOf } from '../../sessions';
import { ApiKeyGuard } from '../../tenants';
import { ensureVoiceUsable } from '../../voices';
import { CreateRoom } from '../application/room.commands';
import { RoomsQueries } from '../application/rooms.queries';
import { ROOM_STATUSES } from '../domain/room.decider';
import { CreateRoomDto } from './rooms.dto';
import { presentRoom } from './room-view';

/** WebRTC rooms: a signed link for a participant who talks with an agent in the browser (docs/rooms.md). */
@ApiTags('rooms')
@ApiBearerAuth()
@UseGuards(ApiKeyGuard)
@Controller('v1/rooms')
export class RoomsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly rooms: RoomsQueries,
  ) {}

  @Post()
  async create(@CurrentTenant() tenant: AuthenticatedTenant, @Body() body: CreateRoomDto) {
    const agent = body.agent_config;
    // A voice that is unknown, another tenant's, or not trained: 422 voice_not_ready, as for calls.
    if (body.voice_id) await ensureVoiceUsable(this.queries, tenant.tenantId, body.voice_id, 'voice_id');
    if (agent?.voice_id)
      await ensureVoiceUsable(this.queries, tenant.tenantId, agent.voice_id, 'agent_config.voice_id');
    const { roomId } = await this.commands.execute(
      new CreateRoom(tenant.tenantId, {
        clientReferenceId: body.client_reference_id ?? null,
        agentConfig: agent ? agentConfigOf(agent) : null,
        voiceId: body.voice_id ?? null,
        expiresInSeconds: body.expires_in_seconds ?? null,
        testScenario: body.test_scenario ?? null,
      }),
    );
    return this.load(tenant, roomId);
  }

  @Get()
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
  get(@CurrentTenant() tenant: AuthenticatedTenant, @Param('room_id') roomId: string) {
    return this.load(tenant, roomId);
  }

  private async load(tenant: AuthenticatedTenant, roomId: string) {
    const row = await this.rooms.get(tenant.tenantId, roomId);
    if (!row) throw ApiError.notFound('room', 'room_id');
    return presentRoom(row);
  }
}
