/** The response schemas of the webhook endpoints API (named ones become `components.schemas`). */
import { listOf, shape } from '../../kernel/http/api-docs';

const str = (description?: string) => ({ type: 'string', ...(description ? { description } : {}) });
const nullableStr = (description?: string) => ({ type: ['string', 'null'], ...(description ? { description } : {}) });
const time = { type: 'string', format: 'date-time' };

const endpointProperties = {
  id: str('The endpoint id (`we_…`).'),
  url: str('Where deliveries are POSTed.'),
  events: { type: 'array', items: { type: 'string' }, description: 'Event types or patterns (`session.*`, `*`).' },
  description: nullableStr(),
  status: { type: 'string', enum: ['active', 'suspended'], description: 'Suspended after repeated failures or a 410.' },
  failure_streak: { type: 'integer', minimum: 0, description: 'Consecutive failed deliveries.' },
  created_at: time,
};

export const WEBHOOK_ENDPOINT = shape('WebhookEndpoint', endpointProperties);
export const WEBHOOK_ENDPOINT_WITH_SECRET = shape(
  'WebhookEndpointWithSecret',
  { ...endpointProperties, secret: str('The signing secret (`whsec_…`), shown this once.') },
  'The new endpoint and its signing secret, shown this once.',
);
export const WEBHOOK_ENDPOINT_LIST = listOf('WebhookEndpointList', WEBHOOK_ENDPOINT);
export const ROTATED_SECRET = shape('RotatedSecret', {
  id: str(),
  secret: str('The new signing secret (`whsec_…`), shown this once; the old one is no longer used.'),
});
export const TEST_EVENT = shape('TestEventSent', { event_id: str('The id of the `webhook.test` event queued.') });

const attempt = shape('DeliveryAttempt', {
  at: time,
  http_status: { type: ['integer', 'null'], description: 'The receiver’s status; null when none came back.' },
  error: nullableStr('Why the attempt failed (timeout, connection refused…); null on success.'),
  duration_ms: { type: 'integer', minimum: 0 },
});
export const DELIVERY = shape('Delivery', {
  delivery_id: str(),
  event_id: str(),
  event_type: str(),
  status: { type: 'string', enum: ['pending', 'succeeded', 'failed'] },
  attempts: { type: 'array', items: attempt },
  next_attempt_at: {
    type: ['string', 'null'],
    format: 'date-time',
    description: 'When a pending delivery is tried next.',
  },
});
export const DELIVERY_LIST = listOf('DeliveryList', DELIVERY);
export const DELIVERY_QUEUED = shape('DeliveryQueued', {
  delivery_id: str(),
  status: { type: 'string', const: 'pending' },
});
export const RECOVERY = shape('Recovery', {
  id: str(),
  since: time,
  recovered: { type: 'integer', minimum: 0, description: 'How many deliveries were queued again.' },
});

export const ENDPOINT_EXAMPLE = {
  id: 'we_01jf8w2c4v6b8n0m2q4w',
  url: 'https://crm.example.com/hooks/voice',
  events: ['session.*', 'campaign.completed'],
  description: 'CRM sync',
  status: 'active',
  failure_streak: 0,
  created_at: '2026-11-21T10:00:00.000Z',
};
