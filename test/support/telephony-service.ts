/**
 * The service (node dist/main.js) with SIP on loopback, for the telephony e2e specs: a trunk address
 * for the spec's peer (SIPp or baresip) to listen on, the service's own SIP address for callers, 100
 * RTP ports, and a funded tenant owning `owns` (its production calls come from a number it owns).
 */
import { baresipMediaSources } from './baresip';
import { type CallsService, startCallsService } from './calls-harness';
import { createFundedTenant } from './funded-tenant';
import { freeUdpPort } from './sipp';
import type { TenantInfo } from './webhooks-harness';

export interface TelephonyService {
  h: CallsService;
  tenant: TenantInfo;
  /** Where the service sends its calls (SIP_TRUNK_URI): the spec's callee listens here. */
  trunkPort: number;
  /** Where the service takes calls (SIP_LISTEN): the spec's caller sends here. */
  listenPort: number;
}

export async function startTelephonyService(
  tenantName: string,
  owns: readonly string[],
  options: { baresip?: boolean; env?: Record<string, string> } = {},
): Promise<TelephonyService> {
  const trunkPort = await freeUdpPort();
  const listenPort = await freeUdpPort();
  const rtp = await freeUdpPort(true);
  const h = await startCallsService({
    SIP_TRUNK_URI: `sip:127.0.0.1:${trunkPort}`,
    SIP_LISTEN: `127.0.0.1:${listenPort}`,
    RTP_PORTS: `${rtp}-${rtp + 99}`,
    // baresip names this machine's external address in its SDP (baresip.ts).
    ...(options.baresip ? { RTP_ALLOWED_SOURCES: baresipMediaSources() } : {}),
    PAYMENT_PROCESSOR: 'test',
    TOPUP_SETTLE_DELAY: '100ms',
    ...options.env,
  });
  const tenant = await createFundedTenant(h, tenantName, undefined, owns);
  return { h, tenant, trunkPort, listenPort };
}
