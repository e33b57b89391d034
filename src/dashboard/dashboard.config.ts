import { defineSettings } from '../config/config-section';

/** Limits of sign-in by e-mail, counted per instance (decision 64). */
export interface DashboardSettings {
  /** Sign-in e-mails one client address may ask for per minute, then 429 (DASHBOARD_LOGIN_LIMIT_PER_IP); 0: no limit. */
  loginLimitPerIp: number;
  /** Sign-in e-mails sent to one address per 15 minutes at one client's request (DASHBOARD_LOGIN_LIMIT_PER_EMAIL); 0: no limit. */
  loginLimitPerEmail: number;
  /** Sign-in e-mails sent to one address per 15 minutes whoever asks (DASHBOARD_LOGIN_LIMIT_PER_EMAIL_TOTAL); 0: no limit. */
  loginLimitPerEmailTotal: number;
  /** Sign-in e-mails waiting to be made and sent, per instance (DASHBOARD_LOGIN_QUEUE); more are dropped. */
  loginQueue: number;
}

/** The dashboard context's settings (docs/configuration.md, "Dashboard sign-in by e-mail"). */
export const dashboardSettings = defineSettings<DashboardSettings>({
  title: 'Dashboard sign-in by e-mail',
  intro:
    'Limits of the unauthenticated `POST /dashboard/login` ([dashboard.md](dashboard.md#limits-on-sign-in-by-e-mail), decision 64), counted per instance:',
  variables: [
    {
      variable: 'DASHBOARD_LOGIN_LIMIT_PER_IP',
      default: '`10`',
      meaning:
        "Valid requests one client address (an IPv6 one by its /64) may send per minute; beyond, `429` with `Retry-After`. `0`: no limit. Behind a reverse proxy every client has the proxy's address.",
    },
    {
      variable: 'DASHBOARD_LOGIN_LIMIT_PER_EMAIL',
      default: '`3`',
      meaning:
        "Links sent to one e-mail address per 15 minutes at one client's requests (an IPv6 client by its /64); beyond, the same `202` and nothing is sent. `0`: no limit.",
    },
    {
      variable: 'DASHBOARD_LOGIN_LIMIT_PER_EMAIL_TOTAL',
      default: '`10`',
      meaning:
        'Links sent to one e-mail address per 15 minutes, whoever asks; beyond, the same `202` and nothing is sent. `0`: no limit.',
    },
    {
      variable: 'DASHBOARD_LOGIN_QUEUE',
      default: '`50`',
      meaning:
        'Links of addresses a tenant has waiting to be made and mailed (2 at a time, one per address); beyond, they are dropped and the log counts them. 0–100000.',
    },
  ],
  parse: ({ int }) => ({
    loginLimitPerIp: int('DASHBOARD_LOGIN_LIMIT_PER_IP', 10, 0, 1_000_000),
    loginLimitPerEmail: int('DASHBOARD_LOGIN_LIMIT_PER_EMAIL', 3, 0, 1_000_000),
    loginLimitPerEmailTotal: int('DASHBOARD_LOGIN_LIMIT_PER_EMAIL_TOTAL', 10, 0, 1_000_000),
    loginQueue: int('DASHBOARD_LOGIN_QUEUE', 50, 0, 100_000),
  }),
});
