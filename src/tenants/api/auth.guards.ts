import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { timingSafeEqual, createHash } from 'node:crypto';
import { bearer, type TenantRequest } from '../../kernel/http/current-tenant';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { ApiError } from '../../kernel/http/api-error';
import { apiKeyPrefix, hashApiKey, hashesEqual } from '../domain/api-key';
import { TenantsQueries } from '../application/tenants.queries';

/** `Authorization: Bearer <API key>` on every /v1 route; the tenant is attached to the request. */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(private readonly queries: TenantsQueries) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<TenantRequest>();
    const key = bearer(request);
    if (!key) throw ApiError.unauthenticated('Missing bearer credential: send Authorization: Bearer <API key>.');
    const prefix = apiKeyPrefix(key);
    const row = prefix ? await this.queries.apiKey(prefix) : null;
    if (!row || row.revokedAt !== null || !hashesEqual(row.keyHash, hashApiKey(key))) {
      throw ApiError.unauthenticated('Invalid API key.');
    }
    const tenant = await this.queries.tenant(row.tenantId);
    if (!tenant) throw ApiError.unauthenticated('Invalid API key.');
    request.tenant = { tenantId: tenant.tenantId, plan: tenant.plan, status: tenant.status, email: tenant.email };
    request.principal = tenant.tenantId;
    return true;
  }
}

/** `Authorization: Bearer $ADMIN_TOKEN` on /admin/v1 routes, compared in constant time. */
@Injectable()
export class AdminGuard implements CanActivate {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<TenantRequest>();
    const token = bearer(request);
    const expected = this.config.adminToken;
    if (!token || !expected) throw ApiError.unauthenticated('Missing admin bearer token.');
    const a = createHash('sha256').update(token).digest();
    const b = createHash('sha256').update(expected).digest();
    if (!timingSafeEqual(a, b)) throw ApiError.unauthenticated('Invalid admin token.');
    request.principal = 'admin';
    return true;
  }
}
