import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { toErrorResponse } from './api-error';

/** The single place where failures become HTTP: CONTRACT.md's error body, never a stack trace. */
@Catch()
export class HttpExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('HTTP');

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const request = ctx.getRequest<FastifyRequest>();
    const reply = ctx.getResponse<FastifyReply>();
    const response = toErrorResponse(exception, String(request.id));
    if (response.status >= 500) {
      this.logger.error(
        `${request.method} ${request.url} failed (${String(request.id)}): ${exception instanceof Error ? (exception.stack ?? exception.message) : String(exception)}`,
      );
    }
    void reply.status(response.status).headers(response.headers).send(response.body);
  }
}
