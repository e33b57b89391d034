/**
 * The Idempotency-Key interceptor's own reading of a multipart body it will not pass on (a replay of
 * a completed upload, src/infra/http/multipart-fingerprint.ts), on a real Fastify server on loopback
 * with @fastify/multipart: it is bound by the upload route's own limits (25 files of 20 MB), and by a
 * total deadline, so that a client dripping a byte now and then cannot hold it open.
 */
import fastifyMultipart from '@fastify/multipart';
import Fastify, { type FastifyInstance } from 'fastify';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiError } from '../../../src/kernel/http/api-error';
import { MultipartFingerprint } from '../../../src/infra/http/multipart-fingerprint';

jest.setTimeout(30_000);

let app: FastifyInstance;
let port: number;
const BOUNDARY = 'vapfingerprinttest';

beforeAll(async () => {
  app = Fastify();
  await app.register(fastifyMultipart);
  app.post('/read', async (req, reply) => {
    try {
      return { digest: await MultipartFingerprint.read(req, 'POST /read', { idleMs: 5_000, deadlineMs: 1_500 }) };
    } catch (err) {
      return reply.status(err instanceof ApiError ? err.status : 500).send({ error: String(err) });
    }
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  port = (app.server.address() as AddressInfo).port;
});
afterAll(async () => app?.close());

const filePart = (i: number, bytes: string) =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="samples"; filename="${i}.wav"\r\n` +
  `Content-Type: audio/wav\r\n\r\n${bytes}\r\n`;

/** Sends `head`, then `drip` one byte every `everyMs`, then `tail`; the status (or 'cut') and when it ended. */
function send(
  head: string,
  drip: number,
  everyMs: number,
  tail: string,
): Promise<{ status: number | 'cut'; ms: number }> {
  const started = Date.now();
  return new Promise((resolve) => {
    const ticker: { timer?: NodeJS.Timeout } = {};
    const done = (status: number | 'cut') => {
      clearInterval(ticker.timer);
      resolve({ status, ms: Date.now() - started });
    };
    const req = httpRequest({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/read',
      headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, 'transfer-encoding': 'chunked' },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => done(res.statusCode ?? 0));
    });
    req.on('error', () => done('cut'));
    req.write(head);
    let left = drip;
    if (left === 0) return void req.end(tail);
    ticker.timer = setInterval(() => {
      if (req.destroyed) return clearInterval(ticker.timer);
      req.write('x');
      if (--left === 0) {
        clearInterval(ticker.timer);
        req.end(tail);
      }
    }, everyMs);
  });
}

it('reads and hashes a body within the bounds', async () => {
  const res = await send(filePart(1, 'abc'), 0, 0, `--${BOUNDARY}--\r\n`);
  expect(res.status).toBe(200);
});

it('cuts off a body dripped a byte at a time past the total deadline, though it is never idle', async () => {
  // 60 bytes, one every 100 ms: six seconds, never idle for the 5 s idle bound.
  const head = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="samples"; filename="slow.wav"\r\n\r\n`;
  const res = await send(head, 60, 100, `\r\n--${BOUNDARY}--\r\n`);
  expect(res.status).not.toBe(200);
  expect(res.ms).toBeLessThan(4_000);
});

it('refuses a body of more files than the upload route takes (25)', async () => {
  const body = Array.from({ length: 26 }, (_, i) => filePart(i, 'abc')).join('') + `--${BOUNDARY}--\r\n`;
  const res = await send(body, 0, 0, '');
  expect(res.status).toBe(400);
});
