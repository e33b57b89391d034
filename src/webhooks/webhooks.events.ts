/** The webhooks context's part of the event catalog: webhook.*. */
import { defineEvents } from '../catalog/event-fragment';
import { integer, nullable, object, text, timestamp } from '../catalog/payload-schema';

export interface WebhookTestData {
  endpoint_id: string;
  emitted_at: string;
}

export interface WebhookEndpointDisabledNoticeData {
  endpoint_id: string;
  url: string;
  disabled_at: string;
  failure_streak: number;
  last_status: number | null;
}

const webhookTest = object<WebhookTestData>({
  endpoint_id: text(),
  emitted_at: timestamp(),
});

const webhookEndpointDisabledNotice = object<WebhookEndpointDisabledNoticeData>({
  endpoint_id: text(),
  url: text(),
  disabled_at: timestamp(),
  failure_streak: integer('Consecutive permanently failed deliveries.'),
  last_status: nullable(
    integer('HTTP status of the last failed delivery; null when it got no response (timeout or network error).', {
      minimum: 100,
      maximum: 599,
    }),
  ),
});

export type WebhookPayloads = {
  'webhook.test': WebhookTestData;
  'webhook.endpoint_disabled_notice': WebhookEndpointDisabledNoticeData;
};

// Example values shared with the other contexts' examples, so the documented events tell one consistent story.
const EX = {
  endpoint: 'we_01jf8w2c4v6b8n0m2q4w',
} as const;

export const webhookEvents = defineEvents<WebhookPayloads>({
  groups: { webhook: 'Webhook endpoint events' },
  events: {
    'webhook.test': {
      description: 'Synthetic event sent by POST /v1/webhook_endpoints/{id}/test to that endpoint only.',
      payload: webhookTest,
      example: { endpoint_id: EX.endpoint, emitted_at: '2026-03-02T16:58:00.250Z' },
    },
    'webhook.endpoint_disabled_notice': {
      description:
        'The endpoint was suspended automatically after repeated permanent delivery failures; an e-mail notice is sent too.',
      payload: webhookEndpointDisabledNotice,
      example: {
        endpoint_id: EX.endpoint,
        url: 'https://hooks.example.com/voice',
        disabled_at: '2026-03-03T11:20:07.981Z',
        failure_streak: 10,
        last_status: 503,
      },
    },
  },
});
