import { defineSettings } from '../config/config-section';
import { parseDuration } from '../kernel/duration';

export interface WebhooksSettings {
  /** Timeout of one delivery attempt (WEBHOOK_TIMEOUT_MS). */
  timeoutMs: number;
  /** Delays before retries 1..n (WEBHOOK_RETRY_SCHEDULE). */
  retryScheduleMs: number[];
  /** Consecutive permanently failed deliveries that suspend an endpoint (WEBHOOK_SUSPEND_AFTER). */
  suspendAfter: number;
  /** Attempts one instance keeps in flight to one endpoint at most; its other due deliveries wait unclaimed. */
  maxInFlightPerEndpoint: number;
  allowPrivateUrls: boolean;
  dnsTimeoutMs: number;
  /** How long ended deliveries and their attempts are kept. */
  retentionMs: number;
}

/** The webhooks context's settings (docs/configuration.md, "Webhooks"). */
export const webhooksSettings = defineSettings<WebhooksSettings>({
  title: 'Webhooks',
  intro:
    'Delivery concurrency: see [webhooks.md, "Fairness and leases"](webhooks.md#fairness-and-leases-in-one-place-srcwebhooksinfradelivery-claimsts). The key that seals signing secrets (`WEBHOOK_SECRET_KEY`) and the mail server of notices (`SMTP_URL`, `MAIL_FROM`) are the platform\'s, above.',
  variables: [
    {
      variable: 'WEBHOOK_TIMEOUT_MS',
      default: '`15000`',
      meaning:
        'Timeout of one delivery attempt (connect, headers and body), in milliseconds: an integer from 1 to 600000.',
    },
    {
      variable: 'WEBHOOK_RETRY_SCHEDULE',
      default: '`5s,30s,2m,10m,30m,1h,3h,6h,12h`',
      meaning:
        'Comma-separated durations: the delays before retries 1..n. The default gives 10 attempts in all, the last within 24 h.',
    },
    {
      variable: 'WEBHOOK_SUSPEND_AFTER',
      default: '`10`',
      meaning: 'Consecutive permanently failed deliveries that suspend an endpoint: an integer from 1 to 1000.',
    },
    {
      variable: 'WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT',
      default: '`32`',
      meaning:
        "Attempts one instance keeps in flight to one endpoint at most: an integer from 1 to 128 (the instance's limit for all endpoints together). An endpoint's other due deliveries wait, unclaimed, until one of its attempts ends, so a slow or backlogged endpoint never delays the others. With several instances, one endpoint may have up to this many in flight from each.",
    },
    {
      variable: 'WEBHOOK_ALLOW_PRIVATE_URLS',
      default: '`false`',
      meaning:
        '`true`/`1`/`yes` or `false`/`0`/`no` (any case). `true` allows `http://` and loopback or private addresses. Use it for development and tests only.',
    },
    {
      variable: 'WEBHOOK_DNS_TIMEOUT_MS',
      default: '`2000`',
      meaning:
        "Bound on resolving a webhook host, in milliseconds: an integer from 1 to 20000, so that an attempt (lookup, then `WEBHOOK_TIMEOUT_MS`) ends within its claim. Lookups run on c-ares, off libuv's threadpool, and are cached for their TTL. See [webhooks.md](webhooks.md#security).",
    },
    {
      variable: 'WEBHOOK_RETENTION',
      default: '`30d`',
      meaning:
        'Duration: deliveries that ended (succeeded or failed) longer ago are deleted with their attempts, hourly. Pending ones are kept.',
    },
  ],
  parse: ({ str, int, bool, duration, problem }) => {
    const scheduleText = str('WEBHOOK_RETRY_SCHEDULE') ?? '5s,30s,2m,10m,30m,1h,3h,6h,12h';
    const retryScheduleMs = scheduleText.split(',').map((part) => parseDuration(part));
    if (retryScheduleMs.some((d) => d === null) || retryScheduleMs.length === 0) {
      problem(`WEBHOOK_RETRY_SCHEDULE must be a comma-separated list of durations (got "${scheduleText}")`);
    }
    return {
      timeoutMs: int('WEBHOOK_TIMEOUT_MS', 15000, 1, 600000),
      retryScheduleMs: retryScheduleMs.map((d) => d ?? 0),
      suspendAfter: int('WEBHOOK_SUSPEND_AFTER', 10, 1, 1000),
      // At most the delivery worker's 128 attempts in flight per instance (src/webhooks/infra/delivery-limits.ts).
      maxInFlightPerEndpoint: int('WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT', 32, 1, 128),
      allowPrivateUrls: bool('WEBHOOK_ALLOW_PRIVATE_URLS'),
      // At most 20 s: an attempt (lookup, then WEBHOOK_TIMEOUT_MS) must end within its claim's 30 s slack.
      dnsTimeoutMs: int('WEBHOOK_DNS_TIMEOUT_MS', 2000, 1, 20000),
      retentionMs: duration('WEBHOOK_RETENTION', '30d'),
    };
  },
});
