import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { eventCatalog } from './app.module';
import { buildOpenApiWebhooks } from './catalog/openapi-webhooks';

/**
 * The OpenAPI 3.1 document served at /openapi.json: the controllers' operations (from their
 * decorators) and the catalog's `webhooks`. It reads metadata only, so an application created with
 * `preview: true` (no database, no provider built) gives the same document (`npm run client:generate`).
 */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Voice Agent Platform API')
      .setVersion('1')
      .setDescription('REST API, operator API and webhook catalog. See docs/ for the decisions behind each.')
      .addBearerAuth()
      .build(),
  );
  return { ...document, openapi: '3.1.0', webhooks: buildOpenApiWebhooks(eventCatalog) } as OpenAPIObject;
}
