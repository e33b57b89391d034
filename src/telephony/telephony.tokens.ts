/** The platform's SIP user agent, or null when telephony is not configured (the default). */
export const SIP_USER_AGENT = Symbol('SIP_USER_AGENT');
