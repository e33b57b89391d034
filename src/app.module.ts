import { ConversationsModule } from './conversations';
import { DynamicModule, Module } from '@nestjs/common';
import { AuditModule } from './audit/audit.module';
import { CampaignsModule } from './campaigns/campaigns.module';
import { EventCatalog } from './catalog/event-catalog';
import { type AppConfig, loadConfig, settingsOf } from './config/config';
import type { ConfigSection } from './config/config-section';
import type { EventsOf, MergedPayloads } from './catalog/event-fragment';
import { CreditsModule } from './credits/credits.module';
import { DashboardModule } from './dashboard/dashboard.module';
import { DncModule } from './dnc/dnc.module';
import { HealthController } from './health/health.controller';
import type { TextBody } from './kernel/http/text-body';
import { NumbersModule } from './numbers/numbers.module';
import { PlatformModule } from './platform/platform.module';
import { RoomsModule } from './rooms/rooms.module';
import type { BoundedContext, ContextModule, Migration } from './runtime/bounded-context';
import { RuntimeModule, RuntimeOptions } from './runtime/runtime.module';
import { SessionsModule } from './sessions/sessions.module';
import { TelephonyModule, telephonyWanted } from './telephony';
import { TenantsModule } from './tenants/tenants.module';
import { VoicesModule } from './voices/voices.module';
import { webhooksSettings } from './webhooks';
import { WebhooksModule } from './webhooks/webhooks.module';

/**
 * The bounded contexts. Each is a folder under src/ whose module plugs itself in (migrations and
 * catalog fragment as `static context`, processors, timer kinds and workers registered with the
 * runtime at init). Adding a context is one line here.
 */
export const CONTEXTS = [
  TenantsModule,
  AuditModule,
  WebhooksModule,
  SessionsModule,
  DncModule,
  CampaignsModule,
  CreditsModule,
  VoicesModule,
  ConversationsModule,
  RoomsModule,
  NumbersModule,
  TelephonyModule,
  DashboardModule,
] as const satisfies readonly ContextModule[];

/** Every context's migrations (the platform's own are added by the migration runner). */
export function contextMigrations(): Migration[] {
  return CONTEXTS.flatMap((c: ContextModule) => c.context.migrations ?? []);
}

/** The request bodies other than JSON that the contexts' routes take as text (http-app.ts parses them). */
export function contextTextBodies(): TextBody[] {
  return CONTEXTS.flatMap((c: ContextModule) => c.context.textBodies ?? []);
}

/** Every context's settings section, in the order of CONTEXTS (docs/configuration.md shows them so). */
export function contextSettings(): ConfigSection<unknown>[] {
  return CONTEXTS.flatMap((c: ContextModule) => (c.context.settings ? [c.context.settings] : []));
}

/** The configuration of the whole service: the platform's settings and every context's section. */
export function loadAppConfig(env: Record<string, string | undefined> = process.env): AppConfig {
  return loadConfig(env, contextSettings());
}

/** WEBHOOK_ALLOW_PRIVATE_URLS, the webhooks context's: the start banner warns when it is on (decision 105). */
export function allowsPrivateWebhookUrls(config: AppConfig): boolean {
  return settingsOf(config, webhooksSettings).allowPrivateUrls;
}

/** Whether this configuration runs the SIP user agent (the telephony context's; the media process needs it). */
export function runsSipUserAgent(config: AppConfig): boolean {
  return telephonyWanted(config);
}

/**
 * The platform's event catalog: every context's fragment. In docs/events.md and the OpenAPI document
 * the groups come in this order, the catalog's published one (`function`, owned by sessions, after `number`);
 * a group not listed here (a new context's) follows them.
 */
export const eventCatalog = EventCatalog.from(
  CONTEXTS.flatMap((c: ContextModule) => c.context.events ?? []),
  { groupOrder: ['session', 'campaign', 'credits', 'voice_clone', 'room', 'number', 'function', 'webhook'] },
);

type PayloadsOfContext<M> = M extends { readonly context: BoundedContext<infer P> } ? P : never;

/** Payload type by catalog event type, derived from the contexts' fragments. */
export type CatalogPayloads = MergedPayloads<PayloadsOfContext<(typeof CONTEXTS)[number]>>;
export type CatalogEventType = keyof CatalogPayloads;
/** Typed data for producers: `{ type: 'session.created', data: SessionCreatedData } | …`. */
export type CatalogEvent = EventsOf<CatalogPayloads>;

/** The runtime options a caller gives; contexts and catalog come from this file. */
export type AppOptions = Omit<RuntimeOptions, 'contexts' | 'catalog'>;

@Module({})
export class AppModule {
  static forRoot(options: AppOptions): DynamicModule {
    return {
      module: AppModule,
      imports: [
        RuntimeModule.forRoot({
          ...options,
          contexts: CONTEXTS.map((c: ContextModule) => c.context),
          catalog: eventCatalog,
        }),
        PlatformModule,
        ...CONTEXTS,
      ],
      controllers: [HealthController],
    };
  }
}
