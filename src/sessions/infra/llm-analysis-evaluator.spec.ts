/**
 * The model analysis against a real HTTP server on 127.0.0.1 that speaks the chat-completions
 * protocol, streamed as OpenAI streams it (Server-Sent Events, the content in pieces) or as one JSON
 * body: what it sends (path, bearer, model, `stream`, `response_format: json_object`, the transcript
 * with keypad turns, the schema, the criteria) and which answers it accepts. Every answer of the
 * wrong shape rejects, so the timer that called it retries.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AnalysisRequest } from '../domain/analysis-evaluator';
import { LlmAnalysisEvaluator, MAX_SUMMARY_CHARS } from './llm-analysis-evaluator';

interface Received {
  url: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}
type Reply = (res: ServerResponse) => void;

/** The content streamed in pieces of 7 characters, as OpenAI's chunks, ending with [DONE]. */
const streamed =
  (content: string): Reply =>
  (res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const chunk = (delta: object, finish: string | null) =>
      `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    res.write(chunk({ role: 'assistant', content: '' }, null));
    for (let i = 0; i < content.length; i += 7) res.write(chunk({ content: content.slice(i, i + 7) }, null));
    res.write(chunk({}, 'stop'));
    res.end('data: [DONE]\n\n');
  };
const json =
  (status: number, body: unknown): Reply =>
  (res) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  };
const completion = (content: string): Reply =>
  json(200, { choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] });

const SCHEMA = { type: 'object', properties: { booked: { type: 'boolean' } }, required: ['booked'] };
const REQUEST: AnalysisRequest = {
  transcript: [
    { role: 'agent', content: 'Hi, this is Ava from Northwind Dental.', t: 0.5 },
    { role: 'user', content: '', dtmf: '1', t: 2 },
    { role: 'user', content: 'Thursday at 3 works.', t: 4 },
  ],
  plan: { summary: true, structured_data: SCHEMA, success_criteria: 'A cleaning was booked.' },
  outcome: { status: 'completed', end_reason: 'transferred' },
};
const KEY = 'sk-test-0123456789abcdef';
const GOOD = { summary: ' Booked Thursday at 3. ', structured_data: { booked: true }, success: true };

describe('LlmAnalysisEvaluator (OpenAI-compatible chat completions)', () => {
  let server: Server;
  let base: string;
  const received: Received[] = [];
  const replies: Reply[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        received.push({ url: req.url ?? '', headers: req.headers, body: JSON.parse(text) as Record<string, unknown> });
        (replies.shift() ?? json(500, { error: { message: 'no reply queued' } }))(res);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => {
    received.length = 0;
    replies.length = 0;
  });

  const analyse = (request: AnalysisRequest = REQUEST, timeoutMs?: number) =>
    new LlmAnalysisEvaluator({
      url: base,
      apiKey: KEY,
      model: 'test-model',
      ...(timeoutMs ? { timeoutMs } : {}),
    }).analyse(request);

  it('a streamed answer: the summary trimmed, the data as given, success; the request is as specified', async () => {
    replies.push(streamed(JSON.stringify(GOOD)));
    await expect(analyse()).resolves.toEqual({
      summary: 'Booked Thursday at 3.',
      structured_data: { booked: true },
      success: true,
    });
    expect(received).toHaveLength(1);
    const [request] = received;
    expect(request!.url).toBe('/v1/chat/completions');
    expect(request!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request!.headers.accept).toBe('text/event-stream');
    expect(request!.body).toMatchObject({
      model: 'test-model',
      stream: true,
      response_format: { type: 'json_object' },
    });
    const messages = request!.body.messages as { role: string; content: string }[];
    expect(messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(messages[0]!.content).toContain('JSON object');
    const user = messages[1]!.content;
    // The transcript (keys pressed included), the schema, the criteria and the outcome.
    expect(user).toContain(
      'agent: Hi, this is Ava from Northwind Dental.\nuser: [pressed the keys 1]\nuser: Thursday at 3 works.',
    );
    expect(user).toContain(JSON.stringify(SCHEMA));
    expect(user).toContain('A cleaning was booked.');
    expect(user).toContain('status completed (end reason: transferred)');
  });

  it('a JSON answer (a server that does not stream) and a fenced ```json block are read too', async () => {
    replies.push(completion(JSON.stringify(GOOD)));
    await expect(analyse()).resolves.toMatchObject({ success: true });
    replies.push(streamed('```json\n' + JSON.stringify({ ...GOOD, success: false }) + '\n```'));
    await expect(analyse()).resolves.toMatchObject({ success: false });
  });

  it('what the plan does not ask for is null and not asked of the model', async () => {
    replies.push(streamed(JSON.stringify(GOOD)));
    await expect(analyse({ ...REQUEST, plan: { summary: true } })).resolves.toEqual({
      summary: 'Booked Thursday at 3.',
      structured_data: null,
      success: null,
    });
    const user = (received[0]!.body.messages as { content: string }[])[1]!.content;
    expect(user).toContain('- "structured_data": null.');
    expect(user).toContain('- "success": null.');
  });

  it('data that does not conform is returned as answered: the caller checks it against the schema', async () => {
    replies.push(streamed(JSON.stringify({ ...GOOD, structured_data: { booked: 'yes' } })));
    await expect(analyse()).resolves.toMatchObject({ structured_data: { booked: 'yes' } });
  });

  it('cuts a long summary', async () => {
    replies.push(streamed(JSON.stringify({ ...GOOD, summary: 'x'.repeat(5000) })));
    expect((await analyse()).summary).toHaveLength(MAX_SUMMARY_CHARS);
  });

  it.each([
    ['content that is not JSON', streamed('The call went well.'), 'the model answer is not JSON'],
    ['a JSON array', streamed('[1]'), 'the model answer is not a JSON object'],
    ['no summary', streamed(JSON.stringify({ ...GOOD, summary: '  ' })), 'the model answer has no summary'],
    [
      'success that is not a boolean',
      streamed(JSON.stringify({ ...GOOD, success: 'yes' })),
      'the model answer has no success (true or false)',
    ],
    ['a stream without content', streamed(''), 'the model answer has no choices[0].delta.content'],
    [
      'a streamed error',
      (res: ServerResponse) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end('data: {"error":{"message":"overloaded"}}\n\n');
      },
      'the model server streamed an error',
    ],
    ['an HTTP 500', json(500, { error: { message: `failed for ${KEY}` } }), 'the model server answered HTTP 500'],
    ['a body without choices', json(200, { id: 'x' }), 'the model answer has no choices[0].message.content'],
  ])('refuses %s', async (_name, reply, message) => {
    replies.push(reply);
    const error = await analyse().catch((err: unknown) => err);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe(message);
    expect((error as Error).message).not.toContain(KEY);
  });

  it('gives up on a server that does not answer within the timeout', async () => {
    replies.push(() => undefined); // never answers
    await expect(analyse(REQUEST, 200)).rejects.toThrow();
    server.closeAllConnections();
  });
});
