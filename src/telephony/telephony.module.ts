import {
  Global,
  Inject,
  Logger,
  Module,
  OnApplicationBootstrap,
  OnApplicationShutdown,
  OnModuleInit,
} from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Pool } from 'pg';
import { APP_CONFIG, AppConfig, settingsOf } from '../config/config';
import { PG_POOL } from '../infra/database/database.tokens';
import type { BoundedContext } from '../runtime/bounded-context';
import { WorkerLifecycle } from '../runtime/workers/lifecycle';
import { CallDialer } from '../sessions';
import { CARRIER_BUDGET } from './domain/carrier-budget.port';
import { PhoneCalls } from './application/phone-calls';
import { SipCallDialer } from './application/sip-call-dialer';
import { TelephonyMetrics } from './infra/telephony-metrics';
import { CarrierBudget } from './infra/carrier-budget';
import { endLostCall } from './application/lost-calls';
import { MediaWatchdog } from './application/media-watchdog';
import { type PhoneMedia, RtpCallMedia } from './infra/rtp/rtp-call-media';
import { AllowedSources } from './infra/sip/allowed-sources';
import { parseSipUri } from './infra/sip/sip-message';
import { SipUserAgent } from './infra/sip/sip-user-agent';
import { telephonySettings } from './telephony.config';
import { telephonyMigrations } from './telephony.migrations';
import { SIP_USER_AGENT, SOURCE_POLICIES } from './telephony.tokens';

export { SIP_USER_AGENT } from './telephony.tokens';

/** Who may send SIP and who RTP (docs/telephony.md, "Who may talk"). */
export interface SourcePolicies {
  sip: AllowedSources;
  rtp: AllowedSources;
}

/**
 * SIP_ALLOWED_SOURCES, or the trunk host's addresses (looked up again every 5 minutes once started);
 * RTP_ALLOWED_SOURCES, or the same as SIP. The configuration refuses SIP_LISTEN with neither a list
 * nor a trunk, so an empty policy only remains for a trunk whose host has not resolved yet.
 */
export function sourcePolicies(config: AppConfig, logger: Logger): SourcePolicies {
  const settings = settingsOf(config, telephonySettings);
  const trunkHost = config.sipTrunkUri ? parseSipUri(config.sipTrunkUri).host : null;
  const onLookupError = (error: Error) =>
    logger.warn(`looking up the trunk host for SIP_ALLOWED_SOURCES failed: ${error.message.slice(0, 200)}`);
  const sip = settings.sipAllowedSources
    ? AllowedSources.parse(settings.sipAllowedSources)
    : AllowedSources.ofHost(trunkHost ?? '', onLookupError);
  const rtp = settings.rtpAllowedSources ? AllowedSources.parse(settings.rtpAllowedSources) : sip;
  return { sip, rtp };
}

/**
 * Whether this process runs the SIP user agent: a trunk to call out through or SIP_LISTEN set, and
 * SIP_MEDIA_PROCESS not `external` (an API instance next to media processes, docs/telephony.md).
 */
export function telephonyWanted(config: AppConfig): boolean {
  const settings = settingsOf(config, telephonySettings);
  if (settings.mediaProcess === 'external') return false;
  return config.sipTrunkUri !== null || settings.listenSet;
}

/** Whether this process sweeps for calls of dead media processes: any that places calls or stands next to those that do. */
export function watchdogWanted(config: AppConfig): boolean {
  return telephonyWanted(config) || settingsOf(config, telephonySettings).mediaProcess === 'external';
}

/**
 * Real telephony over SIP trunks (docs/telephony.md): the SIP user agent and its RTP media, the
 * phone calls of sessions (outbound production calls within the carrier budget, inbound calls to
 * verified numbers), the budget's lease and the watchdog of dead media processes. Inert unless
 * SIP_TRUNK_URI or SIP_LISTEN is set. Global for one export only: sessions' `CallDialer` port, which
 * sessions injects without importing telephony (telephony reports calls through sessions' commands).
 */
@Global()
@Module({
  providers: [
    {
      provide: SIP_USER_AGENT,
      inject: [APP_CONFIG, SOURCE_POLICIES],
      useFactory: (config: AppConfig, sources: SourcePolicies): SipUserAgent<PhoneMedia> | null => {
        if (!telephonyWanted(config)) return null;
        const settings = settingsOf(config, telephonySettings);
        const logger = new Logger('SipUserAgent');
        return new SipUserAgent<PhoneMedia>({
          listenHost: settings.listenHost,
          listenPort: settings.listenPort,
          ...(settings.publicHost ? { publicHost: settings.publicHost } : {}),
          // The calls' media: RTP on RTP_PORTS, bound on the listen host, from RTP_ALLOWED_SOURCES only.
          media: new RtpCallMedia({
            host: settings.listenHost,
            ports: settings.rtpPorts,
            sources: sources.rtp,
          }),
          sipAllows: (address) => sources.sip.allows(address),
          // Anything received is quoted at most 200 characters (sip-message.ts `excerpt`).
          onError: (error) => logger.warn(error.message.slice(0, 300)),
        });
      },
    },
    {
      provide: SOURCE_POLICIES,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig): SourcePolicies => sourcePolicies(config, new Logger('SipUserAgent')),
    },
    {
      provide: CarrierBudget,
      inject: [PG_POOL, APP_CONFIG],
      useFactory: (pool: Pool, config: AppConfig): CarrierBudget => {
        const settings = settingsOf(config, telephonySettings);
        return new CarrierBudget(pool, {
          cps: settings.cps,
          maxCalls: settings.maxCalls,
          tenantMaxCalls: settings.tenantMaxCalls,
          leaseMs: settings.mediaLeaseMs,
        });
      },
    },
    {
      provide: MediaWatchdog,
      inject: [PG_POOL, APP_CONFIG, CommandBus],
      useFactory: (pool: Pool, config: AppConfig, commands: CommandBus): MediaWatchdog => {
        const logger = new Logger('MediaWatchdog');
        return new MediaWatchdog(pool, {
          leaseMs: settingsOf(config, telephonySettings).mediaLeaseMs,
          onLost: (call) => endLostCall(commands, call, logger),
          onError: (error) => logger.warn(`sweep failed: ${error instanceof Error ? error.message : String(error)}`),
        });
      },
    },
    { provide: CARRIER_BUDGET, useExisting: CarrierBudget },
    PhoneCalls,
    TelephonyMetrics,
    SipCallDialer,
    // Only where this process holds the calls' RTP: an API instance next to media processes
    // (SIP_MEDIA_PROCESS=external) has no dialer, so it never claims a SIP dispatch (decision 140).
    {
      provide: CallDialer,
      inject: [APP_CONFIG, SipCallDialer],
      useFactory: (config: AppConfig, dialer: SipCallDialer): CallDialer | null =>
        telephonyWanted(config) ? dialer : null,
    },
  ],
  exports: [SIP_USER_AGENT, CallDialer],
})
export class TelephonyModule implements OnModuleInit, OnApplicationBootstrap, OnApplicationShutdown {
  static readonly context: BoundedContext = {
    name: 'telephony',
    settings: telephonySettings,
    migrations: telephonyMigrations,
  };

  constructor(
    @Inject(SIP_USER_AGENT) private readonly userAgent: SipUserAgent<PhoneMedia> | null,
    @Inject(SOURCE_POLICIES) private readonly sources: SourcePolicies,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly budget: CarrierBudget,
    private readonly watchdog: MediaWatchdog,
    private readonly calls: PhoneCalls,
    private readonly lifecycle: WorkerLifecycle,
  ) {}

  /** The budget's lease where calls are placed; the watchdog wherever calls are placed or media processes run. */
  onModuleInit(): void {
    if (telephonyWanted(this.config)) this.lifecycle.register(this.budget);
    if (watchdogWanted(this.config)) this.lifecycle.register(this.watchdog);
    // Its calls end (and are reported) with the workers, before the database pool closes.
    this.lifecycle.register(this.calls);
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.userAgent) return;
    await this.sources.sip.start(); // the trunk's addresses, before the first datagram is read
    await this.userAgent.start();
  }

  async onApplicationShutdown(): Promise<void> {
    this.sources.sip.stop();
    await this.userAgent?.stop();
  }
}
