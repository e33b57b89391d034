import { Body, Controller, Delete, Get, Param, Post, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiProperty, ApiTags } from '@nestjs/swagger';
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

/** The tenant's do-not-call list. Opt-outs detected on calls are added automatically. */
@ApiTags('do-not-call')
@ApiBearerAuth()
@UseGuards(ApiKeyGuard)
@Controller('v1/dnc')
export class DncController {
  constructor(
    private readonly commands: CommandBus,
    private readonly dnc: DncQueries,
  ) {}

  @Get()
  async list(@CurrentTenant() tenant: AuthenticatedTenant) {
    return { data: (await this.dnc.list(tenant.tenantId)).map(present) };
  }

  @Post()
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
