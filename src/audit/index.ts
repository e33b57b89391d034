/** The audit context's public face: what other contexts may use. */
export { AuditModule } from './audit.module';
export { AuditQueries } from './application/audit.queries';
