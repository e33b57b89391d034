import type { ValidationError } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import fastifyCookie from '@fastify/cookie';
import fastifyMultipart from '@fastify/multipart';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { SwaggerModule } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { newRequestId } from './kernel/ids';
import { AppModule, contextTextBodies, type AppOptions } from './app.module';
import { buildOpenApiDocument } from './openapi-document';
import { ApiError, toErrorResponse } from './kernel/http/api-error';
import { checkQuery, hasControlCharacters, parseJsonBody } from './kernel/http/json-body';
import { HttpExceptionFilter } from './kernel/http/http-exception.filter';
import { draining } from './kernel/http/draining';
import { CROSS_ORIGIN_HEADERS, isCrossOrigin } from './kernel/http/cross-origin';
import { isDatabaseUnavailable } from './infra/database/faults';
import { IdempotencyInterceptor } from './infra/http/idempotency.interceptor';
import { bodyStillArriving, drainBody, DRAIN_LIMIT_BYTES } from './infra/http/refused-body';
import { createLogger } from './infra/logging/logger';
import { keepRawBody } from './kernel/http/raw-body';
import { BodyValidationPipe } from './kernel/http/validation-pipe';

export const BODY_LIMIT_BYTES = 1024 * 1024;
/**
 * The limit of a body a route takes as signed raw JSON (`@RouteConfig({ signedJson: true })`: the
 * Stripe webhook, whose events are under 1 MB but may be larger).
 */
export const SIGNED_JSON_LIMIT_BYTES = 2 * 1024 * 1024;

/** Started when the service starts draining (main.ts): `lifecycle.closing` is then true. */
export const lifecycle = draining;

/** Builds the Nest application on Fastify with validation, errors, idempotency and OpenAPI; does not listen. */
export async function createHttpApp(options: AppOptions): Promise<NestFastifyApplication> {
  const logger = createLogger(options.config.logLevel);
  const adapter = new FastifyAdapter({
    bodyLimit: BODY_LIMIT_BYTES,
    genReqId: newRequestId,
    requestIdHeader: false,
    return503OnClosing: true,
    // Headers that trickle in are cut off by Node; a body that trickles in, by the hook below.
    requestTimeout: options.config.httpRequestTimeoutMs,
    routerOptions: { maxParamLength: 200 },
    // Errors the router raises before any handler (bad percent-encoding, an overlong id) get the same body.
    frameworkErrors: (error: { statusCode?: number }, request: FastifyRequest, reply: FastifyReply) => {
      const status = error.statusCode === 414 ? 404 : 400;
      const response = toErrorResponse(
        status === 404 ? ApiError.notFound('resource') : ApiError.invalid('Malformed request URL.'),
        String(request.id),
      );
      void reply.status(response.status).header('request-id', String(request.id)).send(response.body);
    },
  });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(options), adapter, {
    logger: logger.nest,
    bufferLogs: false,
    // Our own JSON parser below; anything else is a 415.
    bodyParser: false,
  });
  const fastify = app.getHttpAdapter().getInstance();
  fastify.addHook('onRequest', async (request, reply) => {
    let path: string;
    try {
      path = decodeURIComponent(request.url.split('?')[0] ?? '');
    } catch {
      path = '\u0000';
    }
    const refused = hasControlCharacters(path) ? ApiError.invalid('Malformed request URL.') : checkQuery(request.query);
    if (refused) {
      const response = toErrorResponse(refused, String(request.id));
      return reply.status(response.status).send(response.body);
    }
  });
  // A client that trickles its body (slowloris) holds a connection only HTTP_REQUEST_TIMEOUT_MS:
  // Node's own request timeout stops counting once the headers are in.
  const bodyDeadlines = new WeakMap<FastifyRequest, { timer: NodeJS.Timeout; at: number }>();
  const timedOut = new WeakSet<FastifyRequest>();
  const clearDeadline = (request: FastifyRequest): void => {
    clearTimeout(bodyDeadlines.get(request)?.timer);
    bodyDeadlines.delete(request);
  };
  fastify.addHook('onRequest', async (request, reply) => {
    const timer = setTimeout(() => {
      if (reply.sent) return;
      timedOut.add(request);
      const response = toErrorResponse(
        new ApiError(408, 'invalid_request', 'The request took too long to arrive.'),
        String(request.id),
      );
      reply.raw.once('finish', () => request.raw.socket?.destroy());
      void reply.status(408).header('connection', 'close').send(response.body);
    }, options.config.httpRequestTimeoutMs);
    timer.unref();
    bodyDeadlines.set(request, { timer, at: Date.now() + options.config.httpRequestTimeoutMs });
  });
  for (const hook of ['preValidation', 'onResponse'] as const) {
    fastify.addHook(hook, (request: FastifyRequest, _reply: FastifyReply, done: () => void) => {
      clearDeadline(request);
      done();
    });
  }
  fastify.addHook('onRequestAbort', (request: FastifyRequest, done: () => void) => {
    clearDeadline(request);
    done();
  });
  // A refused body still arriving (over its limit, or refused unread: a 415, an upload refused half-way)
  // is read and dropped before the answer, up to 16 MB and within the body's deadline (decision 179):
  // answering and closing at once resets a client still sending, and Node's fetch never reads the 413.
  // Read to its end, the connection stays open; cut off, it is closed after the answer.
  fastify.addHook('onSend', async (request, reply) => {
    if (reply.statusCode < 400 || timedOut.has(request) || !bodyStillArriving(request.raw)) return;
    const deadlineAt = bodyDeadlines.get(request)?.at ?? Date.now() + options.config.httpRequestTimeoutMs;
    clearDeadline(request);
    if (await drainBody(request.raw, DRAIN_LIMIT_BYTES, deadlineAt - Date.now())) {
      void reply.removeHeader('connection');
      return;
    }
    void reply.header('connection', 'close');
    reply.raw.once('finish', () => request.raw.socket?.destroy());
  });
  fastify.addHook('onSend', async (request, reply) => {
    void reply.header('request-id', String(request.id));
    // A route any origin may call (cross-origin.ts): every answer, a refusal before its handler too.
    if (isCrossOrigin(request.routeOptions.config)) void reply.headers(CROSS_ORIGIN_HEADERS);
    // While draining, answer and close, so keep-alive connections do not hold the shutdown open.
    if (lifecycle.closing) void reply.header('connection', 'close');
  });
  // A route that takes signed JSON reads it itself, after checking the signature on the raw body:
  // the checks below must not refuse what its sender signed (a refused event is never sent again).
  fastify.addHook('onRoute', (route) => {
    if ((route.config as { signedJson?: boolean } | undefined)?.signedJson) route.bodyLimit = SIGNED_JSON_LIMIT_BYTES;
  });
  // JSON only: every other media type is a 415.
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit: BODY_LIMIT_BYTES },
    (req, body, done) => {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      // Kept for signature checks on signed ingest calls.
      keepRawBody(req, text);
      if ((req.routeOptions.config as { signedJson?: boolean } | undefined)?.signedJson) {
        done(null, undefined);
        return;
      }
      try {
        done(null, parseJsonBody(text));
      } catch (err) {
        done(err as Error, undefined);
      }
    },
  );
  // multipart/form-data only where a route asks for it (`@RouteConfig({ multipart: true })`), which
  // then reads the parts itself (`request.parts()`) with its own limits; elsewhere it is a 415 as before.
  // The dashboard's session cookie (request.cookies, reply.setCookie); nothing else uses cookies.
  await app.register(fastifyCookie);
  await app.register(fastifyMultipart, { limits: { fileSize: BODY_LIMIT_BYTES, files: 1, parts: 10 } });
  fastify.addHook('onRequest', async (request, reply) => {
    const type = request.headers['content-type'];
    if (typeof type !== 'string' || !/^\s*multipart\//i.test(type)) return;
    if ((request.routeOptions.config as { multipart?: boolean } | undefined)?.multipart) return;
    const response = toErrorResponse(
      new ApiError(415, 'unsupported_media_type', 'Unsupported Content-Type; send application/json.'),
      String(request.id),
    );
    return reply.status(response.status).send(response.body);
  });
  // Bodies other than JSON that a context's routes take as text (`BoundedContext.textBodies`: the
  // rooms' SDP offers), each with its limit; only routes marked `@RouteConfig({ textBody: true })`
  // take them, every other route refuses them like any other non-JSON body.
  for (const { mediaTypes, limitBytes } of contextTextBodies())
    fastify.addContentTypeParser([...mediaTypes], { parseAs: 'string', bodyLimit: limitBytes }, (req, body, done) => {
      if (!(req.routeOptions.config as { textBody?: boolean } | undefined)?.textBody) {
        const refused = Object.assign(new Error('Unsupported Content-Type.'), {
          statusCode: 415,
          code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE',
        });
        done(refused, undefined);
        return;
      }
      done(null, typeof body === 'string' ? body : body.toString('utf8'));
    });
  app.useGlobalFilters(new HttpExceptionFilter((err) => (isDatabaseUnavailable(err) ? ApiError.unavailable() : err)));
  app.useGlobalPipes(
    new BodyValidationPipe({
      whitelist: true,
      forbidNonWhitelisted: true,
      transform: true,
      exceptionFactory: (errors: ValidationError[]) => validationToApiError(errors),
    }),
  );
  app.useGlobalInterceptors(app.get(IdempotencyInterceptor));

  const openapi = buildOpenApiDocument(app);
  SwaggerModule.setup('docs', app, openapi, {
    jsonDocumentUrl: 'openapi.json',
    yamlDocumentUrl: 'openapi.yaml',
  });
  return app;
}

function validationToApiError(errors: ValidationError[]): ApiError {
  const first = firstConstraint(errors, '');
  return ApiError.invalid(first?.message ?? 'Invalid request body.', first?.param);
}

function firstConstraint(errors: ValidationError[], parent: string): { param: string; message: string } | null {
  for (const error of errors) {
    // Array items as JSON paths write them elsewhere (json-body.ts, the controllers): contacts[0].email.
    const param = /^\d+$/.test(error.property)
      ? `${parent}[${error.property}]`
      : parent
        ? `${parent}.${error.property}`
        : error.property;
    const constraints = error.constraints ? Object.values(error.constraints) : [];
    // A missing or null field fails every constraint it has; say what is wrong with it, not the first.
    if (
      constraints[0] &&
      (error.value === undefined || error.value === null) &&
      !/should not exist$/.test(constraints[0])
    )
      return { param, message: `${param} ${error.value === null ? 'must not be null' : 'is required'}.` };
    if (constraints[0]) {
      const message = constraints[0].replace(/^property (\S+) should not exist$/, 'Unknown field $1.');
      return {
        param,
        message:
          message.startsWith(error.property) || message.startsWith('Unknown')
            ? message.replace(error.property, param)
            : message,
      };
    }
    const nested = firstConstraint(error.children ?? [], param);
    if (nested) return nested;
  }
  return null;
}
