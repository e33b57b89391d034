import { Controller, Delete, HttpCode, Inject, Param, Post, UseGuards } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { ApiError } from '../../kernel/http/api-error';
import { AdminGuard } from '../../infra/http/admin.guard';
import { DashboardSignIn, GetTenant } from '../../tenants';
import { signInUrl } from './dashboard-urls';

/** The operator mints a one-time sign-in link for a tenant, or ends its sessions (docs/dashboard.md). */
@ApiTags('operator')
@ApiBearerAuth()
@UseGuards(AdminGuard)
@Controller('admin/v1/tenants')
export class DashboardLinksController {
  constructor(
    private readonly signIn: DashboardSignIn,
    private readonly queries: QueryBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post(':tenantId/dashboard_links')
  @HttpCode(201)
  async create(@Param('tenantId') tenantId: string) {
    const link = await this.signIn.createLink(tenantId);
    if (!link) throw ApiError.notFound('tenant', 'tenant_id');
    if (link === 'suspended')
      throw new ApiError(409, 'conflict', 'The tenant is suspended: it cannot sign in to the dashboard.', 'tenant_id');
    return { url: signInUrl(this.config.baseUrl, link.token), expires_at: link.expiresAt.toISOString() };
  }

  /** Ends every dashboard session of the tenant at once, on every instance; answers how many were live. */
  @Delete(':tenantId/dashboard_sessions')
  @HttpCode(200)
  async endSessions(@Param('tenantId') tenantId: string) {
    if (!(await this.queries.execute(new GetTenant(tenantId)))) throw ApiError.notFound('tenant', 'tenant_id');
    return { tenant_id: tenantId, ended: await this.signIn.endAll(tenantId) };
  }
}
