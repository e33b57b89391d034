import { Body, Controller, HttpCode, Inject, Param, Post, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiExcludeEndpoint, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../kernel/http/api-error';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { requireGatewaySignature } from '../../kernel/http/gateway-signature';
import { SessionActionCommand } from '../application/session.commands';
import { SessionsQueries } from '../application/sessions.queries';
import { isSignalSeq, parseMediaSignal, SIGNAL_LIMITS } from '../domain/media-signal';
import { sessionStream } from '../domain/session.decider';
import { EVENT_STORE, EventStore } from '../../event-store/event-store.port';

/**
 * Where an external media plane reports call progress (docs/media-gateway.md). Requests are signed
 * with MEDIA_GATEWAY_SECRET exactly like our webhooks; `seq` makes a retried report a no-op.
 */
@ApiTags('media gateway')
@Controller('media/v1')
export class MediaIngestController {
  constructor(
    private readonly commands: CommandBus,
    private readonly sessions: SessionsQueries,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(EVENT_STORE) private readonly store: EventStore,
  ) {}

  @Post('sessions/:id/signals')
  @HttpCode(202)
  @ApiExcludeEndpoint()
  async signal(@Param('id') sessionId: string, @Req() request: FastifyRequest, @Body() body: unknown) {
    requireGatewaySignature(request, this.config.mediaGatewaySecret);
    const input = (typeof body === 'object' && body !== null ? body : {}) as {
      session_id?: unknown;
      seq?: unknown;
      signal?: unknown;
    };
    // The signature covers the body only, so the body names its session: a signed report cannot be
    // replayed against another session's URL.
    if (input.session_id !== sessionId) {
      throw ApiError.unauthenticated(
        'The signed body is for another session: session_id must equal the session in the path.',
      );
    }
    // Every number and string is bounded here, at the edge: nothing out of range reaches the
    // decider, the events or a read model
    // (docs/decisions/0023-a-poison-event-is-set-aside-as-a-dead-letter-after-n-tries.md).
    if (!isSignalSeq(input.seq)) {
      throw ApiError.invalid(
        `seq must be a positive integer, increasing per session, at most ${SIGNAL_LIMITS.seq}.`,
        'seq',
      );
    }
    const signal = parseMediaSignal(input.signal);
    if (typeof signal === 'string') throw ApiError.invalid(signal, 'signal');
    const tenantId = await this.tenantOf(sessionId);
    if (!tenantId) throw ApiError.notFound('session', 'session_id');
    const { applied } = await this.commands.execute(
      new SessionActionCommand(tenantId, sessionId, { type: 'signal', seq: input.seq, signal }),
    );
    return { session_id: sessionId, seq: input.seq, applied };
  }

  /**
   * The session's tenant: from the read model, or, for a session placed a moment ago (an inbound call
   * whose signals follow its 201 at once), from the session's own stream.
   */
  private async tenantOf(sessionId: string): Promise<string | null> {
    const known = await this.sessions.tenantOf(sessionId);
    if (known) return known;
    const [placed] = await this.store.readStream(sessionStream(sessionId));
    return placed?.type === 'session.placed' ? placed.metadata.tenant_id : null;
  }
}
