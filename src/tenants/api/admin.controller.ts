import { Body, Controller, Delete, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { ApiError } from '../../kernel/http/api-error';
import { ProjectionsService } from '../../runtime/processing/processors.service';
import { ChangeTenant, CreateTenant, IssueApiKey } from '../application/tenant.commands';
import { AdminGuard } from './auth.guards';
import { CreateTenantDto, RebuildProjectionsDto } from './admin.dto';

/** The operator API (docs/api.md, "Operator API"), behind `Authorization: Bearer $ADMIN_TOKEN`. */
@ApiTags('operator')
@ApiBearerAuth()
@UseGuards(AdminGuard)
@Controller('admin/v1')
export class AdminController {
  constructor(
    private readonly commands: CommandBus,
    private readonly projections: ProjectionsService,
  ) {}

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

  @Post('projections/rebuild')
  @HttpCode(200)
  async rebuild(@Body() body: RebuildProjectionsDto) {
    if (body.projection !== undefined && !this.projections.names().includes(body.projection)) {
      throw ApiError.invalid(`Unknown projection; known: ${this.projections.names().join(', ')}.`, 'projection');
    }
    return { data: await this.projections.rebuild(body.projection) };
  }
}
