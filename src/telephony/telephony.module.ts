import {
  Global,
  Inject,
  Logger,
  Module,
  OnApplicationBootstrap,
  OnApplicationShutdown,
  OnModuleInit,
} from '@nestjs/common';
import { APP_CONFIG, AppConfig, settingsOf } from '../config/config';
import type { BoundedContext } from '../runtime/bounded-context';
import { WorkerLifecycle } from '../runtime/workers/lifecycle';
import { CallDialer } from '../sessions';
import { AlwaysGrantedBudget, CARRIER_BUDGET } from './application/carrier-budget-port';
import { PhoneCalls } from './application/phone-calls';
import { SipCallDialer } from './application/sip-call-dialer';
import { SipUserAgent } from './sip/sip-user-agent';
import { telephonySettings } from './telephony.config';
import { SIP_USER_AGENT } from './telephony.tokens';

export { SIP_USER_AGENT } from './telephony.tokens';

/** Whether this configuration wants the SIP user agent: a trunk to call out through, or SIP_LISTEN set. */
export function telephonyWanted(config: AppConfig): boolean {
  return config.sipTrunkUri !== null || settingsOf(config, telephonySettings).listenSet;
}

/**
 * Real telephony over SIP trunks (docs/telephony.md): the SIP user agent and its RTP media, the
 * phone calls of sessions (outbound production calls, inbound calls to verified numbers). Inert
 * unless SIP_TRUNK_URI or SIP_LISTEN is set: then the agent starts listening at bootstrap and ends
 * its calls at shutdown. Global for one export only: sessions' `CallDialer` port, which sessions
 * injects without importing telephony (telephony reports calls through sessions' commands).
 */
@Global()
@Module({
  providers: [
    {
      provide: SIP_USER_AGENT,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig): SipUserAgent | null => {
        if (!telephonyWanted(config)) return null;
        const settings = settingsOf(config, telephonySettings);
        const logger = new Logger('SipUserAgent');
        return new SipUserAgent({
          listenHost: settings.listenHost,
          listenPort: settings.listenPort,
          ...(settings.publicHost ? { publicHost: settings.publicHost } : {}),
          rtpPorts: settings.rtpPorts,
          onError: (error) => logger.warn(error.message),
        });
      },
    },
    // MERGE: carrier budget — the stand-in (always granted) until the shared budget lands.
    { provide: CARRIER_BUDGET, useClass: AlwaysGrantedBudget },
    PhoneCalls,
    SipCallDialer,
    { provide: CallDialer, useExisting: SipCallDialer },
  ],
  exports: [SIP_USER_AGENT, CallDialer],
})
export class TelephonyModule implements OnModuleInit, OnApplicationBootstrap, OnApplicationShutdown {
  static readonly context: BoundedContext = { name: 'telephony', settings: telephonySettings };

  constructor(
    @Inject(SIP_USER_AGENT) private readonly userAgent: SipUserAgent | null,
    private readonly calls: PhoneCalls,
    private readonly lifecycle: WorkerLifecycle,
  ) {}

  onModuleInit(): void {
    // Its calls end (and are reported) with the workers, before the database pool closes.
    this.lifecycle.register(this.calls);
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.userAgent?.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.userAgent?.stop();
  }
}
