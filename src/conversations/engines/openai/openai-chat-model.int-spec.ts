import { OpenAiStandIn } from '../../../../test/support/openai-stand-in';
import { type ChatDelta, type ChatMessage, type ChatTool, EngineError, isAbortError } from '../engines';
import { OpenAiChatModel } from './openai-chat-model';

/**
 * The OpenAI-compatible chat model against the loopback stand-in of a hosted API, whose streamed
 * answers the tests script: text, tool calls in argument fragments, a stream held open, errors.
 */
describe('OpenAiChatModel (streamed /v1/chat/completions with tools)', () => {
  let standIn: OpenAiStandIn;
  beforeAll(async () => {
    standIn = await OpenAiStandIn.start();
  });
  afterAll(() => standIn.close());
  afterEach(() => {
    standIn.script.length = 0;
  });

  const model = (apiKey = standIn.apiKey, idleMs = 10_000) =>
    new OpenAiChatModel(
      { url: standIn.url, apiKey, model: 'gpt-stand-in' },
      { timeoutMs: 10_000, maxRetries: 1, idleMs },
    );
  const lookup: ChatTool = {
    name: 'lookup_order',
    description: 'Finds an order by its number.',
    parameters: { type: 'object', properties: { order: { type: 'string' } }, required: ['order'] },
  };

  async function collect(stream: AsyncIterable<ChatDelta>): Promise<ChatDelta[]> {
    const deltas: ChatDelta[] = [];
    for await (const delta of stream) deltas.push(delta);
    return deltas;
  }

  it('yields the text as it streams, in pieces', async () => {
    standIn.script.push({ text: 'Your order ships on Tuesday. Anything else?' });
    const deltas = await collect(
      model().complete({ messages: [{ role: 'user', content: 'When does it ship?' }], tools: [] }),
    );
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.every((d) => d.type === 'text')).toBe(true);
    expect(deltas.map((d) => (d.type === 'text' ? d.text : '')).join('')).toBe(
      'Your order ships on Tuesday. Anything else?',
    );
    // No tools: no `tools` in the request. The answer is bounded: max_tokens, LLM_MAX_TOKENS' default.
    expect(standIn.chatRequests().at(-1)).toMatchObject({ model: 'gpt-stand-in', stream: true, max_tokens: 512 });
    expect(standIn.chatRequests().at(-1)).not.toHaveProperty('tools');
  });

  it('sends the configured max_tokens with every request (LLM_MAX_TOKENS)', async () => {
    standIn.script.push({ text: 'Short.' });
    const bounded = new OpenAiChatModel(
      { url: standIn.url, apiKey: standIn.apiKey, model: 'gpt-stand-in' },
      { timeoutMs: 10_000, maxRetries: 1, idleMs: 10_000 },
      64,
    );
    await collect(bounded.complete({ messages: [{ role: 'user', content: 'Hi' }], tools: [] }));
    expect(standIn.chatRequests().at(-1)).toMatchObject({ max_tokens: 64 });
  });

  it('assembles tool calls streamed in argument fragments, and sends their results back', async () => {
    const args = { order: 'A-1042', note: 'caller asked twice, "urgent"' };
    standIn.script.push({
      toolCalls: [
        { id: 'call_a', name: 'lookup_order', arguments: args },
        { id: 'call_b', name: 'end_call', arguments: {} },
      ],
      fragment: 4,
    });
    const messages: ChatMessage[] = [
      { role: 'system', content: 'You are a support agent.' },
      { role: 'user', content: 'Where is order A-1042?' },
    ];
    const deltas = await collect(model().complete({ messages, tools: [lookup] }));
    expect(deltas).toEqual([
      {
        type: 'tool_calls',
        calls: [
          { id: 'call_a', name: 'lookup_order', arguments: JSON.stringify(args) },
          { id: 'call_b', name: 'end_call', arguments: '{}' },
        ],
      },
    ]);
    expect(JSON.parse((deltas[0] as { calls: { arguments: string }[] }).calls[0]!.arguments)).toEqual(args);
    expect(standIn.chatRequests().at(-1)?.tools).toEqual([
      {
        type: 'function',
        function: { name: 'lookup_order', description: lookup.description, parameters: lookup.parameters },
      },
    ]);

    // The dialogue sends the calls and their results back; the model answers with text.
    standIn.script.push({ text: 'It left the warehouse today.' });
    const calls = deltas[0]?.type === 'tool_calls' ? deltas[0].calls : [];
    const followUp: ChatMessage[] = [
      ...messages,
      { role: 'assistant', content: null, tool_calls: calls },
      { role: 'tool', tool_call_id: 'call_a', content: '{"status":"shipped"}' },
    ];
    const text = await collect(model().complete({ messages: followUp, tools: [lookup] }));
    expect(text.map((d) => (d.type === 'text' ? d.text : '')).join('')).toBe('It left the warehouse today.');
    const sent = standIn.chatRequests().at(-1)?.messages as Record<string, unknown>[];
    expect(sent.at(-2)).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'call_a', type: 'function', function: { name: 'lookup_order', arguments: JSON.stringify(args) } },
        { id: 'call_b', type: 'function', function: { name: 'end_call', arguments: '{}' } },
      ],
    });
    expect(sent.at(-1)).toEqual({ role: 'tool', tool_call_id: 'call_a', content: '{"status":"shipped"}' });
  });

  it('stops when aborted mid-stream: the abort error, and the connection is closed', async () => {
    standIn.script.push({ stallAfter: 'Let me look that up for' });
    const controller = new AbortController();
    const seen: string[] = [];
    const started = Date.now();
    const err = await (async () => {
      for await (const delta of model().complete({
        messages: [{ role: 'user', content: 'Hi' }],
        tools: [],
        signal: controller.signal,
      })) {
        if (delta.type === 'text') seen.push(delta.text);
        if (seen.length === 3) controller.abort();
      }
    })().catch((e: unknown) => e);
    expect(isAbortError(err)).toBe(true);
    expect(err).not.toBeInstanceOf(EngineError);
    expect(seen.join('')).toBe('Let me look ');
    expect(Date.now() - started).toBeLessThan(5000);
    // The stand-in sees the client go away (its held stream is closed).
    for (let i = 0; i < 50 && standIn.openResponses > 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(standIn.openResponses).toBe(0);
  });

  it('gives up on a stream that goes silent, with a timeout EngineError', async () => {
    standIn.script.push({ stallAfter: 'Hmm' });
    const err = await collect(
      model(standIn.apiKey, 300).complete({ messages: [{ role: 'user', content: 'Hi' }], tools: [] }),
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EngineError);
    expect((err as Error).message).toMatch(/chat model engine at .* did not answer in time \(300 ms\)/);
  });

  it('refuses a tool call without a name as an EngineError', async () => {
    const chunk = (delta: unknown) =>
      `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, delta, finish_reason: null }] })}\n\n`;
    standIn.answerNext(
      '/v1/chat/completions',
      'text/event-stream',
      chunk({ tool_calls: [{ index: 0, id: 'call_x', type: 'function', function: { arguments: '{}' } }] }) +
        'data: [DONE]\n\n',
    );
    await expect(
      collect(model().complete({ messages: [{ role: 'user', content: 'Hi' }], tools: [] })),
    ).rejects.toMatchObject({
      name: 'EngineError',
      message: expect.stringMatching(/called a tool without a name/),
    });
  });

  it('answers a wrong key with a 401 EngineError and a persistent 500 with a 500 one', async () => {
    await expect(
      collect(model('sk-nope').complete({ messages: [{ role: 'user', content: 'Hi' }], tools: [] })),
    ).rejects.toMatchObject({
      name: 'EngineError',
      engine: 'model',
      status: 401,
      message: expect.stringMatching(/401: Incorrect API key/),
    });
    standIn.failNext('/v1/chat/completions', 500, 2);
    const before = standIn.chatRequests().length;
    await expect(
      collect(model().complete({ messages: [{ role: 'user', content: 'Hi' }], tools: [] })),
    ).rejects.toMatchObject({ name: 'EngineError', status: 500, message: expect.stringMatching(/answered 500/) });
    expect(standIn.chatRequests().length - before).toBe(2);
  });
});
