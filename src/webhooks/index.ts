/** The webhooks context's public face: what other contexts may use. */
export { WebhooksModule } from './webhooks.module';
export { ChangeEndpoint, CreateEndpoint } from './application/endpoint.commands';
export { webhooksSettings } from './webhooks.config';
/** The webhook URL rules and pinned sending, reused for agent tool calls (src/conversations/dialogue/tool-invoker.ts). */
export { createPinnedDispatcher, resolvePublicAddress, validateWebhookUrl } from './infra/address-policy';
export { ensurePublicUrl, type PublicUrlCheck } from './application/public-url';
