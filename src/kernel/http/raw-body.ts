/**
 * The JSON body as it came, which the JSON parser (http-app.ts) keeps on the request for the routes
 * that check a signature over it (the media gateway's and the payment processor's calls).
 */
declare module 'fastify' {
  interface FastifyRequest {
    rawBody?: string;
  }
}

export {};
