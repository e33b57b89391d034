/**
 * Real components for the webhook e2e suites: loopback HTTP receivers whose answers the test
 * scripts, a real SMTP server (smtp-server) that keeps the mails it receives, independent
 * signature checks (node:crypto only, not the project's signing code) and small API helpers.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

// ------------------------------------------------------------------------------------------
// HTTP receivers
// ------------------------------------------------------------------------------------------

export interface ReceivedRequest {
  /** 0-based arrival index on this receiver. */
  readonly index: number;
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly rawBody: Buffer;
  readonly body: string;
  /** Epoch ms when the whole body had arrived. */
  readonly receivedAt: number;
}

/** What the receiver does with one request. */
export type ReceiverAction =
  | { status: number; headers?: Record<string, string>; body?: string; delayMs?: number }
  /** Reads the body, then destroys the socket without answering (connection reset). */
  | { destroy: true }
  /** Reads the body, then waits `delayMs` before answering `status` (a timeout when longer than the sender's). */
  | { status: number; delayMs: number; headers?: Record<string, string> }
  /** Sends the status line and headers at once, then one body byte every `trickleMs`, never ending. */
  | { status: number; trickleMs: number };

export type ReceiverBehaviour = (req: ReceivedRequest) => ReceiverAction;

export interface Receiver {
  readonly url: string;
  readonly port: number;
  readonly requests: ReceivedRequest[];
  /** TCP connections accepted so far (also those that never became an HTTP request). */
  connections(): number;
  /** Replaces the behaviour for every request from now on. */
  setBehaviour(behaviour: ReceiverBehaviour): void;
  /** Answers the next requests with these actions in order, then falls back to the behaviour. */
  queue(...actions: ReceiverAction[]): void;
  /** Requests whose X-Webhook-Id is `id`. */
  byId(id: string): ReceivedRequest[];
  close(): Promise<void>;
}

const receivers = new Set<Receiver>();

export async function startReceiver(
  behaviour: ReceiverBehaviour = () => ({ status: 200 }),
  path = '/hook',
): Promise<Receiver> {
  let current = behaviour;
  const queued: ReceiverAction[] = [];
  const requests: ReceivedRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('error', () => undefined);
    res.on('error', () => undefined);
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks);
      const received: ReceivedRequest = {
        index: requests.length,
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        rawBody,
        body: rawBody.toString('utf8'),
        receivedAt: Date.now(),
      };
      requests.push(received);
      const action = queued.length > 0 ? (queued.shift() as ReceiverAction) : current(received);
      if ('destroy' in action) {
        req.socket.destroy();
        return;
      }
      if ('trickleMs' in action) {
        res.writeHead(action.status, { 'content-type': 'text/plain' });
        res.write('.');
        const timer = setInterval(() => {
          if (res.destroyed || res.writableEnded) {
            clearInterval(timer);
            timers.delete(timer);
            return;
          }
          res.write('.');
        }, action.trickleMs);
        timers.add(timer);
        return;
      }
      const answer = (): void => {
        if (res.destroyed || res.writableEnded) return;
        res.writeHead(action.status, { 'content-type': 'text/plain', ...(action.headers ?? {}) });
        res.end('body' in action && action.body !== undefined ? action.body : 'ok');
      };
      if (action.delayMs && action.delayMs > 0) {
        const timer = setTimeout(() => {
          timers.delete(timer);
          answer();
        }, action.delayMs);
        timers.add(timer);
      } else {
        answer();
      }
    });
  });
  server.keepAliveTimeout = 5_000;
  let connections = 0;
  server.on('connection', () => {
    connections++;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const receiver: Receiver = {
    url: `http://127.0.0.1:${port}${path}`,
    port,
    requests,
    connections: () => connections,
    setBehaviour(b) {
      current = b;
    },
    queue(...actions) {
      queued.push(...actions);
    },
    byId(id) {
      return requests.filter((r) => r.headers['x-webhook-id'] === id);
    },
    async close() {
      receivers.delete(receiver);
      for (const t of timers) clearTimeout(t); // clears intervals too
      timers.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  receivers.add(receiver);
  return receiver;
}

export async function closeAllReceivers(): Promise<void> {
  await Promise.all([...receivers].map((r) => r.close()));
}

// ------------------------------------------------------------------------------------------
// SMTP server
// ------------------------------------------------------------------------------------------

export interface ReceivedMail {
  readonly from: string | null;
  readonly to: string[];
  readonly raw: string;
  readonly subject: string;
}

export interface SmtpSink {
  readonly port: number;
  readonly url: string;
  readonly mails: ReceivedMail[];
  close(): Promise<void>;
}

export async function startSmtp(): Promise<SmtpSink> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const subject = /^Subject:\s*(.*(?:\r?\n[ \t].*)*)/im.exec(raw)?.[1]?.replace(/\r?\n[ \t]/g, ' ') ?? '';
        const mailFrom = session.envelope.mailFrom;
        mails.push({
          from: mailFrom ? mailFrom.address : null,
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          subject,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    mails,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Quoted-printable soft line breaks and escapes removed, so the body text can be searched. */
export function decodeMailText(raw: string): string {
  return raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
}

// ------------------------------------------------------------------------------------------
// Independent signature checks (docs/events.md "Delivery headers": X-Webhook-* and Standard Webhooks)
// ------------------------------------------------------------------------------------------

export function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}

function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}

/** `sha256=` + hex HMAC-SHA256 keyed with the whole `whsec_…` string, over `${ts}.${rawBody}`. */
export function expectedXSignature(secret: string, ts: string, rawBody: Buffer): string {
  return (
    'sha256=' +
    createHmac('sha256', secret)
      .update(Buffer.concat([Buffer.from(`${ts}.`), rawBody]))
      .digest('hex')
  );
}

/** `v1,` + base64 HMAC-SHA256 keyed with base64-decoded part after whsec_, over `${id}.${ts}.${rawBody}`. */
export function expectedStandardSignature(secret: string, id: string, ts: string, rawBody: Buffer): string {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  return (
    'v1,' +
    createHmac('sha256', key)
      .update(Buffer.concat([Buffer.from(`${id}.${ts}.`), rawBody]))
      .digest('base64')
  );
}

export function verifiesX(secret: string, req: ReceivedRequest): boolean {
  const sig = header(req.headers, 'x-webhook-signature');
  const ts = header(req.headers, 'x-webhook-timestamp');
  if (!sig || !ts) return false;
  return safeEqual(sig, expectedXSignature(secret, ts, req.rawBody));
}

export function verifiesStandard(secret: string, req: ReceivedRequest): boolean {
  const sig = header(req.headers, 'webhook-signature');
  const ts = header(req.headers, 'webhook-timestamp');
  const id = header(req.headers, 'webhook-id');
  if (!sig || !ts || !id) return false;
  const expected = expectedStandardSignature(secret, id, ts, req.rawBody);
  // The header may carry several space-separated signatures.
  return sig.split(' ').some((s) => safeEqual(s, expected));
}

export interface Envelope {
  id: string;
  type: string;
  tenant_id: string;
  created_at: string;
  data: Record<string, unknown>;
}

export const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export function envelopeOf(req: ReceivedRequest): Envelope {
  return JSON.parse(req.body) as Envelope;
}

// ------------------------------------------------------------------------------------------
// Keys, tenants and API calls
// ------------------------------------------------------------------------------------------

/** A WEBHOOK_SECRET_KEY: base64 of 32 random bytes. */
export function newSecretKey(): string {
  return randomBytes(32).toString('base64');
}

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  text: string;
  headers: Headers;
}

/** A small JSON client for a base URL (in-process listener or spawned service). */
export function apiClient(baseUrl: () => string) {
  async function call<T = any>(
    method: string,
    path: string,
    opts: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${baseUrl()}${path}`, {
      method,
      headers,
      ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}),
    });
    const text = await res.text();
    let body: any = undefined;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      body = undefined;
    }
    return { status: res.status, body: body as T, text, headers: res.headers };
  }
  return { call };
}

export type ApiCall = ReturnType<typeof apiClient>['call'];

export interface TenantInfo {
  tenant_id: string;
  api_key: string;
  email: string;
}

/** A new tenant (on the default plan, pro, unless `plan` says otherwise) and its API key. */
export async function createTenant(
  call: ApiCall,
  adminToken: string,
  label: string,
  plan?: 'pro' | 'starter',
): Promise<TenantInfo> {
  const email = `${label.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${randomBytes(3).toString('hex')}@tenant.example`;
  const body = { name: label, email, ...(plan ? { plan } : {}) };
  const res = await call('POST', '/admin/v1/tenants', { token: adminToken, body });
  if (res.status !== 201) throw new Error(`createTenant: ${res.status} ${res.text}`);
  return { tenant_id: res.body.tenant_id, api_key: res.body.api_key, email };
}

/**
 * The operator assigns `phoneNumber` to the tenant (POST /admin/v1/tenants/{id}/phone_numbers): the
 * tenant then owns it, `active`, and may place production calls from it (decision 178). A number has
 * one owner: assigning it to another tenant takes it from this one.
 */
export async function assignNumber(
  call: ApiCall,
  adminToken: string,
  tenantId: string,
  phoneNumber: string,
): Promise<void> {
  const res = await call('POST', `/admin/v1/tenants/${tenantId}/phone_numbers`, {
    token: adminToken,
    body: { phone_number: phoneNumber },
  });
  if (res.status !== 201 || res.body.status !== 'active')
    throw new Error(`assignNumber ${phoneNumber}: ${res.status} ${res.text}`);
}

export interface CreatedEndpoint {
  id: string;
  url: string;
  events: string[];
  description: string | null;
  status: string;
  secret: string;
  created_at: string;
}

export async function createEndpoint(
  call: ApiCall,
  apiKey: string,
  body: { url: string; events?: string[]; description?: string },
): Promise<CreatedEndpoint> {
  const res = await call<CreatedEndpoint>('POST', '/v1/webhook_endpoints', { token: apiKey, body });
  if (res.status !== 201) throw new Error(`createEndpoint: ${res.status} ${res.text}`);
  return res.body;
}

export interface DeliveryAttempt {
  at: string;
  http_status: number | null;
  error: string | null;
  duration_ms: number;
}

export interface DeliveryRow {
  delivery_id: string;
  event_id: string;
  event_type: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: DeliveryAttempt[];
  next_attempt_at: string | null;
}

export async function deliveries(call: ApiCall, apiKey: string, endpointId: string): Promise<DeliveryRow[]> {
  const res = await call<{ data: DeliveryRow[] }>('GET', `/v1/webhook_endpoints/${endpointId}/deliveries?limit=100`, {
    token: apiKey,
  });
  if (res.status !== 200) throw new Error(`deliveries: ${res.status} ${res.text}`);
  return res.body.data;
}

export async function sendTest(call: ApiCall, apiKey: string, endpointId: string): Promise<string> {
  const res = await call<{ event_id: string }>('POST', `/v1/webhook_endpoints/${endpointId}/test`, { token: apiKey });
  if (res.status !== 202) throw new Error(`test: ${res.status} ${res.text}`);
  return res.body.event_id;
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Asserts `fn` keeps holding for `ms` (negative checks such as "no retry was made"). */
export async function consistently(fn: () => void | Promise<void>, ms: number, intervalMs = 50): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    await fn();
    await sleep(intervalMs);
  }
  await fn();
}
