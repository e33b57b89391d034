import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ApiError } from './api-error';

/** The tenant a request is authenticated as: set by the tenants context's API-key guard. */
export interface AuthenticatedTenant {
  tenantId: string;
  plan: 'starter' | 'pro';
  status: 'active' | 'suspended';
  email: string | null;
}

export type TenantRequest = FastifyRequest & {
  tenant?: AuthenticatedTenant;
  /**
   * Who the request is authenticated as, set by the guard that authenticated it: the tenant's id, or
   * `admin` for the operator. Idempotency keys are scoped by it and claimed only once it is set.
   */
  principal?: string;
};

export function requireTenant(request: TenantRequest): AuthenticatedTenant {
  if (!request.tenant) throw ApiError.unauthenticated();
  return request.tenant;
}

/** The bearer credential of `Authorization: Bearer <credential>`, or null. */
export function bearer(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}

export const CurrentTenant = createParamDecorator((_: unknown, ctx: ExecutionContext): AuthenticatedTenant =>
  requireTenant(ctx.switchToHttp().getRequest<TenantRequest>()),
);
