import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { bearer, type TenantRequest } from '../../kernel/http/current-tenant';
import { ApiError } from '../../kernel/http/api-error';
import { apiKeyPrefix, hashApiKey, hashesEqual } from '../domain/api-key';
import { TenantLookups } from '../application/tenant-lookups';
import { DashboardSignIn } from '../application/dashboard-sign-in';
import { csrfMatches } from '../domain/dashboard-credentials';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * `Authorization: Bearer <API key>` on every /v1 route; the tenant is attached to the request. The key
 * and the tenant come from `TenantLookups`, cached for seconds and invalidated by the tenant's events.
 *
 * Without an Authorization header, the dashboard's session cookie is the credential instead, so the
 * dashboard goes through the very same routes and command handlers as the API. A state change made
 * with the cookie must carry the session's CSRF token in `X-CSRF-Token` (decision 46).
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly lookups: TenantLookups,
    private readonly signIn: DashboardSignIn,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<TenantRequest>();
    const key = bearer(request);
    if (!key && request.headers.authorization === undefined) {
      const session = (request as { cookies?: Record<string, string | undefined> }).cookies?.[this.signIn.cookieName];
      if (session !== undefined) return this.bySession(request, session);
    }
    if (!key) throw ApiError.unauthenticated('Missing bearer credential: send Authorization: Bearer <API key>.');
    const prefix = apiKeyPrefix(key);
    const found = prefix ? await this.lookups.apiKey(prefix) : null;
    if (!found || found.revoked || !hashesEqual(found.keyHash, hashApiKey(key))) {
      throw ApiError.unauthenticated('Invalid API key.');
    }
    const tenant = await this.lookups.tenant(found.tenantId);
    if (!tenant) throw ApiError.unauthenticated('Invalid API key.');
    request.tenant = { ...tenant };
    request.principal = tenant.tenantId;
    return true;
  }

  private async bySession(request: TenantRequest, session: string): Promise<boolean> {
    const tenantId = await this.signIn.sessionTenant(session);
    const tenant = tenantId ? await this.lookups.tenant(tenantId) : null;
    // A suspension ends the tenant's sessions (decision 64); until that is applied, its status refuses them.
    if (!tenant || tenant.status === 'suspended')
      throw ApiError.unauthenticated('Your dashboard session has ended; sign in again.');
    if (!SAFE_METHODS.has(request.method) && !csrfMatches(session, request.headers['x-csrf-token'])) {
      throw new ApiError(403, 'forbidden', 'Missing or invalid CSRF token: send the X-CSRF-Token header of the page.');
    }
    request.tenant = { ...tenant };
    request.principal = tenant.tenantId;
    return true;
  }
}
