import { Controller, Delete, HttpCode, Inject, Param, Post, UseGuards } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiDoc, OperatorApi, shape } from '../../kernel/http/api-docs';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { ApiError } from '../../kernel/http/api-error';
import { AdminGuard } from '../../infra/http/admin.guard';
import { DashboardSignIn, GetTenant } from '../../tenants';
import { signInUrl } from './dashboard-urls';

/** The operator mints a one-time sign-in link for a tenant, or ends its sessions (docs/dashboard.md). */
@OperatorApi('operator')
@UseGuards(AdminGuard)
@Controller('admin/v1/tenants')
export class DashboardLinksController {
  constructor(
    private readonly signIn: DashboardSignIn,
    private readonly queries: QueryBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post(':tenantId/dashboard_links')
  @ApiDoc({
    id: 'createDashboardLink',
    summary: 'Create a dashboard sign-in link',
    description: 'A one-time link that signs the tenant in to the dashboard; it expires soon and works once.',
    status: 201,
    body: shape('DashboardLink', {
      url: { type: 'string', description: 'The one-time sign-in link.' },
      expires_at: { type: 'string', format: 'date-time' },
    }),
    returns: 'The link.',
    example: { url: 'http://localhost:3000/dashboard/sign-in#token=…', expires_at: '2026-11-21T10:15:00.000Z' },
    errors: [404, 409],
  })
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
  @ApiDoc({
    id: 'endDashboardSessions',
    summary: 'End a tenant’s dashboard sessions',
    description: 'Ends every dashboard session of the tenant at once, on every instance.',
    body: shape('DashboardSessionsEnded', {
      tenant_id: { type: 'string' },
      ended: { type: 'integer', minimum: 0, description: 'How many sessions were live.' },
    }),
    returns: 'How many sessions ended.',
    example: { tenant_id: 'ten_01jf8w2c4v6b8n0m2q4w', ended: 1 },
    errors: [404],
  })
  @HttpCode(200)
  async endSessions(@Param('tenantId') tenantId: string) {
    if (!(await this.queries.execute(new GetTenant(tenantId)))) throw ApiError.notFound('tenant', 'tenant_id');
    return { tenant_id: tenantId, ended: await this.signIn.endAll(tenantId) };
  }
}
