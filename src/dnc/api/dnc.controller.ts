import { Body, Controller, Delete, Get, Param, Post, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiProperty } from '@nestjs/swagger';
import { ApiDoc, listOf, shape, TenantApi } from '../../kernel/http/api-docs';
import { IsString, MaxLength } from 'class-validator';
import { ApiError } from '../../kernel/http/api-error';
import { CurrentTenant } from '../../kernel/http/current-tenant';
import { normalisePhoneNumber } from '../../kernel/phone-number';
import type { AuthenticatedTenant } from '../../kernel/http/current-tenant';
import { ApiKeyGuard } from '../../tenants';
import { ChangeDnc } from '../application/dnc.commands';
import { DncQueries } from '../application/dnc.queries';
import type { DncNumberEntity } from '../projections/dnc-number.entity';

export class AddDncDto {
  @ApiProperty({ example: '+14155550106' })
  @IsString()
  @MaxLength(32)
  phone_number!: string;
}

const present = (r: DncNumberEntity) => ({
  phone_number: r.phoneNumber,
  source: r.source,
  session_id: r.sessionId,
  created_at: r.createdAt.toISOString(),
});

const DNC_ENTRY = shape('DncEntry', {
  phone_number: { type: 'string', description: 'International format with a leading +.' },
  source: { type: 'string', description: '`api`, or how it was added otherwise (an opt-out detected on a call).' },
  session_id: { type: ['string', 'null'], description: 'The call whose opt-out added it, if one did.' },
  created_at: { type: 'string', format: 'date-time' },
});
const DNC_EXAMPLE = {
  phone_number: '+14155550106',
  source: 'api',
  session_id: null,
  created_at: '2026-11-21T10:00:00.000Z',
};

/** The tenant's do-not-call list. Opt-outs detected on calls are added automatically. */
@TenantApi('do-not-call')
@UseGuards(ApiKeyGuard)
@Controller('v1/dnc')
export class DncController {
  constructor(
    private readonly commands: CommandBus,
    private readonly dnc: DncQueries,
  ) {}

  @Get()
  @ApiDoc({
    id: 'listDnc',
    summary: 'List the do-not-call list',
    description: 'Every number never dialled for the tenant: added by the API or by opt-outs detected on calls.',
    body: listOf('DncList', DNC_ENTRY),
    returns: 'The numbers.',
    example: { data: [DNC_EXAMPLE] },
    errors: [],
  })
  async list(@CurrentTenant() tenant: AuthenticatedTenant) {
    return { data: (await this.dnc.list(tenant.tenantId)).map(present) };
  }

  @Post()
  @ApiDoc({
    id: 'addDnc',
    summary: 'Add a number to the do-not-call list',
    description:
      'The number is never dialled again for the tenant (campaign contacts with it are skipped). Adding it twice is harmless.',
    status: 201,
    body: DNC_ENTRY,
    returns: 'The entry.',
    example: DNC_EXAMPLE,
    errors: [400],
  })
  async add(@CurrentTenant() tenant: AuthenticatedTenant, @Body() body: AddDncDto) {
    const phone = normalisePhoneNumber(body.phone_number);
    if (!phone)
      throw ApiError.invalid(
        'phone_number must be a valid number in international format, e.g. +14155550100.',
        'phone_number',
      );
    await this.commands.execute(
      new ChangeDnc(tenant.tenantId, { type: 'add', phoneNumber: phone, source: 'api', sessionId: null }),
    );
    return this.get(tenant.tenantId, phone);
  }

  @Delete(':phoneNumber')
  @ApiDoc({
    id: 'removeDnc',
    summary: 'Remove a number from the do-not-call list',
    description: 'The number may be dialled again.',
    body: shape('DncRemoved', { phone_number: { type: 'string' }, deleted: { type: 'boolean', const: true } }),
    returns: 'The number, removed.',
    example: { phone_number: '+14155550106', deleted: true },
    errors: [404],
  })
  async remove(@CurrentTenant() tenant: AuthenticatedTenant, @Param('phoneNumber') raw: string) {
    const phone = normalisePhoneNumber(raw);
    if (!phone) throw ApiError.notFound('number on the do-not-call list', 'phone_number');
    await this.commands.execute(new ChangeDnc(tenant.tenantId, { type: 'remove', phoneNumber: phone }));
    return { phone_number: phone, deleted: true };
  }

  private async get(tenantId: string, phone: string) {
    const row = await this.dnc.get(tenantId, phone);
    if (!row) throw ApiError.notFound('number on the do-not-call list', 'phone_number');
    return present(row);
  }
}
