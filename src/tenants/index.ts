/** The tenants context's public face: what other contexts may use. */
export { TenantsModule } from './tenants.module';
export { AdminGuard, ApiKeyGuard } from './api/auth.guards';
export { ChangeTenant, CreateTenant, IssueApiKey } from './application/tenant.commands';
export { GetTenant } from './application/tenants.queries';
