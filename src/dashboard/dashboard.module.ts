import { Module, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { toErrorResponse } from '../kernel/http/api-error';
import type { BoundedContext } from '../runtime/bounded-context';
import { dashboardSettings } from './dashboard.config';
import { TenantsModule } from '../tenants';
import { DashboardLinksController } from './api/dashboard-links.controller';
import { DashboardController, tooManySignIns } from './api/dashboard.controller';
import { SignInMailer } from './infra/sign-in-mailer';
import { SignInRequests } from './infra/sign-in-requests';

/**
 * The tenant's web console (docs/dashboard.md). It has no tables and no events: sign-in belongs to
 * the tenants context (DashboardSignIn), and every page reads and acts through the /v1 API.
 */
@Module({
  imports: [TenantsModule],
  controllers: [DashboardLinksController, DashboardController],
  providers: [SignInMailer, SignInRequests],
})
export class DashboardModule implements OnModuleInit {
  static readonly context: BoundedContext = { name: 'dashboard', settings: dashboardSettings };

  constructor(
    private readonly http: HttpAdapterHost,
    private readonly requests: SignInRequests,
  ) {}

  /**
   * A client beyond its limit of sign-in e-mails is refused as its request arrives, before the body
   * is read or the request reaches the controller: a flood of them costs next to nothing (decision 64).
   */
  onModuleInit(): void {
    const fastify = this.http.httpAdapter?.getInstance<FastifyInstance>();
    fastify?.addHook('onRequest', async (request, reply) => {
      // The path without its query: `/dashboard/login?x` is the same route, and must be refused the same.
      if (request.method !== 'POST' || request.url.split('?', 1)[0] !== '/dashboard/login') return;
      const wait = this.requests.clientRefused(request.ip);
      if (wait === 0) return;
      const response = toErrorResponse(tooManySignIns(wait), String(request.id));
      return reply.status(response.status).headers(response.headers).send(response.body);
    });
  }
}
