/**
 * The client's webhook helpers without a service: sign and verify agree (both schemes), the reasons,
 * the web-standard Request helper, the Express-style middleware on a plain http server, the Fastify
 * raw-body scope; and the client refuses to run in a browser.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { VoiceAgent, VoiceAgentBrowserError, WebhookVerificationError, webhooks } from '../../clients/node/src';
import type { WebhookEvent } from '../../clients/node/src';
import { signDelivery } from '../../src/kernel/signing/signing';

const secret = webhooks.generateSecret();
const event = {
  id: '0195a1c4-7e2b-7c3d-9f10-4b6a8e2d5c71',
  type: 'session.started',
  tenant_id: 'ten_1',
  created_at: '2026-03-02T17:05:12.503Z',
  data: { session_id: 'ses_1', started_at: '2026-03-02T17:05:12.000Z' },
};
const body = JSON.stringify(event);

function reason(fn: () => unknown): string {
  try {
    fn();
    return 'accepted';
  } catch (err) {
    return err instanceof WebhookVerificationError ? err.reason : String(err);
  }
}

describe('client webhooks', () => {
  it('verifies what the platform signs (its own signing code), with either scheme', () => {
    const headers = signDelivery({
      secret,
      eventId: event.id,
      eventType: event.type,
      timestampSeconds: Math.floor(Date.now() / 1000),
      body,
    });
    expect(webhooks.verify(body, headers, secret)).toEqual(event);
    const standard = Object.fromEntries(Object.entries(headers).filter(([k]) => !k.startsWith('X-')));
    expect(webhooks.verify(Buffer.from(body), standard, secret).id).toBe(event.id);
    // And the client's own signing is what the platform's verifier expects, header for header.
    const signed = webhooks.sign(body, { id: event.id, type: event.type, secret, timestamp: 1_700_000_000 });
    const platform = signDelivery({
      secret,
      eventId: event.id,
      eventType: event.type,
      timestampSeconds: 1_700_000_000,
      body,
    });
    expect(signed).toEqual(Object.fromEntries(Object.entries(platform).map(([k, v]) => [k.toLowerCase(), v])));
  });

  it('narrows on event.type', () => {
    const verified: WebhookEvent = webhooks.verify(body, webhooks.sign(body, { ...event, secret }), secret);
    if (verified.type !== 'session.started') throw new Error('wrong type');
    expect(verified.data.started_at).toBe('2026-03-02T17:05:12.000Z');
  });

  it('says why it refuses', () => {
    const headers = webhooks.sign(body, { ...event, secret });
    expect(reason(() => webhooks.verify(body.replace('ses_1', 'ses_2'), headers, secret))).toBe('signature_mismatch');
    expect(reason(() => webhooks.verify(body, headers, webhooks.generateSecret()))).toBe('signature_mismatch');
    expect(reason(() => webhooks.verify(body, headers, secret, { now: Date.now() + 400_000 }))).toBe(
      'timestamp_too_old',
    );
    expect(reason(() => webhooks.verify(body, headers, secret, { now: Date.now() - 400_000 }))).toBe(
      'timestamp_too_new',
    );
    expect(reason(() => webhooks.verify(body, { ...headers, 'x-webhook-timestamp': 'soon' }, secret))).toBe(
      'invalid_timestamp',
    );
    const { 'x-webhook-timestamp': _, ...noTimestamp } = headers;
    expect(reason(() => webhooks.verify(body, noTimestamp, secret))).toBe('missing_timestamp');
    expect(reason(() => webhooks.verify(body, { 'content-type': 'application/json' }, secret))).toBe(
      'missing_signature',
    );
    const notJson = 'not json';
    expect(reason(() => webhooks.verify(notJson, webhooks.sign(notJson, { ...event, secret }), secret))).toBe(
      'invalid_body',
    );
    expect(() => webhooks.verify(event as unknown as string, headers, secret)).toThrow(/raw body/);
  });

  it('verifies a web-standard Request from its bytes', async () => {
    const request = new Request('http://localhost/webhooks', {
      method: 'POST',
      headers: webhooks.sign(body, { ...event, secret }),
      body,
    });
    await expect(webhooks.verifyRequest(request, secret)).resolves.toEqual(event);
  });

  it('the Express-style middleware reads the raw body, sets req.webhookEvent or answers 400', async () => {
    const middleware = webhooks.express(secret);
    const server = createServer((req, res) => {
      middleware(req, res, () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify((req as { webhookEvent?: WebhookEvent }).webhookEvent));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    try {
      const ok = await fetch(url, { method: 'POST', headers: webhooks.sign(body, { ...event, secret }), body });
      expect(ok.status).toBe(200);
      expect(await ok.json()).toEqual(event);
      const bad = await fetch(url, {
        method: 'POST',
        headers: webhooks.sign(body, { ...event, secret }),
        body: `${body} `,
      });
      expect(bad.status).toBe(400);
      expect(await bad.json()).toMatchObject({ error: 'signature_mismatch' });
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('fastifyRawBody gives the route its raw Buffer, in its scope only', async () => {
    const app = Fastify();
    await app.register(async (scope) => {
      webhooks.fastifyRawBody(scope);
      scope.post('/webhooks', async (request) => webhooks.verify(request.body as Buffer, request.headers, secret));
    });
    app.post('/other', async (request) => ({ parsed: request.body }));
    try {
      const res = await app.inject({
        method: 'POST',
        url: '/webhooks',
        headers: webhooks.sign(body, { ...event, secret }),
        payload: body,
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual(event);
      const other = await app.inject({ method: 'POST', url: '/other', payload: { a: 1 } });
      expect(other.json()).toEqual({ parsed: { a: 1 } });
    } finally {
      await app.close();
    }
  });

  it('the client refuses to run in a browser unless told otherwise', () => {
    const g = globalThis as { window?: unknown; process?: unknown };
    const saved = g.process;
    try {
      g.window = { document: {} };
      g.process = undefined;
      expect(() => new VoiceAgent({ apiKey: 'vap_x' })).toThrow(VoiceAgentBrowserError);
      expect(new VoiceAgent({ apiKey: 'vap_x', dangerouslyAllowBrowser: true })).toBeInstanceOf(VoiceAgent);
    } finally {
      g.process = saved;
      delete g.window;
    }
  });
});
