import { Body, Controller, Inject, Post, Req } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiExcludeEndpoint, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { ApiError } from '../../kernel/http/api-error';
import { normalisePhoneNumber } from '../../kernel/phone-number';
import { verifyWebhook } from '../../kernel/signing/verify-webhook';
import { ReceiveInboundCall } from '../application/numbers.commands';
import { GetNumberOwner } from '../application/numbers.queries';
import { rawBodyOf } from '../../kernel/http/raw-body';

const FIELDS = new Set(['to_number', 'from_number', 'call_id']);
const CALL_ID = /^[A-Za-z0-9_.:-]{1,100}$/;

/**
 * Where the media gateway reports an inbound call (docs/media-gateway.md): signed with
 * MEDIA_GATEWAY_SECRET exactly like the signals route, checked before the body is read. It answers
 * with the session to report signals on and the agent that takes the call.
 */
@ApiTags('media gateway')
@Controller('media/v1')
export class InboundCallsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post('inbound_calls')
  @ApiExcludeEndpoint()
  async inboundCall(@Req() request: FastifyRequest, @Body() body: unknown) {
    const secret = this.config.mediaGatewaySecret;
    if (!secret) throw ApiError.notFound('route');
    const rawBody = rawBodyOf(request);
    const verified = verifyWebhook({ secret, headers: request.headers, rawBody });
    if (!verified.ok) throw ApiError.unauthenticated(`Signature check failed: ${verified.reason}.`);
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      throw ApiError.invalid('The body must be a JSON object: {to_number, from_number, call_id?}.');
    const input = body as Record<string, unknown>;
    const unknown = Object.keys(input).find((k) => !FIELDS.has(k));
    if (unknown) throw ApiError.invalid(`Unknown field ${unknown}.`, unknown);
    const number = (field: string): string => {
      const value = input[field];
      const e164 = typeof value === 'string' && value.length <= 32 ? normalisePhoneNumber(value) : null;
      if (!e164) throw ApiError.invalid(`${field} must be a valid phone number in international format.`, field);
      return e164;
    };
    const to = number('to_number');
    const from = number('from_number');
    const callId = input.call_id;
    if (callId !== undefined && (typeof callId !== 'string' || !CALL_ID.test(callId)))
      throw ApiError.invalid('call_id must be 1-100 letters, digits or _ . : -', 'call_id');
    // Only the number's active owner takes the call: a number pending verification is unknown here.
    const owner = await this.queries.execute(new GetNumberOwner(to));
    if (!owner) throw ApiError.notFound('phone number', 'to_number');
    const { sessionId, agentConfig } = await this.commands.execute(
      new ReceiveInboundCall(owner.tenantId, owner.phoneNumberId, owner.phoneNumber, from, null, callId ?? null),
    );
    return { session_id: sessionId, agent_config: agentConfig };
  }
}
