/** The telephony context's public face: the SIP user agent and the RTP media of a call. */
export { SipUserAgent } from './sip/sip-user-agent';
export type { SipUserAgentOptions, IncomingInvite, InviteDecision, InviteHandler } from './sip/sip-user-agent';
export type { CallOptions, CallOutcome, OutboundCall } from './sip/outbound-call';
export { outcomeOfFailure } from './sip/outbound-call';
export type { SipCall, CallEnd, EndedBy, TransferResult, CallDirection } from './sip/sip-call';
export type { RtpMediaSession, MediaStats } from './media/rtp-media-session';
export { parsePortRange } from './media/rtp-ports';
export type { PortRange } from './media/rtp-ports';
export { TelephonyModule, SIP_USER_AGENT, telephonyWanted, MEDIA_LOST_SEQ } from './telephony.module';
export { CarrierBudget, type BudgetAnswer, type InboundAdmission } from './carrier-budget';
export { AllowedSources } from './sip/allowed-sources';
export { telephonySettings } from './telephony.config';
export type { TelephonySettings } from './telephony.config';
