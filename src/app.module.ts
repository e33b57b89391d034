import { DynamicModule, Module } from '@nestjs/common';
import { AuditModule } from './audit/audit.module';
import { CoreModule, CoreOptions } from './runtime/runtime.module';
import { HealthController } from './health/health.controller';
import { TenantsModule } from './tenants/tenants.module';
import { WebhooksModule } from './webhooks/webhooks.module';
import { SessionsModule } from './sessions/sessions.module';
import { DncModule } from './dnc/dnc.module';

@Module({})
export class AppModule {
  static forRoot(options: CoreOptions): DynamicModule {
    return {
      module: AppModule,
      imports: [CoreModule.forRoot(options), TenantsModule, AuditModule, WebhooksModule, SessionsModule, DncModule],
      controllers: [HealthController],
    };
  }
}
