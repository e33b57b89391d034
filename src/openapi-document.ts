import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { eventCatalog } from './app.module';
import { buildOpenApiWebhooks } from './catalog/openapi-webhooks';
import { finishOpenApiDocument } from './openapi-finish';

/**
 * The OpenAPI 3.1 document served at /openapi.json: the controllers' operations (from their
 * decorators, `src/kernel/http/api-docs.ts`), finished by `src/openapi-finish.ts`, and the catalog's
 * `webhooks`. It reads metadata only, so an application created with `preview: true` (no database,
 * no provider built) gives the same document (`npm run client:generate`).
 */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Voice Agent Platform API')
      .setVersion('1')
      .setDescription(
        'The REST API of the voice agent platform: calls and sessions, campaigns, rooms, phone numbers, voice clones, ' +
          'webhook endpoints, the event feed, credits and the do-not-call list, and the operator’s API. Every error ' +
          'answer has the body `{"error": {"type", "message", "param"?, "request_id"}}`. The `webhooks` section ' +
          'describes the signed events the platform sends to your endpoints.',
      )
      .addServer('/', 'This service: the paths are relative to where /openapi.json is served (BASE_URL).')
      .build(),
  );
  // A private service: its license has no URL (an SPDX `LicenseRef-`), its contact is whoever operates it.
  const info = {
    ...document.info,
    license: { name: 'Proprietary (UNLICENSED)', identifier: 'LicenseRef-Proprietary' },
  };
  info.contact = { name: 'The operator of this deployment (who issued your API key)' };
  const finished = finishOpenApiDocument({ ...document, info, openapi: '3.1.0' });
  // A delivery carries its own signature headers (documented as its parameters); no scheme of this API applies.
  const webhooks = buildOpenApiWebhooks(eventCatalog);
  for (const item of Object.values(webhooks)) Object.assign((item as { post: object }).post, { security: [] });
  return { ...finished, webhooks } as OpenAPIObject;
}
