import type { Provider } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/config';
import { loadOrCreateKey, SecretBox } from '../kernel/secret-box';

export const SECRET_BOX = Symbol('SECRET_BOX');

/** Secrets at rest (webhook secrets, stored idempotent responses) are sealed with WEBHOOK_SECRET_KEY, or a key generated into DATA_DIR on first start. */
export const secretBoxProvider: Provider = {
  provide: SECRET_BOX,
  inject: [APP_CONFIG],
  useFactory: (config: AppConfig) =>
    new SecretBox(loadOrCreateKey({ configuredKeyBase64: config.webhookSecretKey, dataDir: config.dataDir })),
};
