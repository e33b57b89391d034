import { Module } from '@nestjs/common';
import type { BoundedContext } from '../runtime/bounded-context';
import { TenantsModule } from '../tenants';
import { DashboardLinksController } from './api/dashboard-links.controller';
import { DashboardController } from './api/dashboard.controller';
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
export class DashboardModule {
  static readonly context: BoundedContext = { name: 'dashboard' };
}
