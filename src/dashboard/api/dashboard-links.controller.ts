import { Controller, HttpCode, Inject, Param, Post, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { ApiError } from '../../kernel/http/api-error';
import { AdminGuard, DashboardSignIn } from '../../tenants';
import { signInUrl } from './dashboard-urls';

/** The operator mints a one-time sign-in link for a tenant (CONTRACT.md, "Dashboard"). */
@ApiTags('operator')
@ApiBearerAuth()
@UseGuards(AdminGuard)
@Controller('admin/v1/tenants')
export class DashboardLinksController {
  constructor(
    private readonly signIn: DashboardSignIn,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post(':tenantId/dashboard_links')
  @HttpCode(201)
  async create(@Param('tenantId') tenantId: string) {
    const link = await this.signIn.createLink(tenantId);
    if (!link) throw ApiError.notFound('tenant', 'tenant_id');
    return { url: signInUrl(this.config.baseUrl, link.token), expires_at: link.expiresAt.toISOString() };
  }
}
