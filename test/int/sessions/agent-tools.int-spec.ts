import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhook } from '../../../src/kernel/signing/verify-webhook';
import { startTestApp, type CreatedTenant, type TestApp } from '../../support/app';
import { eventually } from '../../support/eventually';
import { OpenAiStandIn } from '../../support/openai-stand-in';

/**
 * The agent with a model and a tool, end to end in the application: the dialogue model is an
 * OpenAI-compatible server on loopback (a stand-in for a hosted model, driven through the official
 * `openai` library), which asks for the agent's tool; the tenant's tool URL (a loopback server)
 * receives one call signed with the tenant's tool secret; the model gets the result and the agent
 * speaks its answer to a test persona. A tool slower than its timeout_ms gives `function.timeout`.
 */
jest.setTimeout(120_000);

interface ToolRequest {
  verified: boolean;
  body: { session_id: string; tool_call_id: string; name: string; arguments: Record<string, unknown> };
}

describe('the agent calls a tool through a model', () => {
  let t: TestApp;
  let tenant: CreatedTenant;
  let model: OpenAiStandIn;
  let tools: Server;
  let secret = '';
  const received: ToolRequest[] = [];
  let delayMs = 0;

  beforeAll(async () => {
    model = await OpenAiStandIn.start();
    tools = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        received.push({
          verified: verifyWebhook({ secret, headers: req.headers, rawBody: raw }).ok,
          body: JSON.parse(raw) as ToolRequest['body'],
        });
        setTimeout(() => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ forecast: 'sunny', high_c: 24 }));
        }, delayMs);
      });
    });
    await new Promise<void>((resolve) => tools.listen(0, '127.0.0.1', resolve));
    t = await startTestApp({
      env: {
        LLM_URL: model.url,
        LLM_API_KEY: model.apiKey,
        LLM_MODEL: 'stand-in-model',
        WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      },
    });
    tenant = await t.createTenant('Tools Co');
    const rotated = await t.asTenant(tenant.api_key, { method: 'POST', url: '/v1/tool_secret/rotate' });
    expect(rotated.statusCode).toBe(200);
    secret = rotated.json<{ secret: string }>().secret;
  });
  afterAll(async () => {
    await t?.close();
    await model?.close();
    await new Promise((resolve) => tools?.close(resolve));
  });

  const call = async (timeoutMs: number) => {
    const res = await t.asTenant(tenant.api_key, {
      method: 'POST',
      url: '/v1/calls',
      payload: {
        to: '+14155550100',
        from: '+14155550000',
        test_mode: true,
        agent_config: {
          prompt: 'You are a weather assistant. Use the tool.',
          first_message: 'Hello, weather desk.',
          tools: [
            {
              name: 'get_weather',
              description: 'The forecast for a day.',
              parameters: { type: 'object', properties: { day: { type: 'string' } } },
              url: `http://127.0.0.1:${(tools.address() as AddressInfo).port}/weather`,
              timeout_ms: timeoutMs,
            },
          ],
        },
        test_persona: { script: ['What is the weather tomorrow?'], pause_ms: 600 },
      },
    });
    expect(res.statusCode).toBe(201);
    const id = res.json<{ session_id: string }>().session_id;
    return eventually(
      async () => {
        const s = (await t.asTenant(tenant.api_key, { method: 'GET', url: `/v1/sessions/${id}` })).json<{
          status: string;
          transcript: { role: string; content: string }[] | null;
          function_invocations: { name: string; status: string; duration_ms: number }[];
          recording: object | null;
        }>();
        expect(s.recording).not.toBeNull();
        return { id, ...s };
      },
      90_000,
      500,
    );
  };

  it('the tool gets one signed call, the model its result, and the agent speaks the answer', async () => {
    received.length = 0;
    model.script.push(
      { toolCalls: [{ id: 'call_weather_1', name: 'get_weather', arguments: { day: 'tomorrow' } }] },
      { text: 'Tomorrow will be sunny, with a high of twenty four degrees.' },
    );
    const s = await call(5000);
    expect(received).toHaveLength(1);
    expect(received[0]).toEqual({
      verified: true,
      body: { session_id: s.id, tool_call_id: 'call_weather_1', name: 'get_weather', arguments: { day: 'tomorrow' } },
    });
    // The model's second request carries the tool's answer.
    const second = model.chatRequests().at(-1) as { messages: { role: string; content: string | null }[] };
    const toolMessage = second.messages.find((m) => m.role === 'tool');
    expect(toolMessage?.content).toContain('sunny');
    const agent = (s.transcript ?? []).filter((x) => x.role === 'agent').map((x) => x.content);
    expect(agent).toContain('Tomorrow will be sunny, with a high of twenty four degrees.');
    expect(s.function_invocations).toEqual([
      { name: 'get_weather', status: 'succeeded', duration_ms: expect.any(Number) },
    ]);
  });

  it('a tool slower than its timeout gives function.timeout, and the agent says it is still working', async () => {
    received.length = 0;
    delayMs = 2_500;
    model.script.push(
      { toolCalls: [{ id: 'call_weather_2', name: 'get_weather', arguments: { day: 'friday' } }] },
      { text: 'Friday will be sunny.' },
    );
    const s = await call(1000);
    delayMs = 0;
    expect(received).toHaveLength(1);
    const events = (await t.asTenant(tenant.api_key, { method: 'GET', url: '/v1/events?limit=100' })).json<{
      data: { type: string; data: Record<string, unknown> }[];
    }>();
    const timeouts = events.data.filter((e) => e.type === 'function.timeout' && e.data.session_id === s.id);
    expect(timeouts).toHaveLength(1);
    expect(timeouts[0]!.data).toMatchObject({ name: 'get_weather', timeout_ms: 1000 });
    const agent = (s.transcript ?? []).filter((x) => x.role === 'agent').map((x) => x.content);
    // One agent turn: the holding line, then the answer once the tool came back.
    expect(agent.join(' ')).toMatch(/still working.*Friday will be sunny\./);
  });
});
