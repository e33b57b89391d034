/** The tenants context's public face: what other contexts may use. */
export { TenantsModule } from './tenants.module';
export { ApiKeyGuard } from './api/auth.guards';
export { ChangeTenant, CreateTenant, IssueApiKey } from './application/tenant.commands';
export { GetTenant } from './application/tenants.queries';
export { DashboardSignIn } from './application/dashboard-sign-in';
export { SIGN_IN_LINK_TTL_MS, csrfTokenOf, csrfMatches, safeDashboardPath } from './domain/dashboard-credentials';
