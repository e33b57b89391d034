import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConversationHarness } from '../../../test/support/conversation-harness';
import { RecordingReporter } from '../../../test/support/recording-reporter';
import { generateWebhookSecret } from '../../kernel/signing/signing';
import { verifyWebhook } from '../../kernel/signing/verify-webhook';
import type { AgentTool } from '../dialogue/dialogue';
import { ModelDialogue } from '../dialogue/model-dialogue';
import { LINES } from '../dialogue/phrases';
import { ToolInvoker } from '../dialogue/tool-invoker';
import type { ChatDelta, ChatMessage, ChatModel, ChatTool } from '../engines/engines';
import type { TransferOutcome } from './conversation-reporter';
import { KEYS_GAP_MS } from './conversation';

/**
 * What the agent does on what it hears, for real (flite speaks, pocketsphinx recognises, a real
 * 20 ms clock): the built-in dialogue's transfer, opt-out and goodbye phrases; the end of a
 * conversation by hang-up and by its maximum length; and a model's tool calls, made to a real
 * loopback HTTP server that verifies their signature. The model is a scripted test double of the
 * ChatModel port (the OpenAI-compatible adapter has its own tests).
 */
describe('Conversation actions (real engines, real time)', () => {
  const harness = new ConversationHarness();
  afterEach(() => harness.hangUp());
  afterAll(() => harness.close());

  async function opened(reporter: RecordingReporter): Promise<void> {
    await reporter.until(() => reporter.turns('agent').length === 1, 10_000, 'the opening line');
  }

  it('transfers on a request for a human when the agent has a transfer_number: the line, the transfer, the end', async () => {
    const { reporter, user } = harness.call({ prompt: '', first_message: 'Hi.', transfer_number: '+14155550123' });
    await opened(reporter);
    user.say(await harness.speech('Transfer me to a human please.'));
    await reporter.until(() => reporter.ofKind('ended').length === 1, 15_000, 'the end');
    expect(reporter.turns('user')[0]?.content).toMatch(/human/);
    expect(reporter.turns('agent')[1]?.content).toBe(LINES.transferring);
    const kinds = reporter.reports.map((r) => r.kind);
    expect(kinds.slice(-2)).toEqual(['transfer', 'ended']);
    expect(reporter.ofKind('transfer')[0]?.number).toBe('+14155550123');
    expect(reporter.ofKind('ended')[0]?.reason).toBe('transferred');
  });

  it('says it cannot transfer without a transfer_number, and goes on', async () => {
    const { reporter, user } = harness.call({ prompt: '', first_message: 'Hi.' });
    await opened(reporter);
    user.say(await harness.speech('I want to speak to a representative.'));
    await reporter.until(() => reporter.turns('agent').length === 2, 15_000, 'the answer');
    expect(reporter.turns('agent')[1]?.content).toBe(LINES.cannotTransfer);
    expect(reporter.ofKind('transfer')).toHaveLength(0);
    expect(reporter.ofKind('ended')).toHaveLength(0);
  });

  it('takes an opt-out: reported, a goodbye, then the end', async () => {
    const { reporter, user } = harness.call({ prompt: '', first_message: 'Hi.' });
    await opened(reporter);
    user.say(await harness.speech('Please stop calling me.'));
    await reporter.until(() => reporter.ofKind('ended').length === 1, 15_000, 'the end');
    expect(reporter.ofKind('opt_out')).toHaveLength(1);
    expect(reporter.turns('agent')[1]?.content).toBe(LINES.optedOut);
    expect(reporter.ofKind('ended')[0]?.reason).toBe('goodbye');
  });

  it('ends on goodbye, and reports nothing after the end', async () => {
    const { reporter, user, link } = harness.call({ prompt: '', first_message: 'Hi.' });
    await opened(reporter);
    user.say(await harness.speech('Goodbye.'));
    await reporter.until(() => reporter.ofKind('ended').length === 1, 15_000, 'the end');
    expect(reporter.turns('agent')[1]?.content).toBe(LINES.goodbye);
    expect(reporter.ofKind('ended')[0]?.reason).toBe('goodbye');
    const count = reporter.reports.length;
    user.say(await harness.speech('Hello there.'));
    await user.done();
    await new Promise((r) => setTimeout(r, 1500));
    link.close();
    expect(reporter.reports).toHaveLength(count);
  });

  it('ends at max_duration_seconds, and when the call closes (hang-up)', async () => {
    const timed = harness.call({ prompt: '', first_message: 'Hi.', max_duration_seconds: 1 });
    const closed = harness.call({ prompt: '', first_message: 'Hi.' });
    await opened(closed.reporter);
    closed.link.close();
    await expect(closed.conversation.finished).resolves.toBe('hangup');
    await expect(timed.conversation.finished).resolves.toBe('max_duration');
    expect(timed.reporter.reports.at(-1)).toEqual({ kind: 'ended', reason: 'max_duration' });
  });

  it('answers keys pressed: one turn per run of keys (a pause or # ends it), "You pressed …"', async () => {
    const { reporter, link } = harness.call({ prompt: '', first_message: 'Hi.' });
    await opened(reporter);
    await link.callee.keypad!.press('1');
    await reporter.until(() => reporter.turns('agent').length === 2, 10_000, 'the answer to 1');
    expect(reporter.turns('user')).toEqual([
      { kind: 'turn', role: 'user', content: '', dtmf: '1', t: expect.any(Number) },
    ]);
    expect(reporter.turns('agent')[1]?.content).toBe('You pressed 1.');
    // Three keys 100 ms apart and # are one turn, answered at the # (no wait for a pause).
    const pressed = Date.now();
    await link.callee.keypad!.press('42#');
    await reporter.until(() => reporter.turns('user').length === 2, 10_000, 'the keypad turn');
    expect(Date.now() - pressed).toBeLessThan(KEYS_GAP_MS);
    expect(reporter.turns('user')[1]).toMatchObject({ content: '', dtmf: '42#' });
    await reporter.until(() => reporter.turns('agent').length === 3, 10_000, 'the answer to 42#');
    expect(reporter.turns('agent')[2]?.content).toBe('You pressed 4 2 pound.');
  });

  it('a key pressed while the agent speaks cuts it off (its turn holds what was played)', async () => {
    const long =
      'Thank you for calling. Our opening hours are nine to five, Monday to Friday, and ten to two on Saturday.';
    const { reporter, link } = harness.call({ prompt: '', first_message: long });
    // Wait until the greeting is being heard, then press.
    await new Promise((r) => setTimeout(r, 1500));
    await link.callee.keypad!.press('0');
    await reporter.until(() => reporter.turns('agent').length === 2, 10_000, 'the answer to 0');
    const greeting = reporter.turns('agent')[0]!.content;
    expect(greeting.length).toBeGreaterThan(0);
    expect(greeting.length).toBeLessThan(long.length);
    expect(reporter.turns('agent')[1]?.content).toBe('You pressed 0.');
  });

  it('a transfer the line refuses: reported, the agent says so, the call goes on; the next one goes through', async () => {
    const outcomes: TransferOutcome[] = [{ ok: false, reason: 'refused', sip_code: 603 }, { ok: true }];
    const asked: string[] = [];
    const line = {
      transfer: async (number: string): Promise<TransferOutcome> => {
        asked.push(number);
        await new Promise((r) => setTimeout(r, 300));
        return outcomes.shift()!;
      },
    };
    const { reporter, user, conversation } = harness.call(
      { prompt: '', first_message: 'Hi.', transfer_number: '+14155550123' },
      { line },
    );
    await opened(reporter);
    user.say(await harness.speech('Transfer me to a human please.'));
    await reporter.until(() => reporter.ofKind('transfer_failed').length === 1, 15_000, 'the failed transfer');
    expect(reporter.ofKind('transfer_failed')[0]).toEqual({
      kind: 'transfer_failed',
      number: '+14155550123',
      reason: 'refused',
      sip_code: 603,
    });
    await reporter.until(() => reporter.turns('agent').length === 3, 10_000, 'the apology');
    expect(reporter.turns('agent')[2]?.content).toBe(LINES.transferFailed);
    expect(reporter.ofKind('ended')).toHaveLength(0);
    user.say(await harness.speech('Transfer me to a human please.'));
    await expect(conversation.finished).resolves.toBe('transferred');
    expect(asked).toEqual(['+14155550123', '+14155550123']);
    const kinds = reporter.reports.map((r) => r.kind);
    expect(kinds.filter((k) => k === 'transfer')).toHaveLength(2);
    expect(kinds.at(-1)).toBe('ended');
  });

  describe('with a model and tools', () => {
    const secret = generateWebhookSecret();
    const received: { path: string; body: Record<string, unknown>; verified: boolean; scheme?: string }[] = [];
    let server: Server;
    let base: string;
    beforeAll(async () => {
      server = createServer((req, res) => {
        void readBody(req).then(async (raw) => {
          const result = verifyWebhook({ secret, headers: req.headers, rawBody: raw });
          received.push({
            path: req.url ?? '',
            body: JSON.parse(raw.toString('utf8')) as Record<string, unknown>,
            verified: result.ok,
            scheme: result.ok ? result.scheme : undefined,
          });
          if (req.url === '/slow') await new Promise((r) => setTimeout(r, 1200));
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ forecast: req.url === '/slow' ? 'rainy' : 'sunny' }));
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise((resolve) => server.close(resolve)));

    it('calls a tool, signed, gives the model its result, speaks it; a slow tool gives function_timeout and "still working"; end_call ends', async () => {
      const tools: AgentTool[] = [
        { name: 'get_weather', description: 'The weather in a city', url: `${base}/weather` },
        { name: 'slow_weather', url: `${base}/slow`, timeout_ms: 500 },
      ];
      const agent = { prompt: 'You are a weather agent.', first_message: 'Hi.', tools };
      const reporter = new RecordingReporter();
      const model = new ScriptedModel();
      const invoker = new ToolInvoker({
        tenantId: 'ten_1',
        sessionId: 'ses_test',
        secretOf: (tenantId) => Promise.resolve(tenantId === 'ten_1' ? secret : null),
        allowPrivateUrls: true,
        reporter,
      });
      const dialogue = new ModelDialogue(agent, model, invoker);
      const { user } = harness.call(agent, { dialogue, reporter });
      await opened(reporter);

      // 1. A tool that answers at once: one signed call, its result to the model, spoken.
      model.nextTool = 'get_weather';
      user.say(await harness.speech('What is the weather in Paris?'));
      await reporter.until(() => reporter.turns('agent').length === 2, 15_000, 'the answer with the tool result');
      expect(reporter.turns('agent')[1]?.content).toBe('Let me look that up. The weather is sunny.');
      expect(received).toHaveLength(1);
      expect(received[0]).toMatchObject({ path: '/weather', verified: true });
      expect(received[0]!.body).toEqual({
        session_id: 'ses_test',
        tool_call_id: 'call_1',
        name: 'get_weather',
        arguments: { city: 'Paris' },
      });
      expect(model.requests[0]!.tools.map((t) => t.name)).toEqual(['get_weather', 'slow_weather', 'end_call']);
      expect(model.requests[0]!.messages[0]).toEqual({ role: 'system', content: 'You are a weather agent.' });
      expect(model.requests[1]!.messages.at(-1)).toEqual({
        role: 'tool',
        tool_call_id: 'call_1',
        content: '{"forecast":"sunny"}',
      });
      expect(reporter.ofKind('function_invoked')[0]).toMatchObject({ name: 'get_weather', status: 'succeeded' });
      expect(reporter.ofKind('function_timeout')).toHaveLength(0);

      // 2. A tool slower than its timeout_ms: function_timeout, "still working", then its answer.
      model.nextTool = 'slow_weather';
      user.say(await harness.speech('And tomorrow?'));
      await reporter.until(() => reporter.turns('agent').length === 3, 15_000, 'the slow answer');
      expect(reporter.ofKind('function_timeout')).toEqual([
        { kind: 'function_timeout', function_id: 'call_2', name: 'slow_weather', timeout_ms: 500 },
      ]);
      expect(reporter.turns('agent')[2]?.content).toBe(
        `Let me look that up. ${LINES.stillWorking} The weather is rainy.`,
      );
      const slow = reporter.ofKind('function_invoked')[1]!;
      expect(slow).toMatchObject({ name: 'slow_weather', status: 'succeeded' });
      expect(slow.duration_ms).toBeGreaterThanOrEqual(1150);
      // function_timeout is reported before function_invoked.
      const kinds = reporter.reports.map((r) => r.kind);
      expect(kinds.indexOf('function_timeout')).toBeLessThan(kinds.lastIndexOf('function_invoked'));

      // 3. end_call ends the conversation after its goodbye.
      model.nextTool = 'end_call';
      user.say(await harness.speech('Goodbye.'));
      await reporter.until(() => reporter.ofKind('ended').length === 1, 15_000, 'the end');
      expect(reporter.ofKind('ended')[0]?.reason).toBe('end_call');
      expect(reporter.turns('agent').at(-1)?.content).toBe('Bye for now.');
      expect(received).toHaveLength(2);
      invoker.close();
    });

    it('hears the keys the caller pressed, and presses keys itself with send_dtmf (w pauses 500 ms)', async () => {
      const agent = { prompt: 'You get through phone menus.', first_message: 'Hi.' };
      const reporter = new RecordingReporter();
      const model = new KeysModel();
      const invoker = new ToolInvoker({
        tenantId: 'ten_1',
        sessionId: 'ses_test',
        secretOf: () => Promise.resolve(null),
        allowPrivateUrls: true,
        reporter,
      });
      const { link } = harness.call(agent, {
        dialogue: (transport) => new ModelDialogue(agent, model, invoker, transport.keypad ?? null),
        reporter,
      });
      const heard: { digit: string; at: number }[] = [];
      link.callee.keypad!.onDigit((digit) => heard.push({ digit, at: Date.now() }));
      await opened(reporter);
      await link.callee.keypad!.press('1');
      await reporter.until(() => reporter.turns('agent').length === 2, 15_000, 'the answer after the keys were sent');
      expect(reporter.turns('agent')[1]?.content).toBe('Pressing. Done.');
      expect(model.requests[0]!.tools.map((t) => t.name)).toEqual(['send_dtmf', 'end_call']);
      expect(model.requests[0]!.messages.at(-1)).toEqual({ role: 'user', content: '[The caller pressed the keys: 1]' });
      expect(heard.map((h) => h.digit)).toEqual(['2', '3']);
      expect(heard[1]!.at - heard[0]!.at).toBeGreaterThanOrEqual(550);
      expect(model.requests[1]!.messages.at(-1)).toEqual({
        role: 'tool',
        tool_call_id: 'keys_1',
        content: '{"status":"sent","digits":"2w3"}',
      });
      // Keys that are not keys are refused to the model, and none is pressed.
      model.digits = '12x';
      await link.callee.keypad!.press('9');
      await reporter.until(() => model.requests.length === 4, 15_000, 'the refused keys');
      expect(JSON.parse((model.requests[3]!.messages.at(-1) as { content: string }).content)).toHaveProperty('error');
      expect(heard).toHaveLength(2);
      invoker.close();
    });
  });
});

/** To keys it says "Pressing." and calls send_dtmf with `digits`; to the tool's result, "Done.". */
class KeysModel implements ChatModel {
  readonly requests: { messages: ChatMessage[]; tools: ChatTool[] }[] = [];
  digits = '2w3';
  private calls = 0;

  async *complete(request: { messages: ChatMessage[]; tools: ChatTool[] }): AsyncIterable<ChatDelta> {
    this.requests.push({ messages: [...request.messages], tools: request.tools });
    await new Promise((r) => setTimeout(r, 10));
    if (request.messages.at(-1)?.role === 'tool') {
      yield { type: 'text', text: 'Done.' };
      return;
    }
    yield { type: 'text', text: 'Pressing.' };
    const args = JSON.stringify({ digits: this.digits });
    yield { type: 'tool_calls', calls: [{ id: `keys_${++this.calls}`, name: 'send_dtmf', arguments: args }] };
  }
}

/**
 * The model's test double: to a user turn it answers "Let me look that up." and calls `nextTool`
 * (with call ids call_1, call_2, …); to a tool result it speaks the forecast it got.
 */
class ScriptedModel implements ChatModel {
  readonly requests: { messages: ChatMessage[]; tools: ChatTool[] }[] = [];
  nextTool = 'get_weather';
  private calls = 0;

  async *complete(request: {
    messages: ChatMessage[];
    tools: ChatTool[];
    signal?: AbortSignal;
  }): AsyncIterable<ChatDelta> {
    this.requests.push({ messages: request.messages, tools: request.tools });
    const last = request.messages.at(-1);
    const pause = (): Promise<void> => new Promise((r) => setTimeout(r, 20));
    if (last?.role === 'tool') {
      const forecast = (JSON.parse(last.content) as { forecast?: string }).forecast ?? 'unknown';
      for (const text of ['The weather ', 'is ', `${forecast}.`]) {
        await pause();
        yield { type: 'text', text };
      }
      return;
    }
    if (this.nextTool === 'end_call') {
      yield { type: 'text', text: 'Bye for now.' };
      yield { type: 'tool_calls', calls: [{ id: `call_${++this.calls}`, name: 'end_call', arguments: '{}' }] };
      return;
    }
    await pause();
    yield { type: 'text', text: 'Let me look ' };
    await pause();
    yield { type: 'text', text: 'that up.' };
    yield {
      type: 'tool_calls',
      calls: [{ id: `call_${++this.calls}`, name: this.nextTool, arguments: '{"city":"Paris"}' }],
    };
  }
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}
