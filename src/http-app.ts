import { ValidationError, ValidationPipe } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { randomBytes } from 'node:crypto';
import { AppModule } from './app.module';
import { buildOpenApiWebhooks } from './catalog/openapi-webhooks';
import { ApiError } from './common/http/api-error';
import { HttpExceptionFilter } from './common/http/http-exception.filter';
import { IdempotencyInterceptor } from './common/http/idempotency.interceptor';
import type { CoreOptions } from './core/core.module';
import { createLogger } from './infra/logging/logger';

export const BODY_LIMIT_BYTES = 1024 * 1024;

/** Builds the Nest application on Fastify with validation, errors, idempotency and OpenAPI; does not listen. */
export async function createHttpApp(options: CoreOptions): Promise<NestFastifyApplication> {
  const logger = createLogger(options.config.logLevel);
  const adapter = new FastifyAdapter({
    bodyLimit: BODY_LIMIT_BYTES,
    genReqId: () => `req_${randomBytes(12).toString('hex')}`,
    requestIdHeader: false,
    return503OnClosing: true,
  });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(options), adapter, {
    logger: logger.nest,
    bufferLogs: false,
    // Our own JSON parser below; anything else is a 415.
    bodyParser: false,
  });
  const fastify = app.getHttpAdapter().getInstance();
  fastify.addHook('onSend', async (request, reply) => {
    void reply.header('request-id', String(request.id));
  });
  // An empty body is no body (action endpoints like /test need none); malformed JSON is a clear 400.
  fastify.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: BODY_LIMIT_BYTES }, (req, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    // Kept for signature checks on signed ingest calls.
    (req as unknown as { rawBody: string }).rawBody = text;
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text) as unknown);
    } catch {
      done(new ApiError(400, 'invalid_request', 'Request body is not valid JSON.'), undefined);
    }
  });
  app.useGlobalFilters(new HttpExceptionFilter());
  app.useGlobalPipes(
    new ValidationPipe({
      whitelist: true,
      forbidNonWhitelisted: true,
      transform: true,
      exceptionFactory: (errors: ValidationError[]) => validationToApiError(errors),
    }),
  );
  app.useGlobalInterceptors(app.get(IdempotencyInterceptor));

  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Voice Agent Platform API')
      .setVersion('1')
      .setDescription('REST API, operator API and webhook catalog. See docs/ for the decisions behind each.')
      .addBearerAuth()
      .build(),
  );
  const openapi = { ...document, openapi: '3.1.0', webhooks: buildOpenApiWebhooks() };
  SwaggerModule.setup('docs', app, openapi as typeof document, { jsonDocumentUrl: 'openapi.json', yamlDocumentUrl: 'openapi.yaml' });
  return app;
}

function validationToApiError(errors: ValidationError[]): ApiError {
  const first = firstConstraint(errors, '');
  return ApiError.invalid(first?.message ?? 'Invalid request body.', first?.param);
}

function firstConstraint(errors: ValidationError[], parent: string): { param: string; message: string } | null {
  for (const error of errors) {
    const param = parent ? `${parent}.${error.property}` : error.property;
    const constraints = error.constraints ? Object.values(error.constraints) : [];
    if (constraints[0]) {
      const message = constraints[0].replace(/^property (\S+) should not exist$/, 'Unknown field $1.');
      return { param, message: message.startsWith(error.property) || message.startsWith('Unknown') ? message.replace(error.property, param) : message };
    }
    const nested = firstConstraint(error.children ?? [], param);
    if (nested) return nested;
  }
  return null;
}
