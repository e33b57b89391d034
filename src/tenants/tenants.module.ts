import { Module, OnModuleInit } from '@nestjs/common';
import type { BoundedContext } from '../runtime/bounded-context';
import { tenantsMigrations } from './tenants.migrations';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ProjectionsService } from '../runtime/processing/processors.service';
import { ChangeTenantHandler, CreateTenantHandler, IssueApiKeyHandler } from './application/tenant.commands';
import { AdminController } from './api/admin.controller';
import { ApiKeyGuard } from './api/auth.guards';
import { TenantsQueries } from './application/tenants.queries';
import { GetTenantHandler, TenantLookups } from './application/tenant-lookups';
import { DashboardSignIn } from './application/dashboard-sign-in';
import { ApiKeyEntity, TenantEntity } from './projections/tenant.entity';
import { tenantsProjection } from './projections/tenants.projection';
import { tenantEdge } from './domain/tenant.decider';

@Module({
  imports: [TypeOrmModule.forFeature([TenantEntity, ApiKeyEntity])],
  controllers: [AdminController],
  providers: [
    CreateTenantHandler,
    IssueApiKeyHandler,
    ChangeTenantHandler,
    GetTenantHandler,
    TenantsQueries,
    TenantLookups,
    DashboardSignIn,
    ApiKeyGuard,
  ],
  exports: [TenantsQueries, TenantLookups, DashboardSignIn, ApiKeyGuard],
})
export class TenantsModule implements OnModuleInit {
  static readonly context: BoundedContext = { name: 'tenants', migrations: tenantsMigrations, edge: tenantEdge };

  constructor(private readonly projections: ProjectionsService) {}

  onModuleInit(): void {
    this.projections.registerProjection(tenantsProjection);
  }
}
