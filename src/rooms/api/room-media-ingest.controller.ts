import { Body, Controller, HttpCode, Inject, Param, Post, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { CLOCK, Clock } from '../../kernel/clock';
import { ApiError } from '../../kernel/http/api-error';
import { verifyWebhook } from '../../kernel/signing/verify-webhook';
import { parseTimestamp } from '../../kernel/timestamp';
import { RoomAction, type RoomActionInput } from '../application/room.commands';
import { RoomsQueries } from '../application/rooms.queries';
import type { EndReason } from '../domain/room.decider';
import { rawBodyOf } from '../../kernel/http/raw-body';

const END_REASONS: readonly EndReason[] = ['hangup', 'connection_lost', 'max_duration'];
/** A gateway's clock may run a little ahead of ours; an end further in the future is refused. */
const CLOCK_SKEW_MS = 5_000;
const MAX_RECORDING_SECONDS = 86_400;

/** Checks a room signal; returns the action or a message naming the problem. */
function parseRoomSignal(input: unknown, now: number): RoomActionInput | string {
  if (typeof input !== 'object' || input === null) return 'signal must be an object';
  const s = input as Record<string, unknown>;
  switch (s.kind) {
    case 'ended': {
      if (!END_REASONS.includes(s.reason as EndReason)) return `ended needs reason (${END_REASONS.join('|')})`;
      if (s.ended_at === undefined) return { type: 'complete', reason: s.reason as EndReason };
      const at = typeof s.ended_at === 'string' ? parseTimestamp(s.ended_at) : null;
      if (!at || at.getTime() > now + CLOCK_SKEW_MS) return 'ended_at must be an RFC 3339 time, not in the future';
      return { type: 'complete', reason: s.reason as EndReason, at };
    }
    case 'recording_ready': {
      const id = s.recording_id;
      const seconds = s.duration_seconds;
      if (typeof id !== 'string' || !/^rec_[a-z0-9]{10,40}$/.test(id))
        return 'recording_ready needs recording_id (rec_ followed by 10-40 lowercase letters or digits)';
      if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0 || seconds > MAX_RECORDING_SECONDS)
        return `recording_ready needs duration_seconds (0 to ${MAX_RECORDING_SECONDS})`;
      return { type: 'record', recordingId: id, durationSeconds: Math.round(seconds) };
    }
    default:
      return 'signal.kind must be ended or recording_ready';
  }
}

/**
 * Where the media gateway reports the end of a room's call and its recording, when rooms are relayed
 * to it (docs/media-gateway.md, "Rooms"): signed with MEDIA_GATEWAY_SECRET like our webhooks; the
 * body names its room, so a signed report cannot be replayed against another room. Each report is
 * applied once (the room decider completes and records a room once).
 */
@ApiExcludeController()
@Controller('media/v1/rooms')
export class RoomMediaIngestController {
  constructor(
    private readonly commands: CommandBus,
    private readonly rooms: RoomsQueries,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Post(':room_id/signals')
  @HttpCode(202)
  async signal(@Param('room_id') roomId: string, @Req() request: FastifyRequest, @Body() body: unknown) {
    const secret = this.config.mediaGatewaySecret;
    if (!secret) throw ApiError.notFound('route');
    const rawBody = rawBodyOf(request);
    const verified = verifyWebhook({ secret, headers: request.headers, rawBody });
    if (!verified.ok) throw ApiError.unauthenticated(`Signature check failed: ${verified.reason}.`);
    const input = (typeof body === 'object' && body !== null ? body : {}) as { room_id?: unknown; signal?: unknown };
    if (input.room_id !== roomId)
      throw ApiError.unauthenticated('The signed body is for another room: room_id must equal the room in the path.');
    const action = parseRoomSignal(input.signal, this.clock.now().getTime());
    if (typeof action === 'string') throw ApiError.invalid(action, 'signal');
    const room = await this.rooms.byId(roomId);
    if (!room) throw ApiError.notFound('room', 'room_id');
    const { applied } = await this.commands.execute(new RoomAction(room.tenantId, roomId, action));
    return { room_id: roomId, applied };
  }
}
