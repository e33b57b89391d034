export { VoiceAgent, DEFAULT_BASE_URL, type VoiceAgentOptions } from './client.js';
export { VoiceAgentError, VoiceAgentBrowserError, type ApiErrorBody } from './errors.js';
export type { RequestOptions } from './http.js';
export { AutoPaginatingList } from './pagination.js';
export type { FollowOptions } from './events.js';
export type * from './resources.js';
export type * from './rooms-voices-numbers.js';
export * from './types.js';
export {
  webhooks,
  verify as verifyWebhook,
  WebhookVerificationError,
  type WebhookHeaders,
  type WebhookVerificationReason,
  type VerifyOptions,
  type Webhooks,
} from './webhooks.js';
export {
  WEBHOOK_EVENT_TYPES,
  type EventEnvelope,
  type WebhookEvent,
  type WebhookEventOf,
  type WebhookEventPayloads,
  type WebhookEventType,
} from './generated/events.js';
export type * from './generated/events.js';
export type { paths, components, operations } from './generated/api.js';
export { VERSION } from './version.js';
