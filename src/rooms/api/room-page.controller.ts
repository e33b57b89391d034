import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Inject,
  Options,
  Param,
  Patch,
  Post,
  Query,
  Req,
  Res,
} from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CLOCK, Clock } from '../../kernel/clock';
import { ApiError, toErrorResponse } from '../../kernel/http/api-error';
import { CROSS_ORIGIN_HEADERS } from '../../kernel/http/cross-origin';
import type { TextBody } from '../../kernel/http/text-body';
import { DomainError } from '../../kernel/result';
import { type LiveMessage, SessionLive, streamLive } from '../../sessions';
import { RoomAction } from '../application/room.commands';
import { LiveRoomsCapReached, RoomCalls, RoomsAtCapacity } from '../application/room-calls';
import { RoomsQueries } from '../application/rooms.queries';
import { refusal, type RoomStatus } from '../domain/room.decider';
import { RoomLinks } from '../infra/room-links';
import type { RoomEntity } from '../projections/room.entity';
import { errorPage, landingPage, PAGE_ASSETS, PAGE_HEADERS, PREFLIGHT } from './room-page';

/**
 * WHIP (RFC 9725): a participant POSTs its SDP offer as application/sdp (and a trickle client may
 * PATCH an SDP fragment, to be told 405). An offer is a few kilobytes; 64 KB leaves room for many
 * candidates. Only the WHIP routes (`@RouteConfig({ textBody: true })`) take these bodies. The
 * participant's routes are `crossOrigin` (kernel/http/cross-origin.ts): a page on any origin may join
 * with the web SDK, since the token in the address is the whole credential (decision 197).
 */
export const WHIP_BODIES: TextBody = {
  mediaTypes: ['application/sdp', 'application/trickle-ice-sdpfrag'],
  limitBytes: 64 * 1024,
};

const FORGED = 'This room link is not valid: it was changed or is incomplete.';
const EXPIRED = 'This room link has expired.';

/** Live channels one room may have open at once, per instance (the page, and one reconnecting). */
const LIVE_PER_ROOM = 2;

/**
 * What a room's participant sees of the live view: the call's progress and words, not its tools or
 * metrics, and of a status only the status and its start (no answering machine, no transfer number).
 */
function forParticipant(m: LiveMessage): LiveMessage | null {
  switch (m.event) {
    case 'turn':
    case 'partial_transcript':
    case 'ended':
      return m;
    case 'status': {
      const { status, started_at } = m.data;
      return { ...m, data: started_at === undefined ? { status } : { status, started_at } };
    }
    default:
      return null;
  }
}

/**
 * What a room's participant reaches at {rooms_url}: the landing page and its files, the page's view
 * beacon, and WHIP (RFC 9725) to join and hang up. Every route but the files takes the link's token:
 * a forged one is a 403 and an expired one a 410, both before anything is looked up or recorded.
 * Left out of the OpenAPI document: these are the page's, not the REST API's (docs/rooms.md).
 */
@ApiExcludeController()
@Controller('rooms')
export class RoomPageController {
  constructor(
    private readonly commands: CommandBus,
    private readonly rooms: RoomsQueries,
    private readonly links: RoomLinks,
    private readonly calls: RoomCalls,
    private readonly live: SessionLive,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Live channels open here, per room. */
  private readonly following = new Map<string, number>();

  @Get('assets/:file')
  @RouteConfig({ crossOrigin: true })
  async asset(@Param('file') file: string, @Res() reply: FastifyReply): Promise<void> {
    const asset = Object.hasOwn(PAGE_ASSETS, file) ? PAGE_ASSETS[file] : undefined;
    if (!asset) throw ApiError.notFound('file');
    await reply
      .header('content-type', asset.type)
      .header('cache-control', 'public, max-age=300')
      .header('x-content-type-options', 'nosniff')
      .send(asset.body);
  }

  @Get(':room_id')
  async landing(
    @Param('room_id') roomId: string,
    @Query('token') token: unknown,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    void reply.headers(PAGE_HEADERS).header('content-type', 'text/html; charset=utf-8');
    let room: RoomEntity;
    try {
      room = await this.authorise(roomId, token, 'view');
    } catch (err) {
      // A refusal is a page for the person holding the link; anything else goes to the error filter.
      if (!(err instanceof ApiError) && !(err instanceof DomainError)) throw err;
      const { status, body } = toErrorResponse(err, String(reply.request.id));
      await reply.status(status).send(errorPage(body.error.message));
      return;
    }
    await reply.status(200).send(landingPage(room));
  }

  /** The page was opened in a browser: room.landing_viewed, once (a link preview fetching the HTML records nothing). */
  @Post(':room_id/view')
  @HttpCode(204)
  async view(@Param('room_id') roomId: string, @Query('token') token: unknown): Promise<void> {
    const room = await this.authorise(roomId, token, 'view');
    await this.commands.execute(new RoomAction(room.tenantId, roomId, { type: 'view' }));
  }

  /** WHIP: the participant's SDP offer; the agent's SDP answer, and the session's Location to DELETE. */
  @Post(':room_id/whip')
  @RouteConfig({ textBody: true, crossOrigin: true })
  async offer(
    @Param('room_id') roomId: string,
    @Query('token') token: unknown,
    @Req() request: FastifyRequest,
    @Body() body: unknown,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const room = await this.authorise(roomId, token, 'join');
    const type = String(request.headers['content-type'] ?? '')
      .split(';')[0]
      ?.trim()
      .toLowerCase();
    if (type !== 'application/sdp' || typeof body !== 'string')
      throw new ApiError(415, 'unsupported_media_type', 'Send the SDP offer with Content-Type: application/sdp.');
    if (body.trim() === '') throw ApiError.invalid('The body must be an SDP offer.');
    const answer = await this.calls.join(room.tenantId, roomId, body).catch((err: unknown) => {
      if (err instanceof LiveRoomsCapReached)
        throw new ApiError(429, 'rate_limited', err.message, undefined, { 'retry-after': '30' });
      if (err instanceof RoomsAtCapacity)
        throw new ApiError(503, 'at_capacity', err.message, undefined, {
          'retry-after': String(err.retryAfterSeconds),
        });
      throw err;
    });
    await reply
      .status(201)
      .header('content-type', 'application/sdp')
      .header('location', `whip/${room.participantId}?token=${encodeURIComponent(String(token))}`)
      .header('cache-control', 'no-store')
      .send(answer);
  }

  /**
   * WHIP: the participant hangs up (again: nothing more happens). A room never joined has no WHIP
   * session; one whose call broke (failed after its join) answers its status, `failed`.
   */
  @Delete(':room_id/whip/:participant_id')
  @RouteConfig({ textBody: true, crossOrigin: true })
  async hangUp(
    @Param('room_id') roomId: string,
    @Param('participant_id') participantId: string,
    @Query('token') token: unknown,
  ): Promise<{ room_id: string; status: RoomStatus }> {
    const room = await this.authoriseSignature(roomId, token, { allowExpired: true });
    const hadCall = room.status === 'joined' || room.status === 'completed' || room.joinedAt !== null;
    if (participantId !== room.participantId || !hadCall) throw ApiError.notFound('WHIP session');
    const status = await this.calls.hangUp(room.tenantId, roomId);
    return { room_id: roomId, status };
  }

  /**
   * The room's live view for its participant (the web SDK's transcript and end): the session's
   * `status`, `turn`, `partial_transcript` and `ended` as Server-Sent Events, as GET
   * /v1/sessions/{id}/live tells them (docs/rooms.md, "The participant's live channel"). Only once
   * the room was joined (409 before: there is nothing to follow); a call may outlast its link, so an
   * expired token still follows a joined room, but not one whose call is over (410). A forged token
   * is a 403; a third channel of one room at once a 429.
   */
  @Get(':room_id/live')
  @RouteConfig({ crossOrigin: true })
  async followLive(
    @Param('room_id') roomId: string,
    @Query('token') token: unknown,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const check = this.signature(roomId, token);
    // The room's stream, not its read model: a page follows right after its join was answered.
    const room = await this.calls.joinState(roomId);
    if (!room) throw ApiError.notFound('room', 'room_id');
    if (!room.joined) throw new ApiError(409, 'conflict', 'This room has not been joined yet.');
    if (check === 'expired' && room.status !== 'joined') throw new ApiError(410, 'gone', EXPIRED);
    const open = this.following.get(roomId) ?? 0;
    if (open >= LIVE_PER_ROOM)
      throw new ApiError(429, 'rate_limited', 'This room already has its live channels open.', undefined, {
        'retry-after': '5',
      });
    this.following.set(roomId, open + 1);
    reply.raw.once('close', () => {
      const left = (this.following.get(roomId) ?? 1) - 1;
      if (left > 0) this.following.set(roomId, left);
      else this.following.delete(roomId);
    });
    streamLive(this.live, room.sessionId, request, reply, { shape: forParticipant, headers: CROSS_ORIGIN_HEADERS });
  }

  /** CORS preflight: a page on another origin (the web SDK on a customer's site) may join and hang up. */
  @Options([':room_id/whip', ':room_id/whip/:participant_id'])
  @RouteConfig({ crossOrigin: true })
  @HttpCode(204)
  preflight(@Res({ passthrough: true }) reply: FastifyReply): void {
    void reply.headers(PREFLIGHT);
  }

  /** No trickle ICE and no ICE restart: RFC 9725 asks for a 405 then. */
  @Patch(':room_id/whip/:participant_id')
  @RouteConfig({ textBody: true, crossOrigin: true })
  patch(): never {
    throw new ApiError(405, 'invalid_request', 'Trickle ICE and ICE restarts are not supported.', undefined, {
      allow: 'DELETE',
    });
  }

  /** The token, then the room, then whether it can still be opened or joined. */
  private async authorise(roomId: string, token: unknown, action: 'view' | 'join'): Promise<RoomEntity> {
    const room = await this.authoriseSignature(roomId, token, { allowExpired: false });
    const status = room.status as RoomStatus;
    const refused = refusal(
      { status, expires_at: room.expiresAt.toISOString() },
      this.clock.now().toISOString(),
      action,
    );
    if (refused) throw refused;
    return room;
  }

  /** A hang-up may come after the link's expiry (a call that outlasts it); nothing else may. */
  private async authoriseSignature(
    roomId: string,
    token: unknown,
    opts: { allowExpired: boolean },
  ): Promise<RoomEntity> {
    if (this.signature(roomId, token) === 'expired' && !opts.allowExpired) throw new ApiError(410, 'gone', EXPIRED);
    const room = await this.rooms.byId(roomId);
    if (!room) throw ApiError.notFound('room', 'room_id');
    return room;
  }

  /** The link's signature: a forged one is a 403, before anything is looked up. */
  private signature(roomId: string, token: unknown): 'valid' | 'expired' {
    const check = this.links.check(roomId, token);
    if (check === 'invalid') throw new ApiError(403, 'forbidden', FORGED);
    return check;
  }
}
