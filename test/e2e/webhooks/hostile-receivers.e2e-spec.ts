/**
 * Receivers that answer with bytes a text column refuses, and endpoints whose secret cannot be
 * opened, harm nobody else: each event reaches the healthy tenant exactly once, the hostile answers
 * are in the attempt log, and the process stays up (an unhandled rejection would fail this suite).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Pool } from 'pg';
import { PG_POOL } from '../../../src/infra/database/database.tokens';
import { eventually } from '../../support/eventually';
import { startListeningApp, ListeningApp } from '../../support/webhooks-app';
import {
  closeAllReceivers,
  consistently,
  createEndpoint,
  createTenant,
  header,
  sendTest,
  startReceiver,
  type Receiver,
} from '../../support/webhooks-harness';

jest.setTimeout(60_000);

/** "ok", NUL, bytes that are not UTF-8 (0xff 0xfe, a truncated sequence), then 8 KB more of them. */
const HOSTILE_BODY = Buffer.concat([
  Buffer.from([0x6f, 0x6b, 0x00, 0xff, 0xfe, 0xc3, 0x28, 0x00]),
  Buffer.alloc(8192, 0xff),
]);

interface RawReceiver {
  url: string;
  ids: string[];
  close(): Promise<void>;
}

async function startRawReceiver(status: number, body: Buffer): Promise<RawReceiver> {
  const ids: string[] = [];
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      ids.push(String(req.headers['x-webhook-id']));
      res.writeHead(status, { 'content-type': 'text/plain' });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    ids,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

let app: ListeningApp;
let pool: Pool;
const raws: RawReceiver[] = [];

beforeAll(async () => {
  app = await startListeningApp({
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    WEBHOOK_RETRY_SCHEDULE: '100ms,200ms',
    WEBHOOK_TIMEOUT_MS: '2000',
    WEBHOOK_SUSPEND_AFTER: '1000',
  });
  pool = app.t.app.get<Pool>(PG_POOL);
});

afterAll(async () => {
  await closeAllReceivers();
  for (const r of raws) await r.close();
  await app?.close();
});

async function attemptsOf(endpointId: string) {
  const { rows } = await pool.query<{
    delivery_id: string;
    http_status: number | null;
    error: string | null;
    response_body: string | null;
  }>(
    `SELECT a.delivery_id, a.http_status, a.error, a.response_body
     FROM webhook_attempts a JOIN webhook_deliveries d USING (delivery_id) WHERE d.endpoint_id = $1`,
    [endpointId],
  );
  return rows;
}

it('answers with NUL bytes and invalid UTF-8 are stored, attributed, and never make the healthy tenant receive twice', async () => {
  const okHostile = await startRawReceiver(200, HOSTILE_BODY);
  const failingHostile = await startRawReceiver(500, HOSTILE_BODY);
  raws.push(okHostile, failingHostile);
  const healthy: Receiver = await startReceiver(() => ({ status: 200 }));

  const hostileTenant = await createTenant(app.call, app.t.adminToken, 'Hostile Receivers');
  const healthyTenant = await createTenant(app.call, app.t.adminToken, 'Healthy Receiver');
  const okEp = await createEndpoint(app.call, hostileTenant.api_key, { url: okHostile.url });
  const failingEp = await createEndpoint(app.call, hostileTenant.api_key, { url: failingHostile.url });
  const healthyEp = await createEndpoint(app.call, healthyTenant.api_key, { url: healthy.url });

  // Interleaved, so that hostile and healthy results land in the same recording batches.
  const healthyIds: string[] = [];
  const okIds: string[] = [];
  for (let i = 0; i < 20; i++) {
    const [h, o] = await Promise.all([
      sendTest(app.call, healthyTenant.api_key, healthyEp.id),
      sendTest(app.call, hostileTenant.api_key, okEp.id),
      sendTest(app.call, hostileTenant.api_key, failingEp.id),
    ]);
    healthyIds.push(h);
    okIds.push(o);
  }

  await eventually(async () => {
    const received = new Set(healthy.requests.map((r) => header(r.headers, 'x-webhook-id')));
    return healthyIds.every((id) => received.has(id));
  }, 20_000);
  // Every failing delivery has used its retries (3 attempts each) and is recorded.
  await eventually(async () => (await attemptsOf(failingEp.id)).length === 60, 20_000);
  await consistently(() => undefined, 1_000);

  const healthyCounts = new Map<string, number>();
  for (const r of healthy.requests) {
    const id = header(r.headers, 'x-webhook-id')!;
    healthyCounts.set(id, (healthyCounts.get(id) ?? 0) + 1);
  }
  expect([...healthyCounts.values()].every((n) => n === 1)).toBe(true);
  expect(healthyCounts.size).toBe(20);

  // The hostile 200s were recorded once each: sent once, never again.
  const okAttempts = await attemptsOf(okEp.id);
  expect(okAttempts).toHaveLength(20);
  expect(okAttempts.every((a) => a.http_status === 200)).toBe(true);
  expect(okIds.every((id) => okHostile.ids.filter((x) => x === id).length === 1)).toBe(true);
  // Stored as text: NUL and the invalid bytes replaced, capped at 4 KB.
  for (const a of okAttempts) {
    expect(a.response_body!.startsWith('ok\ufffd')).toBe(true);
    expect(a.response_body!.includes('\u0000')).toBe(false);
    expect(Buffer.byteLength(a.response_body!)).toBeLessThanOrEqual(4096 * 3);
  }
  const failing = await attemptsOf(failingEp.id);
  expect(failing.every((a) => a.http_status === 500 && a.response_body!.startsWith('ok\ufffd'))).toBe(true);
});

it('an endpoint whose sealed secret cannot be opened fails only its own deliveries, with a clear attempt error', async () => {
  const healthy: Receiver = await startReceiver(() => ({ status: 200 }));
  const broken: Receiver = await startReceiver(() => ({ status: 200 }));
  const tenant = await createTenant(app.call, app.t.adminToken, 'Sealed Secrets');
  const healthyEp = await createEndpoint(app.call, tenant.api_key, { url: healthy.url });
  const brokenEp = await createEndpoint(app.call, tenant.api_key, { url: broken.url });
  // As if sealed under another WEBHOOK_SECRET_KEY (another instance, a lost key file).
  await pool.query(`UPDATE webhook_endpoints SET secret_sealed = 'v1.AAAA.BBBB.CCCC' WHERE endpoint_id = $1`, [
    brokenEp.id,
  ]);

  const ids: string[] = [];
  for (let i = 0; i < 5; i++) {
    ids.push(await sendTest(app.call, tenant.api_key, healthyEp.id));
    await sendTest(app.call, tenant.api_key, brokenEp.id);
  }
  await eventually(
    () => ids.every((id) => healthy.requests.some((r) => header(r.headers, 'x-webhook-id') === id)),
    20_000,
  );
  await eventually(async () => (await attemptsOf(brokenEp.id)).length >= 5, 20_000);
  const attempts = await attemptsOf(brokenEp.id);
  expect(
    attempts.every((a) => a.http_status === null && /signing secret could not be opened/.test(a.error ?? '')),
  ).toBe(true);
  expect(broken.requests).toHaveLength(0);
});
