import { Body, Controller, Delete, Get, Inject, Param, Post, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiProperty, ApiTags } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import type { Pool } from 'pg';
import { ApiError } from '../../kernel/http/api-error';
import { CurrentTenant } from '../../kernel/http/current-tenant';
import { PG_POOL } from '../../infra/database/database.tokens';
import { normalisePhoneNumber } from '../../kernel/phone-number';
import type { AuthenticatedTenant } from '../../kernel/http/current-tenant';
import { ApiKeyGuard } from '../../tenants';
import { ChangeDnc } from '../application/dnc.commands';

export class AddDncDto {
  @ApiProperty({ example: '+14155550106' })
  @IsString()
  @MaxLength(32)
  phone_number!: string;
}

interface DncRow {
  phone_number: string;
  source: string;
  session_id: string | null;
  created_at: Date;
}

const present = (r: DncRow) => ({
  phone_number: r.phone_number,
  source: r.source,
  session_id: r.session_id,
  created_at: r.created_at.toISOString(),
});

/** The tenant's do-not-call list. Opt-outs detected on calls are added automatically. */
@ApiTags('do-not-call')
@ApiBearerAuth()
@UseGuards(ApiKeyGuard)
@Controller('v1/dnc')
export class DncController {
  constructor(
    private readonly commands: CommandBus,
    @Inject(PG_POOL) private readonly pool: Pool,
  ) {}

  @Get()
  async list(@CurrentTenant() tenant: AuthenticatedTenant) {
    const { rows } = await this.pool.query<DncRow>(
      'SELECT phone_number, source, session_id, created_at FROM dnc_numbers WHERE tenant_id = $1 ORDER BY created_at DESC, phone_number',
      [tenant.tenantId],
    );
    return { data: rows.map(present) };
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
    const { rows } = await this.pool.query<DncRow>(
      'SELECT phone_number, source, session_id, created_at FROM dnc_numbers WHERE tenant_id = $1 AND phone_number = $2',
      [tenantId, phone],
    );
    if (!rows[0]) throw ApiError.notFound('number on the do-not-call list', 'phone_number');
    return present(rows[0]);
  }
}
