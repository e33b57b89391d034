import { Inject, Logger, Module, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, AppConfig, settingsOf } from '../config/config';
import type { BoundedContext } from '../runtime/bounded-context';
import { SipUserAgent } from './sip/sip-user-agent';
import { telephonySettings } from './telephony.config';

/** The platform's SIP user agent, or null when telephony is not configured (the default). */
export const SIP_USER_AGENT = Symbol('SIP_USER_AGENT');

/** Whether this configuration wants the SIP user agent: a trunk to call out through, or SIP_LISTEN set. */
export function telephonyWanted(config: AppConfig): boolean {
  return config.sipTrunkUri !== null || settingsOf(config, telephonySettings).listenSet;
}

/**
 * Real telephony over SIP trunks (docs/telephony.md): the SIP user agent and its RTP media. Inert
 * unless SIP_TRUNK_URI or SIP_LISTEN is set: then the agent starts listening at bootstrap and ends
 * its calls at shutdown. Placing calls for sessions, carrier limits and the media process are wired
 * by their owners through `SIP_USER_AGENT`.
 */
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
  ],
  exports: [SIP_USER_AGENT],
})
export class TelephonyModule implements OnApplicationBootstrap, OnApplicationShutdown {
  static readonly context: BoundedContext = { name: 'telephony', settings: telephonySettings };

  constructor(@Inject(SIP_USER_AGENT) private readonly userAgent: SipUserAgent | null) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.userAgent?.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.userAgent?.stop();
  }
}
