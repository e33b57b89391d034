import { Body, Controller, Delete, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { ChangeTenant, CreateTenant, IssueApiKey } from '../application/tenant.commands';
import { AdminGuard } from '../../infra/http/admin.guard';
import { CreateTenantDto } from './admin.dto';

/** The operator API (docs/api.md, "Operator API"), behind `Authorization: Bearer $ADMIN_TOKEN`. */
@ApiTags('operator')
@ApiBearerAuth()
@UseGuards(AdminGuard)
@Controller('admin/v1')
export class AdminController {
  constructor(private readonly commands: CommandBus) {}

  @Post('tenants')
  async createTenant(@Body() body: CreateTenantDto) {
    return this.commands.execute(
      new CreateTenant({ name: body.name, email: body.email ?? null, plan: body.plan ?? 'pro' }),
    );
  }

  @Post('tenants/:tenantId/api_keys')
  async issueKey(@Param('tenantId') tenantId: string) {
    return this.commands.execute(new IssueApiKey(tenantId));
  }

  @Delete('tenants/:tenantId/api_keys/:keyPrefix')
  async revokeKey(@Param('tenantId') tenantId: string, @Param('keyPrefix') keyPrefix: string) {
    await this.commands.execute(new ChangeTenant(tenantId, { type: 'revoke_key', keyPrefix }));
    return { key_prefix: keyPrefix, revoked: true };
  }

  @Post('tenants/:tenantId/suspend')
  @HttpCode(200)
  async suspend(@Param('tenantId') tenantId: string) {
    await this.commands.execute(new ChangeTenant(tenantId, { type: 'suspend' }));
    return { tenant_id: tenantId, status: 'suspended' };
  }

  @Post('tenants/:tenantId/reactivate')
  @HttpCode(200)
  async reactivate(@Param('tenantId') tenantId: string) {
    await this.commands.execute(new ChangeTenant(tenantId, { type: 'reactivate' }));
    return { tenant_id: tenantId, status: 'active' };
  }
}
