import type { FastifyRequest } from 'fastify';

/**
 * The JSON body as it came, which the JSON parser (http-app.ts) keeps on the request for the routes
 * that check a signature over it (the media gateway's and the payment processor's calls).
 */
declare module 'fastify' {
  interface FastifyRequest {
    rawBody?: string;
  }
}

/** Keeps the body's text on the request (the JSON parser, for every JSON request). */
export function keepRawBody(request: FastifyRequest, text: string): void {
  request.rawBody = text;
}

/** The body's text as it came ('' without a JSON body), for a signature check. */
export function rawBodyOf(request: FastifyRequest): string {
  return request.rawBody ?? '';
}
