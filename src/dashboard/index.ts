/** The dashboard context's public face: it offers pages, not commands, so only its module. */
export { DashboardModule } from './dashboard.module';
