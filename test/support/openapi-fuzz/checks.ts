// The checks of every response, and the report of a failed request.

import type { LightMyRequestResponse } from 'fastify';
import { expectNoLeak } from '../app';
import type { FuzzRequest, Method } from './generator';

export interface Failure {
  request: FuzzRequest;
  status: number;
  body: string;
  problem: string;
}

export function check(res: LightMyRequestResponse, method: Method): string | null {
  if (res.statusCode >= 500) return `status ${res.statusCode}`;
  if (res.statusCode < 400) return null;
  // Over HTTP a HEAD answer has no body (Node drops it); `inject` keeps it, and then it is checked.
  if (method === 'HEAD' && res.body === '') return null;
  let body: unknown;
  try {
    body = JSON.parse(res.body);
  } catch {
    return 'error body is not JSON';
  }
  if (!/^application\/json/.test(String(res.headers['content-type']))) return 'error body is not application/json';
  const error = (body as { error?: Record<string, unknown> }).error;
  if (typeof body !== 'object' || body === null || Object.keys(body).join() !== 'error' || !error)
    return 'error body is not {"error": {...}}';
  for (const key of Object.keys(error))
    if (!['type', 'message', 'param', 'request_id'].includes(key)) return `unexpected key ${key}`;
  if (typeof error.type !== 'string' || error.type === '') return 'error.type missing';
  if (typeof error.message !== 'string' || error.message === '') return 'error.message missing';
  if (error.param !== undefined && typeof error.param !== 'string') return 'error.param is not a string';
  if (typeof error.request_id !== 'string' || !/^req_[0-9a-f]+$/.test(error.request_id))
    return 'error.request_id missing';
  // A replayed answer (Idempotency-Key) is the first request's body, with the first request's id.
  if (res.headers['request-id'] !== error.request_id && res.headers['idempotent-replayed'] !== 'true')
    return 'request-id header differs from error.request_id';
  try {
    expectNoLeak(res.body);
  } catch {
    return 'error body leaks a stack frame or an internal path';
  }
  return null;
}

/** The request, as sent, in a form that reproduces it; `spec` is the group's spec file. */
export function describeRequest(req: FuzzRequest, seed: number, spec: string): string {
  const { method, url, headers, payload } = req.options;
  let body: string;
  if (payload === undefined) body = '(none)';
  else if (Buffer.isBuffer(payload))
    body = `Buffer.from('${payload.toString('base64')}', 'base64') (${payload.length} bytes)`;
  else {
    const text = typeof payload === 'string' ? payload : JSON.stringify(payload);
    body = text.length > 2000 ? `${JSON.stringify(text.slice(0, 2000))}… (${text.length} chars)` : JSON.stringify(text);
  }
  const shownHeaders = Object.fromEntries(
    Object.entries(headers).map(([k, raw]) => {
      const v = String(raw);
      return [k, v.length > 200 ? `${v.slice(0, 200)}… (${v.length} chars)` : v];
    }),
  );
  return [
    `request #${req.index} (FUZZ_SEED=${seed} FUZZ_ONLY=${req.index} npx jest ${spec}), operation ${req.operation}`,
    `  ${method} ${url.length > 500 ? `${url.slice(0, 500)}… (${url.length} chars)` : url}`,
    `  headers: ${JSON.stringify(shownHeaders)}`,
    `  body: ${body}`,
  ].join('\n');
}
