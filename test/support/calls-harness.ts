/**
 * Helpers for the calls & sessions e2e suites: the real service process (node dist/main.js) on its
 * own database and DATA_DIR, API helpers for calls, sessions and events, an independent WAV header
 * reader and signing of media-gateway ingest requests (node:crypto only).
 */
import { createHmac } from 'node:crypto';
import { createTestDatabase, TestDatabase } from './database';
import { killAllServices, makeDataDir, removeDataDir, ServiceProcess, startService } from './process';
import { eventually } from './eventually';
import {
  apiClient,
  ApiCall,
  assignNumber,
  closeAllReceivers,
  createTenant,
  Envelope,
  type TenantInfo,
} from './webhooks-harness';

export interface CallsService {
  svc: ServiceProcess;
  db: TestDatabase;
  dataDir: string;
  call: ApiCall;
  env: Record<string, string>;
  /** Starts the service again on the same database and DATA_DIR (after a kill), on a new port. */
  restart(): Promise<void>;
  /** SIGKILLs the process if it still runs, drops the database and removes the data directory. */
  destroy(): Promise<void>;
  /** Whether the process is alive, and the tail of its output (for failure messages). */
  diagnostics(tail?: number): string;
}

/** A suite's end (afterAll): every receiver closed, the service and its database gone, every service process killed. */
export async function stopCallsSuite(h: CallsService | undefined): Promise<void> {
  await closeAllReceivers();
  await h?.destroy();
  await killAllServices();
}

/** The real service with its own fresh database (the service migrates it) and DATA_DIR. */
export async function startCallsService(env: Record<string, string> = {}): Promise<CallsService> {
  const db = await createTestDatabase({ migrate: false });
  const dataDir = makeDataDir();
  const fullEnv = { DATABASE_URL: db.url, DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...env };
  let svc: ServiceProcess;
  try {
    svc = await startService({ env: fullEnv });
  } catch (err) {
    await db.drop().catch(() => undefined);
    removeDataDir(dataDir);
    throw err;
  }
  const handle: CallsService = {
    svc,
    db,
    dataDir,
    env: fullEnv,
    call: apiClient(() => handle.svc.baseUrl).call,
    async restart() {
      // A fresh port: reusing the old one races with other test processes that may have taken it since
      // the kill (their /health would then answer for ours while ours dies on EADDRINUSE).
      handle.svc = await startService({ env: fullEnv, adminToken: handle.svc.adminToken });
      await new Promise((r) => setTimeout(r, 200));
      if (handle.svc.hasExited()) throw new Error(`restarted service exited\n${handle.diagnostics()}`);
    },
    diagnostics(tail = 4000) {
      const state = handle.svc.hasExited() ? 'EXITED' : `running (pid ${handle.svc.pid})`;
      return `service ${state}\n--- stdout (tail) ---\n${handle.svc.stdout().slice(-tail)}\n--- stderr (tail) ---\n${handle.svc.stderr().slice(-tail)}`;
    },
    async destroy() {
      try {
        if (!handle.svc.hasExited()) {
          handle.svc.kill('SIGKILL');
          await handle.svc.waitForExit(10_000).catch(() => undefined);
        }
      } finally {
        await db.drop().catch(() => undefined);
        removeDataDir(dataDir);
      }
    },
  };
  return handle;
}

export interface SessionBody {
  session_id: string;
  status: string;
  to_number: string | null;
  from_number: string | null;
  test_mode: boolean;
  created_at: string;
  [key: string]: unknown;
}

export const FROM_NUMBER = '+14155550000';

export async function placeCall(
  call: ApiCall,
  apiKey: string,
  to: string,
  opts: { testMode?: boolean; from?: string; prompt?: string; headers?: Record<string, string> } = {},
): Promise<SessionBody> {
  const body = {
    to,
    from: opts.from ?? FROM_NUMBER,
    agent_config: { prompt: opts.prompt ?? 'You are Ava, a friendly scheduling assistant.' },
    ...(opts.testMode === undefined ? {} : { test_mode: opts.testMode }),
  };
  const res = await call<SessionBody>('POST', '/v1/calls', {
    token: apiKey,
    body,
    ...(opts.headers ? { headers: opts.headers } : {}),
  });
  if (res.status !== 201) throw new Error(`POST /v1/calls ${to}: ${res.status} ${res.text}`);
  return res.body;
}

/** GET /v1/sessions/{id}/events: the session's catalog envelopes in commit order. */
export async function sessionEvents(call: ApiCall, apiKey: string, sessionId: string): Promise<Envelope[]> {
  const res = await call<{ data: Envelope[] }>('GET', `/v1/sessions/${sessionId}/events`, { token: apiKey });
  if (res.status !== 200) throw new Error(`GET /v1/sessions/${sessionId}/events: ${res.status} ${res.text}`);
  return res.body.data;
}

/** Every page of GET /v1/events (commit order), following the `after` cursor. */
export async function allEvents(call: ApiCall, apiKey: string, type?: string): Promise<Envelope[]> {
  const out: Envelope[] = [];
  let after: string | undefined;
  for (let page = 0; page < 1000; page++) {
    const q = new URLSearchParams({ limit: '100' });
    if (type) q.set('type', type);
    if (after) q.set('after', after);
    const res = await call<{ data: Envelope[]; has_more: boolean }>('GET', `/v1/events?${q.toString()}`, {
      token: apiKey,
    });
    if (res.status !== 200) throw new Error(`GET /v1/events: ${res.status} ${res.text}`);
    out.push(...res.body.data);
    if (!res.body.has_more || res.body.data.length === 0) return out;
    after = res.body.data[res.body.data.length - 1]!.id;
  }
  throw new Error('GET /v1/events: too many pages');
}

export const TERMINAL_TYPES = new Set(['session.ended', 'session.failed']);

export interface WavHeader {
  riff: string;
  wave: string;
  format: number;
  channels: number;
  sampleRate: number;
  bitsPerSample: number;
  dataSize: number;
  /** dataSize / (sampleRate × channels × bytes per sample). */
  seconds: number;
}

/** Reads the canonical 44-byte PCM WAV header independently of the project's writer. */
export function readWavHeader(buf: Buffer): WavHeader {
  if (buf.length < 44) throw new Error(`not a WAV: ${buf.length} bytes`);
  const channels = buf.readUInt16LE(22);
  const sampleRate = buf.readUInt32LE(24);
  const bitsPerSample = buf.readUInt16LE(34);
  const dataSize = buf.readUInt32LE(40);
  return {
    riff: buf.toString('ascii', 0, 4),
    wave: buf.toString('ascii', 8, 12),
    format: buf.readUInt16LE(20),
    channels,
    sampleRate,
    bitsPerSample,
    dataSize,
    seconds: dataSize / (sampleRate * channels * (bitsPerSample / 8)),
  };
}

/** The X-Webhook-* signature headers (docs/events.md) over `${ts}.${body}`, keyed with the whole secret. */
export function signedHeaders(
  secret: string,
  body: string,
  tsSeconds = Math.floor(Date.now() / 1000),
): Record<string, string> {
  const sig = createHmac('sha256', secret).update(`${tsSeconds}.${body}`).digest('hex');
  return {
    'content-type': 'application/json',
    'x-webhook-signature': `sha256=${sig}`,
    'x-webhook-timestamp': String(tsSeconds),
  };
}

/** POSTs a raw body to the service (no JSON re-serialisation, any headers). */
export async function rawPost(
  baseUrl: string,
  path: string,
  body: string | Buffer | undefined,
  headers: Record<string, string>,
) {
  const res = await fetch(`${baseUrl}${path}`, { method: 'POST', headers, ...(body !== undefined ? { body } : {}) });
  const text = await res.text();
  let json: any;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, text, body: json, headers: res.headers };
}

/** One answer to POST /v1/calls while a fault is going on. */
export interface PlacedOutcome {
  status: number;
  retryAfter: string | null;
  /** The error type when it failed. */
  type?: string;
  sessionId?: string;
  /** What the test was doing when the answer came (e.g. "down"). */
  phase: string;
}

/**
 * `workers` loops placing test calls (alternately answered and unanswered numbers) until `stop()`,
 * recording every answer; after a 503 a loop waits 100 ms, as a client honouring Retry-After would.
 */
export function placeCallsUntilStopped(
  call: ApiCall,
  apiKey: string,
  workers: number,
  phase: () => string = () => '',
): { outcomes: PlacedOutcome[]; stop(): Promise<void> } {
  const outcomes: PlacedOutcome[] = [];
  let placing = true;
  const loop = async (): Promise<void> => {
    for (let i = 0; placing; i++) {
      const res = await call<{ session_id?: string; error?: { type: string } }>('POST', '/v1/calls', {
        token: apiKey,
        body: {
          to: i % 2 ? '+14155550100' : '+14155550101',
          from: FROM_NUMBER,
          agent_config: { prompt: 'Hi' },
          test_mode: true,
        },
      });
      outcomes.push({
        status: res.status,
        retryAfter: res.headers.get('retry-after'),
        phase: phase(),
        ...(res.body?.error ? { type: res.body.error.type } : {}),
        ...(res.body?.session_id ? { sessionId: res.body.session_id } : {}),
      });
      if (res.status === 503) await new Promise((r) => setTimeout(r, 100));
    }
  };
  const loops = Array.from({ length: workers }, () => loop());
  return {
    outcomes,
    async stop() {
      placing = false;
      await Promise.all(loops);
    },
  };
}

/**
 * A new tenant that owns `from` (FROM_NUMBER unless given), assigned by the operator, so that it may
 * place production calls from it (decision 178). A number has one owner: this takes it from any
 * tenant of the same service that owned it before.
 */
export async function productionTenant(h: CallsService, label: string, from = FROM_NUMBER): Promise<TenantInfo> {
  const tenant = await createTenant(h.call, h.svc.adminToken, label);
  await assignNumber(h.call, h.svc.adminToken, tenant.tenant_id, from);
  return tenant;
}

/**
 * A new tenant whose balance is depleted (a grant of -1 cent), once the credits read model says so;
 * it owns FROM_NUMBER (productionTenant), so its production calls are accepted and held.
 */
export async function depletedTenant(h: CallsService, label: string): Promise<TenantInfo> {
  const tenant = await productionTenant(h, label);
  const res = await h.call('POST', `/admin/v1/tenants/${tenant.tenant_id}/credits`, {
    token: h.svc.adminToken,
    body: { amount_cents: -1 },
  });
  if (res.status !== 200) throw new Error(`the grant answered ${res.status}`);
  await eventually(async () => {
    const { rows } = await h.db.pool.query('SELECT depleted FROM credit_balances WHERE tenant_id = $1', [
      tenant.tenant_id,
    ]);
    return rows[0]?.depleted === true;
  }, 20_000);
  return tenant;
}
