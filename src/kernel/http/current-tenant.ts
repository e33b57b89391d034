import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { requireTenant, type AuthenticatedTenant, type TenantRequest } from '../../tenants/api/auth.guards';

export const CurrentTenant = createParamDecorator((_: unknown, ctx: ExecutionContext): AuthenticatedTenant =>
  requireTenant(ctx.switchToHttp().getRequest<TenantRequest>()),
);
