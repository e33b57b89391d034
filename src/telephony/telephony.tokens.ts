/** The platform's SIP user agent, or null when telephony is not configured (the default). */
export const SIP_USER_AGENT = Symbol('SIP_USER_AGENT');

/** The SIP and RTP source policies (telephony.module.ts `sourcePolicies`). */
export const SOURCE_POLICIES = Symbol('SOURCE_POLICIES');
