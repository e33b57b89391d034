import { Injectable } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import type { AuthenticatedTenant } from '../../kernel/http/current-tenant';
import { ApiKeyEntity, TenantEntity } from '../projections/tenant.entity';

/** Reads of the tenants context's read models (the API-key guard's lookups). */
@Injectable()
export class TenantsQueries {
  constructor(
    @InjectRepository(ApiKeyEntity) private readonly keys: Repository<ApiKeyEntity>,
    @InjectRepository(TenantEntity) private readonly tenants: Repository<TenantEntity>,
  ) {}

  apiKey(keyPrefix: string): Promise<ApiKeyEntity | null> {
    return this.keys.findOneBy({ keyPrefix });
  }

  tenant(tenantId: string): Promise<TenantEntity | null> {
    return this.tenants.findOneBy({ tenantId });
  }
}

/**
 * A tenant's plan, status and contact, for other contexts and for rules every entry point applies
 * (a suspended tenant places no call, whoever asks).
 */
export class GetTenant extends Query<AuthenticatedTenant | null> {
  constructor(readonly tenantId: string) {
    super();
  }
}

@QueryHandler(GetTenant)
export class GetTenantHandler implements IQueryHandler<GetTenant> {
  constructor(private readonly queries: TenantsQueries) {}

  async execute({ tenantId }: GetTenant): Promise<AuthenticatedTenant | null> {
    const row = await this.queries.tenant(tenantId);
    return row ? { tenantId: row.tenantId, plan: row.plan, status: row.status, email: row.email } : null;
  }
}
