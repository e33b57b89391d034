import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { createHash, timingSafeEqual } from 'node:crypto';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { ApiError } from '../../kernel/http/api-error';
import { bearer, type TenantRequest } from '../../kernel/http/current-tenant';

/**
 * `Authorization: Bearer $ADMIN_TOKEN` on /admin/v1 routes and /metrics, compared in constant time.
 * It is the platform's (the operator is no tenant): the platform's routes (src/platform/) and any
 * context's operator routes use it, and it needs nothing but the configuration.
 */
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
