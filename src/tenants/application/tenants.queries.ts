import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
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

  /** The tenant's notice address; null when it has none or is unknown. */
  async email(tenantId: string): Promise<string | null> {
    const row = await this.tenants.findOne({ select: { tenantId: true, email: true }, where: { tenantId } });
    return row?.email ?? null;
  }
}
