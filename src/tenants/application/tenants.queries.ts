import { Injectable } from '@nestjs/common';
import { Query } from '@nestjs/cqrs';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import type { AuthenticatedTenant } from '../../kernel/http/current-tenant';
import { ApiKeyEntity, TenantEntity } from '../projections/tenant.entity';

/** Reads of the tenants context's read models (uncached; the API-key guard goes through `TenantLookups`). */
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
 * (a suspended tenant places no call, whoever asks). Answered from `TenantLookups`: seconds old at
 * most, and invalidated by the tenant's events (`GetTenantHandler`, tenant-lookups.ts).
 */
export class GetTenant extends Query<AuthenticatedTenant | null> {
  constructor(readonly tenantId: string) {
    super();
  }
}
