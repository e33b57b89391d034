import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { toErrorResponse } from './api-error';

/** The single place where failures become HTTP: the error body of docs/api.md, never a stack trace. */
@Catch()
export class HttpExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('HTTP');

  /** `translate` turns infrastructure failures the kernel does not know into API errors (a 503). */
  constructor(private readonly translate: (exception: unknown) => unknown = (e) => e) {}

  catch(thrown: unknown, host: ArgumentsHost): void {
    const exception = this.translate(thrown);
    const ctx = host.switchToHttp();
    const request = ctx.getRequest<FastifyRequest>();
    const reply = ctx.getResponse<FastifyReply>();
    const response = toErrorResponse(exception, String(request.id));
    if (response.status >= 500) {
      // The route's pattern, not the URL: a path can carry a credential (a dashboard sign-in link).
      const route = request.routeOptions?.url ?? '(no route)';
      this.logger.error(
        `${request.method} ${route} failed (${String(request.id)}): ${exception instanceof Error ? (exception.stack ?? exception.message) : String(exception)}`,
      );
    }
    void reply.status(response.status).headers(response.headers).send(response.body);
  }
}
