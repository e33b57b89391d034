import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import type { AuthenticatedTenant } from '../../kernel/http/current-tenant';
import { TenantEntity } from '../projections/tenant.entity';

/** A tenant's plan, status and contact, for rules every entry point applies (a suspended tenant places no call). */
export class GetTenant extends Query<AuthenticatedTenant | null> {
  constructor(readonly tenantId: string) {
    super();
  }
}

@QueryHandler(GetTenant)
export class GetTenantHandler implements IQueryHandler<GetTenant> {
  constructor(@InjectRepository(TenantEntity) private readonly tenants: Repository<TenantEntity>) {}

  async execute({ tenantId }: GetTenant): Promise<AuthenticatedTenant | null> {
    const row = await this.tenants.findOneBy({ tenantId });
    return row ? { tenantId: row.tenantId, plan: row.plan, status: row.status, email: row.email } : null;
  }
}
