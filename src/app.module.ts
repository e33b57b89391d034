import { DynamicModule, Module } from '@nestjs/common';
import { AuditModule } from './audit/audit.module';
import { DncModule } from './dnc/dnc.module';
import { HealthController } from './health/health.controller';
import type { ContextModule, Migration } from './runtime/bounded-context';
import { RuntimeModule, RuntimeOptions } from './runtime/runtime.module';
import { SessionsModule } from './sessions/sessions.module';
import { TenantsModule } from './tenants/tenants.module';
import { WebhooksModule } from './webhooks/webhooks.module';

/**
 * The bounded contexts. Each is a folder under src/ whose module plugs itself in (migrations and
 * catalog fragment as `static context`, processors, timer kinds and workers registered with the
 * runtime at init). Adding a context is one line here.
 */
export const CONTEXTS: readonly ContextModule[] = [
  TenantsModule,
  AuditModule,
  WebhooksModule,
  SessionsModule,
  DncModule,
];

/** Every context's migrations (the platform's own are added by the migration runner). */
export function contextMigrations(): Migration[] {
  return CONTEXTS.flatMap((c) => c.context.migrations ?? []);
}

@Module({})
export class AppModule {
  static forRoot(options: Omit<RuntimeOptions, 'contexts'>): DynamicModule {
    return {
      module: AppModule,
      imports: [RuntimeModule.forRoot({ ...options, contexts: CONTEXTS.map((c) => c.context) }), ...CONTEXTS],
      controllers: [HealthController],
    };
  }
}
