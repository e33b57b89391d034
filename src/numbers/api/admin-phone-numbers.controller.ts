import { APP_CONFIG, AppConfig } from '../../config/config';
import { Inject, Body, Controller, Param, Post, UseGuards } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiDoc, OperatorApi } from '../../kernel/http/api-docs';
import { ApiError } from '../../kernel/http/api-error';
import { normalisePhoneNumber } from '../../kernel/phone-number';
import { AdminGuard } from '../../infra/http/admin.guard';
import { checkAgentConfig } from '../../sessions';
import { GetTenant } from '../../tenants';
import { ensureVoiceUsable } from '../../voices';
import { ChangePhoneNumber } from '../application/numbers.commands';
import { NumbersQueries } from '../application/numbers.queries';
import { AssignPhoneNumberDto } from './phone-numbers.dto';
import { PHONE_NUMBER, PHONE_NUMBER_EXAMPLE, presentNumber } from './phone-numbers.controller';

/**
 * The operator assigns a number it holds on the trunk to a tenant: active at once, the number's owner
 * (taking it from whoever owned it before), without a verification call (docs/numbers.md).
 */
@OperatorApi('operator')
@UseGuards(AdminGuard)
@Controller('admin/v1/tenants')
export class AdminPhoneNumbersController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly numbers: NumbersQueries,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post(':tenantId/phone_numbers')
  @ApiDoc({
    id: 'assignPhoneNumber',
    summary: 'Assign a number to a tenant',
    description:
      'The operator assigns a number it holds on the trunk: active at once, owned by the tenant (taken from any previous owner), with no verification call.',
    status: 201,
    body: PHONE_NUMBER,
    returns: 'The number, active.',
    example: { ...PHONE_NUMBER_EXAMPLE, status: 'active' },
    errors: [400, 404, 422],
  })
  async assign(@Param('tenantId') tenantId: string, @Body() body: AssignPhoneNumberDto) {
    if (!(await this.queries.execute(new GetTenant(tenantId)))) throw ApiError.notFound('tenant', 'tenant_id');
    const phoneNumber = normalisePhoneNumber(body.phone_number);
    if (!phoneNumber)
      throw ApiError.invalid(
        'phone_number must be a valid phone number in international format, e.g. +14155550142.',
        'phone_number',
      );
    if (body.agent_config?.voice_id)
      await ensureVoiceUsable(this.queries, tenantId, body.agent_config.voice_id, 'agent_config.voice_id');
    const { phoneNumberId } = await this.commands.execute(
      new ChangePhoneNumber(tenantId, phoneNumber, {
        type: 'assign',
        ...(body.agent_config ? { agentConfig: await checkAgentConfig(body.agent_config, this.config, tenantId) } : {}),
      }),
    );
    const row = await this.numbers.get(tenantId, phoneNumberId);
    if (!row) throw ApiError.notFound('phone number', 'phone_number_id');
    return presentNumber(row);
  }
}
