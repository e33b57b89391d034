/**
 * The Node client (clients/node) against the real service (node dist/main.js): a test call placed
 * with calls.create and followed with sessions.get to its end, its webhooks received by a real local
 * server and verified with webhooks.verify into typed events; a POST whose answer is lost is retried
 * with the same Idempotency-Key and places one call; verification refuses tampered bodies, wrong
 * secrets and old timestamps; errors, pagination and the long-polled events feed.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { VoiceAgent, VoiceAgentError, WebhookVerificationError, webhooks } from '../../../clients/node/src/index';
import type { WebhookEvent } from '../../../clients/node/src/index';
import { type CallsService, startCallsService } from '../../support/calls-harness';
import { eventually } from '../../support/eventually';
import { REPO_ROOT } from '../../support/process';
import { createTenant, type TenantInfo } from '../../support/webhooks-harness';

jest.setTimeout(120_000);

interface Delivery {
  rawBody: Buffer;
  headers: Record<string, string | string[] | undefined>;
  event: WebhookEvent | null;
  error: string | null;
}

/** A receiver that verifies each delivery with the client's webhooks.verify and answers 400 when it fails. */
async function startVerifyingReceiver(secret: () => string): Promise<{ url: string; got: Delivery[]; server: Server }> {
  const got: Delivery[] = [];
  const server = createServer((req, res) => {
    webhooks
      .rawBody(req)
      .then((rawBody) => {
        try {
          const event = webhooks.verify(rawBody, req.headers, secret());
          got.push({ rawBody, headers: req.headers, event, error: null });
          res.writeHead(204).end();
        } catch (err) {
          got.push({ rawBody, headers: req.headers, event: null, error: (err as WebhookVerificationError).reason });
          res.writeHead(400).end();
        }
      })
      .catch(() => res.writeHead(500).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`, got, server };
}

/** Narrowing on event.type: each branch sees its own payload type (a compile-time check as much as a runtime one). */
function describeEvent(event: WebhookEvent): string {
  switch (event.type) {
    case 'session.created':
      return `created ${event.data.to_number ?? '-'}`;
    case 'session.ended':
      return `ended ${event.data.end_reason} after ${event.data.duration_seconds} s`;
    case 'session.recording_completed':
      return `recording ${event.data.recording_id}`;
    default:
      return event.type;
  }
}

describe('Node client against the real service', () => {
  let service: CallsService;
  let tenant: TenantInfo;
  let client: VoiceAgent;
  let receiver: Awaited<ReturnType<typeof startVerifyingReceiver>>;
  let secret = '';

  beforeAll(async () => {
    service = await startCallsService({ SIM_TIME_SCALE: '0.01', WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
    tenant = await createTenant(service.call, service.svc.adminToken, 'Client Library');
    client = new VoiceAgent({ apiKey: tenant.api_key, baseUrl: service.svc.baseUrl });
    receiver = await startVerifyingReceiver(() => secret);
    const endpoint = await client.webhookEndpoints.create({ url: receiver.url, events: ['session.*'] });
    secret = endpoint.secret;
    expect(endpoint.secret).toMatch(/^whsec_/);
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => receiver?.server.close(() => resolve()));
    await service?.destroy();
  });

  it('the service serves the OpenAPI document the client was generated from', async () => {
    const served = await fetch(`${service.svc.baseUrl}/openapi.json`).then((r) => r.json());
    const committed = JSON.parse(readFileSync(join(REPO_ROOT, 'clients', 'node', 'openapi.json'), 'utf8'));
    expect(served).toEqual(committed);
  });

  it('reads the key and base URL from the environment at construction', async () => {
    const saved = { ...process.env };
    try {
      process.env.VOICE_AGENT_API_KEY = tenant.api_key;
      process.env.VOICE_AGENT_BASE_URL = service.svc.baseUrl;
      const fromEnv = new VoiceAgent();
      delete process.env.VOICE_AGENT_API_KEY;
      expect(fromEnv.baseUrl).toBe(service.svc.baseUrl);
      await expect(fromEnv.credits.get()).resolves.toMatchObject({ currency: 'USD' });
      expect(() => new VoiceAgent()).toThrow(/VOICE_AGENT_API_KEY/);
    } finally {
      process.env = saved;
    }
  });

  it('places a test call, follows it to its end, and receives its webhooks verified into typed events', async () => {
    const session = await client.calls.create({
      to: '+14155550100',
      from: '+14155550199',
      agent_config: { prompt: 'You are a friendly scheduling assistant.' },
      test_mode: true,
    });
    expect(session).toMatchObject({ status: 'queued', test_mode: true });
    const done = await client.sessions.waitUntilDone(session.session_id, { intervalMs: 100, timeoutMs: 30_000 });
    expect(done.status).toBe('completed');
    expect(done.transcript.length).toBeGreaterThan(0);

    const stored = await eventually(async () => {
      const events = await client.sessions.events(session.session_id);
      expect(events.map((e) => e.type)).toContain('session.recording_completed');
      return events;
    }, 30_000);
    const ours = await eventually(() => {
      const received = receiver.got.filter((d) => d.event && 'session_id' in d.event.data);
      const mine = received.filter((d) => (d.event?.data as { session_id: string }).session_id === session.session_id);
      expect(mine).toHaveLength(stored.length);
      return mine;
    }, 30_000);
    expect(receiver.got.filter((d) => d.error !== null)).toEqual([]);
    expect(new Set(ours.map((d) => d.event?.id))).toEqual(new Set(stored.map((e) => e.id)));
    const descriptions = ours.map((d) => describeEvent(d.event as WebhookEvent));
    expect(descriptions).toContain('created +14155550100');
    expect(descriptions.some((d) => /^ended completed after \d+ s$/.test(d))).toBe(true);
  });

  it('verification refuses a tampered body, a wrong secret and an old timestamp, with the reason', async () => {
    const delivery = await eventually(() => receiver.got.find((d) => d.event !== null) ?? false, 30_000);
    const { rawBody, headers } = delivery;
    expect(webhooks.verify(rawBody, headers, secret).id).toBe(delivery.event?.id);
    const reason = (fn: () => unknown): string => {
      try {
        fn();
      } catch (err) {
        expect(err).toBeInstanceOf(WebhookVerificationError);
        return (err as WebhookVerificationError).reason;
      }
      return 'accepted';
    };
    const tampered = Buffer.from(rawBody.toString('utf8').replace('"data":{', '"data":{"x":1,'));
    expect(reason(() => webhooks.verify(tampered, headers, secret))).toBe('signature_mismatch');
    expect(reason(() => webhooks.verify(rawBody, headers, webhooks.generateSecret()))).toBe('signature_mismatch');
    const sentAt = Number(headers['x-webhook-timestamp']) * 1000;
    expect(reason(() => webhooks.verify(rawBody, headers, secret, { now: sentAt + 301_000 }))).toBe(
      'timestamp_too_old',
    );
    expect(reason(() => webhooks.verify(rawBody, headers, secret, { now: sentAt - 301_000 }))).toBe(
      'timestamp_too_new',
    );
    expect(webhooks.verify(rawBody, headers, secret, { now: sentAt + 299_000 }).id).toBe(delivery.event?.id);
    expect(
      reason(() => webhooks.verify(rawBody, headers, secret, { now: sentAt + 61_000, toleranceSeconds: 60 })),
    ).toBe('timestamp_too_old');
    // The Standard Webhooks signature alone verifies too; the client's instance is the same helper.
    const standardOnly = Object.fromEntries(Object.entries(headers).filter(([k]) => !k.startsWith('x-webhook-')));
    expect(client.webhooks.verify(rawBody, standardOnly, secret).id).toBe(delivery.event?.id);
    expect(reason(() => webhooks.verify(rawBody, {}, secret))).toBe('missing_signature');
  });

  it('retries a POST whose answer was lost with the same Idempotency-Key, and the call is placed once', async () => {
    const keys: string[] = [];
    let firstAnswer: { session_id: string } | null = null;
    const flaky = new VoiceAgent({
      apiKey: tenant.api_key,
      baseUrl: service.svc.baseUrl,
      fetch: async (input, init) => {
        const request = new Request(input, init);
        if (request.method === 'POST') keys.push(request.headers.get('idempotency-key') ?? '');
        const response = await fetch(request);
        if (request.method === 'POST' && keys.length === 1) {
          // The service did the work, then the connection dropped before the answer arrived.
          firstAnswer = (await response.json()) as { session_id: string };
          throw new TypeError('fetch failed', {
            cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }),
          });
        }
        return response;
      },
    });
    const session = await flaky.calls.create({
      to: '+14155550101',
      from: '+14155550199',
      agent_config: { prompt: 'Retry me' },
      test_mode: true,
    });
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(session.session_id).toBe(firstAnswer!.session_id);
    const created = await eventually(async () => {
      const page = await client.events.page({ type: 'session.created', limit: 100 });
      const mine = page.data.filter((e) => e.type === 'session.created' && e.data.to_number === '+14155550101');
      expect(mine.length).toBeGreaterThan(0);
      return mine;
    });
    expect(created).toHaveLength(1);
  });

  it('rejects with a VoiceAgentError carrying status, type, message, param and request_id', async () => {
    const notFound = await client.sessions.get('ses_nope').catch((err: unknown) => err);
    expect(notFound).toBeInstanceOf(VoiceAgentError);
    expect(notFound).toMatchObject({ status: 404, type: 'not_found' });
    expect((notFound as VoiceAgentError).request_id).toMatch(/^req_/);
    const invalid = await client.calls
      .create({ to: 'nope', from: '+14155550199', agent_config: { prompt: 'x' }, test_mode: true })
      .catch((err: unknown) => err);
    expect(invalid).toMatchObject({ status: 400, type: 'invalid_request', param: 'to' });
    const badKey = new VoiceAgent({ apiKey: 'vap_wrong', baseUrl: service.svc.baseUrl, maxRetries: 0 });
    await expect(badKey.credits.get()).rejects.toMatchObject({ status: 401, type: 'authentication' });
    const down = new VoiceAgent({ apiKey: 'vap_x', baseUrl: 'http://127.0.0.1:9', maxRetries: 1 });
    await expect(down.credits.get()).rejects.toMatchObject({ status: 0, type: 'connection_error' });
  });

  it('sessions.list pages through every session with for await', async () => {
    const listed: string[] = [];
    for await (const s of client.sessions.list({ limit: 1 })) listed.push(s.session_id);
    expect(listed.length).toBeGreaterThanOrEqual(2);
    expect(new Set(listed).size).toBe(listed.length);
    const firstPage = await client.sessions.list({ limit: 1 });
    expect(firstPage).toMatchObject({ has_more: true });
    expect(firstPage.data[0]?.session_id).toBe(listed[0]);
  });

  it('events.page with wait is woken by a commit, returns empty when the time runs out, and is bounded per tenant', async () => {
    const tail = await client.events.latestId();
    expect(tail).not.toBeNull();
    const started = Date.now();
    const empty = await client.events.page({ after: tail ?? undefined, wait: 1 });
    expect(empty).toEqual({ data: [], has_more: false });
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);

    const held = client.events.page({ after: tail ?? undefined, wait: 20 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const placedAt = Date.now();
    await client.calls.create({
      to: '+14155550102',
      from: '+14155550199',
      agent_config: { prompt: 'x' },
      test_mode: true,
    });
    const page = await held;
    expect(page.data[0]?.type).toBe('session.created');
    expect(Date.now() - placedAt).toBeLessThan(2000);

    // A quiet tenant (no events at all): ten held requests, the eleventh is refused.
    const quiet = await createTenant(service.call, service.svc.adminToken, 'Quiet');
    const quietClient = new VoiceAgent({ apiKey: quiet.api_key, baseUrl: service.svc.baseUrl });
    const waits = Array.from({ length: 10 }, () => quietClient.events.page({ wait: 3 }));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const refused = await quietClient.events.page({ wait: 3 }, { maxRetries: 0 }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 429, type: 'rate_limited', param: 'wait' });
    expect(await Promise.all(waits)).toEqual(Array.from({ length: 10 }, () => ({ data: [], has_more: false })));
  });

  // Last: it stops the service.
  it('a held request answers at once when the service drains on SIGTERM', async () => {
    const quiet = await createTenant(service.call, service.svc.adminToken, 'Draining');
    const quietClient = new VoiceAgent({ apiKey: quiet.api_key, baseUrl: service.svc.baseUrl, maxRetries: 0 });
    const held = quietClient.events.page({ wait: 30 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const stoppedAt = Date.now();
    service.svc.kill('SIGTERM');
    await expect(held).resolves.toEqual({ data: [], has_more: false });
    expect(Date.now() - stoppedAt).toBeLessThan(5000);
    await service.svc.waitForExit(20_000);
  });
});
