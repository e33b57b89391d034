/**
 * The model evaluator against a real HTTP server on 127.0.0.1 that speaks the chat-completions
 * protocol: what it sends (path, bearer, model, the JSON schema with the codes as an enum) and which
 * answers it accepts. Every answer but a valid one rejects, so the timer that called it retries.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chatCompletionsUrl, LlmDispositionEvaluator, parseAnswer } from './llm-disposition-evaluator';

interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}

type Reply = (res: ServerResponse) => void;

const json =
  (status: number, body: unknown): Reply =>
  (res) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  };
const completion = (content: unknown): Reply =>
  json(200, {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    model: 'test-model',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
  });

const DISPOSITIONS = [
  { code: 'not_interested', description: 'The contact declined' },
  { code: 'appointment_booked', description: 'An appointment was booked' },
];
const TRANSCRIPT = [
  { role: 'agent' as const, content: 'Hi, this is Ava from Northwind Dental.', t: 0.5 },
  { role: 'agent' as const, t: 2 },
  { role: 'user' as const, content: 'Thursday at 3 works.', t: 4 },
];
const KEY = 'sk-test-0123456789abcdef';

describe('LlmDispositionEvaluator (OpenAI-compatible chat completions)', () => {
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
        received.push({
          method: req.method ?? '',
          url: req.url ?? '',
          headers: req.headers,
          body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
        });
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

  const evaluator = (over: { apiKey?: string | null; timeoutMs?: number } = {}) =>
    new LlmDispositionEvaluator({ url: base, apiKey: KEY, model: 'test-model', ...over });
  const evaluate = (e = evaluator()) => e.evaluate({ transcript: TRANSCRIPT, dispositions: DISPOSITIONS });

  it('a good answer: the code, the note, evaluator llm and the model; the request is as specified', async () => {
    replies.push(
      completion(JSON.stringify({ disposition_code: 'appointment_booked', disposition_note: ' Booked Thursday. ' })),
    );
    await expect(evaluate()).resolves.toEqual({
      code: 'appointment_booked',
      note: 'Booked Thursday.',
      evaluator: 'llm',
      model: 'test-model',
    });
    expect(received).toHaveLength(1);
    const [request] = received;
    expect(request).toMatchObject({ method: 'POST', url: '/v1/chat/completions' });
    expect(request!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.body.model).toBe('test-model');
    expect(request!.body.response_format).toEqual({
      type: 'json_schema',
      json_schema: {
        name: 'disposition',
        strict: true,
        schema: {
          type: 'object',
          properties: {
            disposition_code: { type: 'string', enum: ['not_interested', 'appointment_booked'] },
            disposition_note: { type: 'string' },
          },
          required: ['disposition_code', 'disposition_note'],
          additionalProperties: false,
        },
      },
    });
    const messages = request!.body.messages as { role: string; content: string }[];
    expect(messages.map((m) => m.role)).toEqual(['system', 'user']);
    // The codes with their descriptions, and what was said (a turn that is only a tool call is left out).
    expect(messages[1]!.content).toContain('- appointment_booked: An appointment was booked');
    expect(messages[1]!.content).toContain('agent: Hi, this is Ava from Northwind Dental.\nuser: Thursday at 3 works.');
  });

  it('without an API key, no Authorization header; an empty note is null', async () => {
    replies.push(completion(JSON.stringify({ disposition_code: 'not_interested', disposition_note: '' })));
    await expect(evaluate(evaluator({ apiKey: null }))).resolves.toMatchObject({
      code: 'not_interested',
      note: null,
    });
    expect(received[0]!.headers.authorization).toBeUndefined();
  });

  it('refuses content that is not JSON', async () => {
    replies.push(completion('appointment_booked, because they booked'));
    await expect(evaluate()).rejects.toThrow('the model answer is not JSON');
  });

  it('refuses a code outside the list', async () => {
    replies.push(completion(JSON.stringify({ disposition_code: 'callback_requested', disposition_note: 'Later.' })));
    await expect(evaluate()).rejects.toThrow(/outside the list/);
  });

  it('refuses an answer without one of the fields', async () => {
    replies.push(completion(JSON.stringify({ disposition_code: 'not_interested' })));
    await expect(evaluate()).rejects.toThrow('the model answer has no disposition_note');
    replies.push(completion(JSON.stringify({ disposition_note: 'Declined.' })));
    await expect(evaluate()).rejects.toThrow('the model answer has no disposition_code');
  });

  it('refuses an HTTP 500, without the API key in the error', async () => {
    replies.push(json(500, { error: { message: `upstream failed for key ${KEY}` } }));
    const error = await evaluate().catch((err: unknown) => err);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe('the model server answered HTTP 500');
    expect((error as Error).message).not.toContain(KEY);
  });

  it('refuses a body without a choices array, and a message without content (a refusal)', async () => {
    replies.push(json(200, { id: 'chatcmpl-2', object: 'chat.completion' }));
    await expect(evaluate()).rejects.toThrow('the model answer has no choices[0].message.content');
    replies.push(json(200, { choices: [{ message: { role: 'assistant', content: null, refusal: 'No.' } }] }));
    await expect(evaluate()).rejects.toThrow('the model answer has no choices[0].message.content');
    replies.push(json(200, 'not json at all'));
    await expect(evaluate()).rejects.toThrow('the model server answered a body that is not JSON');
  });

  it('gives up on a server that does not answer within the timeout', async () => {
    replies.push(() => undefined); // never answers
    await expect(evaluate(evaluator({ timeoutMs: 200 }))).rejects.toThrow();
    server.closeAllConnections();
  });
});

describe('chatCompletionsUrl', () => {
  it.each([
    ['http://127.0.0.1:8080/v1', 'http://127.0.0.1:8080/v1/chat/completions'],
    ['http://127.0.0.1:8080/v1/', 'http://127.0.0.1:8080/v1/chat/completions'],
    ['https://api.openai.com/v1', 'https://api.openai.com/v1/chat/completions'],
    ['http://localhost:11434', 'http://localhost:11434/chat/completions'],
    [
      'https://x.example/openai/v1?api-version=2024-10-21',
      'https://x.example/openai/v1/chat/completions?api-version=2024-10-21',
    ],
  ])('%s → %s', (base, url) => {
    expect(chatCompletionsUrl(base)).toBe(url);
  });
});

describe('parseAnswer', () => {
  it('cuts a long note to 1000 characters', () => {
    const content = JSON.stringify({ disposition_code: 'a', disposition_note: 'x'.repeat(5000) });
    expect(parseAnswer(JSON.stringify({ choices: [{ message: { content } }] }), ['a']).note).toHaveLength(1000);
  });

  it('refuses an answer that is a JSON array or string', () => {
    for (const content of ['["a"]', '"a"']) {
      expect(() => parseAnswer(JSON.stringify({ choices: [{ message: { content } }] }), ['a'])).toThrow(
        'the model answer is not a JSON object',
      );
    }
  });
});
