import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, UseGuards } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiQuery, ApiTags } from '@nestjs/swagger';
import { pageLimit } from '../../kernel/http/page-limit';
import { ApiError } from '../../kernel/http/api-error';
import { CurrentTenant } from '../../kernel/http/current-tenant';
import type { AuthenticatedTenant } from '../../kernel/http/current-tenant';
import { normalisePhoneNumber } from '../../kernel/phone-number';
import { agentConfigOf, GetSession, INBOUND_TEST_SCRIPTS } from '../../sessions';
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

/**
 * The tenant's inbound numbers: each answered by its agent, with an answer-rate alert; a production
 * number takes calls once its ownership is shown by a verification call (docs/numbers.md).
 */
@ApiTags('phone numbers')
@ApiBearerAuth()
@UseGuards(ApiKeyGuard)
@Controller('v1/phone_numbers')
export class PhoneNumbersController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly numbers: NumbersQueries,
  ) {}

  @Post()
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
        agentConfig: agentConfigOf(body.agent_config),
        testMode: body.test_mode ?? false,
      }),
    );
    return this.load(tenant, phoneNumberId);
  }

  @Get()
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
  get(@CurrentTenant() tenant: AuthenticatedTenant, @Param('id') id: string) {
    return this.load(tenant, id);
  }

  @Patch(':id')
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
        ...(body.agent_config ? { agentConfig: agentConfigOf(body.agent_config) } : {}),
        ...(body.test_mode !== undefined ? { testMode: body.test_mode } : {}),
      }),
    );
    return this.load(tenant, id);
  }

  @Delete(':id')
  async remove(@CurrentTenant() tenant: AuthenticatedTenant, @Param('id') id: string) {
    const row = await this.row(tenant, id);
    await this.commands.execute(
      new ChangePhoneNumber(tenant.tenantId, row.phoneNumber, { type: 'release', phoneNumberId: id }),
    );
    return { id, deleted: true };
  }

  /** Plays one inbound call to the number on the simulator, as a free test call; answers with the new session. */
  @Post(':id/test_inbound_calls')
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
  async requestVerification(@CurrentTenant() tenant: AuthenticatedTenant, @Param('id') id: string) {
    const row = await this.row(tenant, id);
    const { sessionId, expiresAt, triesLeft } = await this.commands.execute(
      new RequestNumberVerification(tenant.tenantId, id, row.phoneNumber),
    );
    return { phone_number_id: id, session_id: sessionId, expires_at: expiresAt, tries_left: triesLeft };
  }

  /** The code spoken on the verification call: the number becomes active; 5 wrong tries void the code. */
  @Post(':id/verification/confirm')
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
