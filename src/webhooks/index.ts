/** The webhooks context's public face: what other contexts may use. */
export { WebhooksModule } from './webhooks.module';
export { ChangeEndpoint, CreateEndpoint } from './application/endpoint.commands';
export { webhooksSettings } from './webhooks.config';
export { ensurePublicUrl, type PublicUrlCheck } from './application/public-url';
