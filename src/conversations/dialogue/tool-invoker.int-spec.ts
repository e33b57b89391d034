import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RecordingReporter } from '../../../test/support/recording-reporter';
import { generateWebhookSecret } from '../../kernel/signing/signing';
import { verifyWebhook } from '../../kernel/signing/verify-webhook';
import { hardLimitMs, TOOL_CALL_EVENT, ToolInvoker } from './tool-invoker';

/**
 * The tool invoker against a real loopback HTTP server: what the model gets back and what is
 * reported for each way a tool call can go (no speech here: conversation-actions.int-spec.ts has the
 * conversation's side).
 */
describe('ToolInvoker', () => {
  const secret = generateWebhookSecret();
  let server: Server;
  let base: string;
  const seen: { url: string; headers: Record<string, unknown>; verified: boolean }[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks);
        seen.push({
          url: req.url ?? '',
          headers: req.headers,
          verified: verifyWebhook({ secret, headers: req.headers, rawBody: raw }).ok,
        });
        const json = (status: number, body: string): void => {
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(body);
        };
        switch (req.url) {
          case '/ok':
            return json(200, '{"ok":true}');
          case '/text':
            return json(200, 'all good');
          case '/big':
            return json(200, JSON.stringify({ blob: 'x'.repeat(70 * 1024) }));
          case '/error':
            return json(503, '{"error":"down"}');
          case '/never':
            return; // never answers
          default:
            return json(404, '{}');
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(resolve));
  });

  function invoker(opts: { allowPrivateUrls?: boolean; secret?: string | null } = {}) {
    const reporter = new RecordingReporter(0);
    const tools = new ToolInvoker({
      tenantId: 'ten_1',
      sessionId: 'ses_1',
      secretOf: () => Promise.resolve(opts.secret === undefined ? secret : opts.secret),
      allowPrivateUrls: opts.allowPrivateUrls ?? true,
      reporter,
    });
    const slow: string[] = [];
    const call = (path: string, args = '{"a":1}', timeout_ms?: number) =>
      tools.invoke(
        { name: 'tool', url: path.startsWith('http') ? path : `${base}${path}`, timeout_ms },
        { id: 'call_9', name: 'tool', arguments: args },
        { signal: new AbortController().signal, onSlow: () => slow.push('slow') },
      );
    return { reporter, call, slow, tools };
  }

  it('answers the 2xx JSON body, signed as webhooks are, as a tool.call event', async () => {
    const { reporter, call } = invoker();
    await expect(call('/ok')).resolves.toBe('{"ok":true}');
    const request = seen.at(-1)!;
    expect(request.verified).toBe(true);
    expect(request.headers['x-webhook-event']).toBe(TOOL_CALL_EVENT);
    expect(request.headers['webhook-id']).toBe('call_9');
    expect(reporter.ofKind('function_invoked')).toEqual([
      expect.objectContaining({ name: 'tool', status: 'succeeded' }),
    ]);
  });

  it.each([
    ['/text', '{"a":1}', /not JSON/],
    ['/big', '{"a":1}', /larger than 64 KB/],
    ['/error', '{"a":1}', /HTTP 503/],
    ['/ok', '{not json', /arguments are not valid JSON/],
    ['/ok', '[1,2]', /must be a JSON object/],
    ['ftp://example.com/x', '{}', /https/],
  ])('fails %s (arguments %s) with a message for the model', async (path, args, message) => {
    const { reporter, call } = invoker();
    const answer = JSON.parse(await call(path, args)) as { error: string };
    expect(answer.error).toMatch(message);
    expect(reporter.ofKind('function_invoked')[0]?.status).toBe('failed');
  });

  it('follows the webhook URL rules: http and loopback refused unless private URLs are allowed', async () => {
    const { call, reporter } = invoker({ allowPrivateUrls: false });
    const before = seen.length;
    expect((JSON.parse(await call('/ok')) as { error: string }).error).toMatch(/https/);
    expect((JSON.parse(await call('https://127.0.0.1:1/ok')) as { error: string }).error).toMatch(/non-public/);
    expect(seen.length).toBe(before);
    expect(reporter.ofKind('function_invoked').map((r) => r.status)).toEqual(['failed', 'failed']);
  });

  it('fails without a tool secret, calling nothing', async () => {
    const before = seen.length;
    const { call } = invoker({ secret: null });
    expect((JSON.parse(await call('/ok')) as { error: string }).error).toMatch(/no tool signing secret/);
    expect(seen.length).toBe(before);
  });

  it('reports function_timeout at timeout_ms and says so, then gives up at the hard limit (timeout)', async () => {
    const { call, reporter, slow } = invoker();
    const started = Date.now();
    const answer = JSON.parse(await call('/never', '{}', 200)) as { error: string };
    const took = Date.now() - started;
    expect(hardLimitMs(200)).toBe(600);
    expect(took).toBeGreaterThanOrEqual(590);
    expect(took).toBeLessThan(3000);
    expect(answer.error).toMatch(/did not answer within 600 ms/);
    expect(slow).toEqual(['slow']);
    expect(reporter.reports.map((r) => r.kind)).toEqual(['function_timeout', 'function_invoked']);
    expect(reporter.ofKind('function_timeout')[0]).toEqual({
      kind: 'function_timeout',
      function_id: 'call_9',
      name: 'tool',
      timeout_ms: 200,
    });
    expect(reporter.ofKind('function_invoked')[0]?.status).toBe('timeout');
    expect(hardLimitMs(5000)).toBe(15000);
    expect(hardLimitMs(60000)).toBe(90000);
  });
});
