/** The telephony context's public face: the SIP user agent, its media port, and the RTP media of a call. */
export { SipUserAgent } from './infra/sip/sip-user-agent';
export type { CallMedia, CallMediaPort, MediaRefusal } from './infra/sip/call-media';
export { RtpCallMedia } from './infra/rtp/rtp-call-media';
export type { PhoneMedia, RtpCallMediaOptions } from './infra/rtp/rtp-call-media';
export type { SipUserAgentOptions, IncomingInvite, InviteDecision, InviteHandler } from './infra/sip/sip-user-agent';
export type { CallOptions, CallOutcome, OutboundCall } from './infra/sip/outbound-call';
export { outcomeOfFailure } from './domain/call-outcomes';
export type { SipCall, CallEnd, EndedBy, TransferResult, CallDirection } from './infra/sip/sip-call';
export type { RtpMediaSession, MediaStats } from './infra/rtp/rtp-media-session';
export { parsePortRange } from './infra/rtp/rtp-ports';
export type { PortRange } from './infra/rtp/rtp-ports';
export { TelephonyModule, SIP_USER_AGENT, telephonyWanted } from './telephony.module';
export { CarrierBudget, type BudgetAnswer, type InboundAdmission } from './infra/carrier-budget';
export { AllowedSources } from './infra/sip/allowed-sources';
export { telephonySettings } from './telephony.config';
export type { TelephonySettings } from './telephony.config';
