import { APP_CONFIG, AppConfig } from '../../config/config';
import { Inject, Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, UseGuards } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiQuery } from '@nestjs/swagger';
import { ApiDoc, DELETED, named, pageOf, shape, TenantApi } from '../../kernel/http/api-docs';
import { pageLimit } from '../../kernel/http/page-limit';
import { ApiError } from '../../kernel/http/api-error';
import { CurrentTenant } from '../../kernel/http/current-tenant';
import type { AuthenticatedTenant } from '../../kernel/http/current-tenant';
import { normalisePhoneNumber } from '../../kernel/phone-number';
import {
  AGENT_CONFIG,
  checkAgentConfig,
  GetSession,
  INBOUND_TEST_SCRIPTS,
  SESSION,
  SESSION_EXAMPLE,
} from '../../sessions';
import { ApiKeyGuard } from '../../tenants';
import { ensureVoiceUsable } from '../../voices';
import { ConfirmNumberVerification, RequestNumberVerification } from '../application/number-verification';
import { ChangePhoneNumber, ReceiveInboundCall } from '../application/numbers.commands';
import { statusOf } from '../domain/phone-number.decider';
import { NumbersQueries } from '../application/numbers.queries';
import type { PhoneNumberEntity } from '../projections/phone-number.entity';
import {
  ConfirmVerificationDto,
  CreatePhoneNumberDto,
  TestInboundCallDto,
  UpdatePhoneNumberDto,
} from './phone-numbers.dto';

export const presentNumber = (row: PhoneNumberEntity) => ({
  phone_number_id: row.phoneNumberId,
  phone_number: row.phoneNumber,
  agent_config: row.agentConfig,
  test_mode: row.testMode,
  status: statusOf(row.owns, row.testMode),
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
});

export const PHONE_NUMBER = shape('PhoneNumber', {
  phone_number_id: { type: 'string', description: 'The number’s id (`pn_…`).' },
  phone_number: { type: 'string', description: 'International format with a leading +.' },
  agent_config: AGENT_CONFIG,
  test_mode: { type: 'boolean' },
  status: {
    type: 'string',
    enum: ['active', 'pending_verification'],
    description:
      '`pending_verification` until its ownership is shown (a verification call, or the operator); test mode: `active`.',
  },
  created_at: { type: 'string', format: 'date-time' },
  updated_at: { type: 'string', format: 'date-time' },
});
export const PHONE_NUMBER_EXAMPLE = {
  phone_number_id: 'pn_01jf8w2c4v6b8n0m2q4w',
  phone_number: '+14155550142',
  agent_config: { prompt: 'You are the front desk of Northwind Dental.' },
  test_mode: false,
  status: 'pending_verification',
  created_at: '2026-11-21T10:00:00.000Z',
  updated_at: '2026-11-21T10:00:00.000Z',
};
const VERIFICATION = named('PhoneNumberVerification', {
  type: 'object',
  description: 'A verification call placed to the number; its agent speaks the code.',
  properties: {
    phone_number_id: { type: 'string' },
    session_id: { type: 'string', description: 'The verification call’s session.' },
    expires_at: { type: 'string', format: 'date-time', description: 'The code is valid until then.' },
    tries_left: { type: 'integer', minimum: 0 },
  },
  required: ['phone_number_id', 'session_id', 'expires_at', 'tries_left'],
  additionalProperties: false,
});

/**
 * The tenant's inbound numbers: each answered by its agent, with an answer-rate alert; a production
 * number takes calls once its ownership is shown by a verification call (docs/numbers.md).
 */
@TenantApi('phone numbers')
@UseGuards(ApiKeyGuard)
@Controller('v1/phone_numbers')
export class PhoneNumbersController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly numbers: NumbersQueries,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post()
  @ApiDoc({
    id: 'createPhoneNumber',
    summary: 'Register an inbound number',
    description:
      'Registers one of the tenant’s numbers, answered by `agent_config`. A production number takes calls once its ownership is shown by a verification call (`pending_verification` until then); a test-mode number is active at once.',
    status: 201,
    body: PHONE_NUMBER,
    returns: 'The number.',
    example: PHONE_NUMBER_EXAMPLE,
    errors: [400, 403, 409, 422],
  })
  async create(@CurrentTenant() tenant: AuthenticatedTenant, @Body() body: CreatePhoneNumberDto) {
    const phoneNumber = normalisePhoneNumber(body.phone_number);
    if (!phoneNumber)
      throw ApiError.invalid(
        'phone_number must be a valid phone number in international format, e.g. +14155550142.',
        'phone_number',
      );
    if (body.agent_config.voice_id)
      await ensureVoiceUsable(this.queries, tenant.tenantId, body.agent_config.voice_id, 'agent_config.voice_id');
    const { phoneNumberId } = await this.commands.execute(
      new ChangePhoneNumber(tenant.tenantId, phoneNumber, {
        type: 'register',
        agentConfig: await checkAgentConfig(body.agent_config, this.config, tenant.tenantId),
        testMode: body.test_mode ?? false,
      }),
    );
    return this.load(tenant, phoneNumberId);
  }

  @Get()
  @ApiDoc({
    id: 'listPhoneNumbers',
    summary: 'List inbound numbers',
    description: 'The tenant’s numbers, newest first.',
    body: pageOf('PhoneNumberPage', PHONE_NUMBER),
    returns: 'A page of numbers.',
    example: { data: [PHONE_NUMBER_EXAMPLE], has_more: false },
    errors: [400, 404],
  })
  @ApiQuery({ name: 'limit', required: false, description: '1 to 100, default 20' })
  @ApiQuery({ name: 'starting_after', required: false, description: 'A phone number id: the page after it' })
  async list(
    @CurrentTenant() tenant: AuthenticatedTenant,
    @Query('limit') limitText?: string,
    @Query('starting_after') startingAfter?: string,
  ) {
    const limit = pageLimit(limitText);
    const page = await this.numbers.list(tenant.tenantId, { startingAfter, limit });
    if (!page) throw ApiError.notFound('phone number', 'starting_after');
    return { data: page.data.map(presentNumber), has_more: page.hasMore };
  }

  @Get(':id')
  @ApiDoc({
    id: 'getPhoneNumber',
    summary: 'Get an inbound number',
    description: 'The number, its agent and its status.',
    body: PHONE_NUMBER,
    returns: 'The number.',
    example: PHONE_NUMBER_EXAMPLE,
    errors: [404],
  })
  get(@CurrentTenant() tenant: AuthenticatedTenant, @Param('id') id: string) {
    return this.load(tenant, id);
  }

  @Patch(':id')
  @ApiDoc({
    id: 'updatePhoneNumber',
    summary: 'Update an inbound number',
    description: 'Changes its agent or test mode; fields not sent are kept.',
    body: PHONE_NUMBER,
    returns: 'The number as changed.',
    example: PHONE_NUMBER_EXAMPLE,
    errors: [400, 403, 404, 409, 422],
  })
  async update(
    @CurrentTenant() tenant: AuthenticatedTenant,
    @Param('id') id: string,
    @Body() body: UpdatePhoneNumberDto,
  ) {
    const row = await this.row(tenant, id);
    if (body.agent_config?.voice_id)
      await ensureVoiceUsable(this.queries, tenant.tenantId, body.agent_config.voice_id, 'agent_config.voice_id');
    await this.commands.execute(
      new ChangePhoneNumber(tenant.tenantId, row.phoneNumber, {
        type: 'update',
        phoneNumberId: id,
        ...(body.agent_config
          ? { agentConfig: await checkAgentConfig(body.agent_config, this.config, tenant.tenantId) }
          : {}),
        ...(body.test_mode !== undefined ? { testMode: body.test_mode } : {}),
      }),
    );
    return this.load(tenant, id);
  }

  @Delete(':id')
  @ApiDoc({
    id: 'deletePhoneNumber',
    summary: 'Release an inbound number',
    description: 'The number takes no more calls for the tenant.',
    body: DELETED,
    returns: 'The id, deleted.',
    example: { id: PHONE_NUMBER_EXAMPLE.phone_number_id, deleted: true },
    errors: [404],
  })
  async remove(@CurrentTenant() tenant: AuthenticatedTenant, @Param('id') id: string) {
    const row = await this.row(tenant, id);
    await this.commands.execute(
      new ChangePhoneNumber(tenant.tenantId, row.phoneNumber, { type: 'release', phoneNumberId: id }),
    );
    return { id, deleted: true };
  }

  /** Plays one inbound call to the number on the simulator, as a free test call; answers with the new session. */
  @Post(':id/test_inbound_calls')
  @ApiDoc({
    id: 'testInboundCall',
    summary: 'Play a test inbound call',
    description: 'Plays one inbound call to the number on the simulator, free of charge; answers with the new session.',
    status: 201,
    body: SESSION,
    returns: 'The inbound call’s session.',
    example: { ...SESSION_EXAMPLE, direction: 'inbound', test_mode: true },
    errors: [400, 403, 404, 409],
  })
  async testInboundCall(
    @CurrentTenant() tenant: AuthenticatedTenant,
    @Param('id') id: string,
    @Body() body: TestInboundCallDto,
  ) {
    const row = await this.row(tenant, id);
    const from = normalisePhoneNumber(body.from_number);
    if (!from)
      throw ApiError.invalid(
        'from_number must be a valid phone number in international format, e.g. +14155550123.',
        'from_number',
      );
    const script = body.answered === false ? INBOUND_TEST_SCRIPTS.noAnswer : INBOUND_TEST_SCRIPTS.answered;
    const { sessionId } = await this.commands.execute(
      new ReceiveInboundCall(tenant.tenantId, id, row.phoneNumber, from, script),
    );
    const session = await this.queries.execute(new GetSession(tenant.tenantId, sessionId));
    if (!session) throw ApiError.notFound('session', 'session_id');
    return session;
  }

  /**
   * Places a verification call to the number: its agent speaks a 6-digit code, valid 10 minutes, for
   * `POST …/verification/confirm`. At most one call a minute and 5 a day to a number per tenant, 10 a
   * day to a number for all tenants, 20 a day per tenant over its numbers (429; docs/numbers.md).
   */
  @Post(':id/verification')
  @ApiDoc({
    id: 'requestPhoneNumberVerification',
    summary: 'Place a verification call',
    description:
      'Calls the number; its agent speaks a 6-digit code, valid 10 minutes, for /verification/confirm. At most one call a minute and 5 a day to a number per tenant, 10 a day to a number for all tenants, 20 a day per tenant (429 beyond).',
    status: 201,
    body: VERIFICATION,
    returns: 'The verification call.',
    example: {
      phone_number_id: PHONE_NUMBER_EXAMPLE.phone_number_id,
      session_id: 'ses_01jf8w2c4v6b8n0m2q4w',
      expires_at: '2026-11-21T10:10:00.000Z',
      tries_left: 5,
    },
    errors: [403, 404, 409, 429],
  })
  async requestVerification(@CurrentTenant() tenant: AuthenticatedTenant, @Param('id') id: string) {
    const row = await this.row(tenant, id);
    const { sessionId, expiresAt, triesLeft } = await this.commands.execute(
      new RequestNumberVerification(tenant.tenantId, id, row.phoneNumber),
    );
    return { phone_number_id: id, session_id: sessionId, expires_at: expiresAt, tries_left: triesLeft };
  }

  /** The code spoken on the verification call: the number becomes active; 5 wrong tries void the code. */
  @Post(':id/verification/confirm')
  @ApiDoc({
    id: 'confirmPhoneNumberVerification',
    summary: 'Confirm a number with its code',
    description:
      'The code spoken on the verification call: the number becomes active. A wrong code is a 422 `verification_failed` (5 wrong tries void it); no code pending is a 409 `verification_required`.',
    body: PHONE_NUMBER,
    returns: 'The number, active.',
    example: { ...PHONE_NUMBER_EXAMPLE, status: 'active' },
    errors: [400, 404, 409, 422],
  })
  @HttpCode(200)
  async confirmVerification(
    @CurrentTenant() tenant: AuthenticatedTenant,
    @Param('id') id: string,
    @Body() body: ConfirmVerificationDto,
  ) {
    const row = await this.row(tenant, id);
    const result = await this.commands.execute(
      new ConfirmNumberVerification(tenant.tenantId, id, row.phoneNumber, body.code),
    );
    if (result.outcome === 'wrong_code')
      throw new ApiError(
        422,
        'verification_failed',
        result.triesLeft > 0
          ? `That is not the code spoken on the verification call; ${result.triesLeft} ${result.triesLeft === 1 ? 'try' : 'tries'} left.`
          : 'That is not the code spoken on the verification call, and no tries are left: place a new verification call.',
        'code',
      );
    if (result.outcome === 'no_code_pending')
      throw new ApiError(
        409,
        'verification_required',
        'No verification code is pending for this number (none was asked for, it expired, or its tries are used up): place a new verification call.',
      );
    return this.load(tenant, id);
  }

  private async row(tenant: AuthenticatedTenant, id: string): Promise<PhoneNumberEntity> {
    const row = await this.numbers.get(tenant.tenantId, id);
    if (!row) throw ApiError.notFound('phone number', 'phone_number_id');
    return row;
  }

  private async load(tenant: AuthenticatedTenant, id: string) {
    return presentNumber(await this.row(tenant, id));
  }
}
