/**
 * The agent_config of the agent that talks (docs/conversations-api.md) and `test_persona`, on the
 * whole application and a real database:
 * - every refusal is a 400 with the common error body naming the field: a malformed tool (name,
 *   parameters, timeout), reserved and duplicate names, too many tools, a bad language, transfer
 *   number, max_duration_seconds or interruptible, and tool URLs by the webhook rules (http, a
 *   private address, credentials) on calls, campaigns, rooms and phone numbers;
 * - with WEBHOOK_ALLOW_PRIVATE_URLS=true a loopback http tool URL is accepted;
 * - a valid agent is stored normalised (language canonical, transfer number E.164) and shown;
 * - `test_persona` needs `test_mode: true`; a persona call keeps its persona in session.placed, is not
 *   played by the simulator (no sim.step timer, no signal) and keeps a watchdog, while a test call
 *   without one is played as before.
 */
import { CreatedTenant, startTestApp, TestApp } from '../../support/app';
import { eventually } from '../../support/eventually';

jest.setTimeout(90_000);

const PUBLIC_TOOL_URL = 'https://93.184.215.14/tools/book';
const PROMPT = 'You are Ava, a scheduling assistant.';
const tool = (over: Record<string, unknown> = {}) => ({ name: 'book', url: PUBLIC_TOOL_URL, ...over });

let app: TestApp;
let tenant: CreatedTenant;

beforeAll(async () => {
  app = await startTestApp({ env: { SIM_TIME_SCALE: '0.01' } });
  tenant = await app.createTenant();
});
afterAll(async () => {
  await app?.close();
});

const call = (agent: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  app.asTenant(tenant.api_key, {
    method: 'POST',
    url: '/v1/calls',
    payload: { to: '+14155550100', from: '+14155550000', test_mode: true, agent_config: agent, ...extra },
  });

function expectRefused(res: { statusCode: number; json: () => unknown }, param: string, message: RegExp): void {
  expect({ status: res.statusCode, body: res.json() }).toEqual({
    status: 400,
    body: {
      error: expect.objectContaining({ type: 'invalid_request', param, message: expect.stringMatching(message) }),
    },
  });
}

describe('agent_config validation (POST /v1/calls)', () => {
  const cases: [string, Record<string, unknown>, string, RegExp][] = [
    [
      'a tool name with a space',
      { tools: [tool({ name: 'book it' })] },
      'agent_config.tools[0].name',
      /name must be 1-64/,
    ],
    ['a tool name of 65 characters', { tools: [tool({ name: 'a'.repeat(65) })] }, 'agent_config.tools[0].name', /1-64/],
    [
      'a reserved tool name',
      { tools: [tool(), tool({ name: 'end_call' })] },
      'agent_config.tools[1].name',
      /transfer_call or end_call/,
    ],
    ['transfer_call', { tools: [tool({ name: 'transfer_call' })] }, 'agent_config.tools[0].name', /built-in/],
    [
      'duplicate names',
      { tools: [tool(), tool({ url: 'https://93.184.215.15/x' })] },
      'agent_config.tools',
      /unique names/,
    ],
    ['21 tools', { tools: Array.from({ length: 21 }, (_, i) => tool({ name: `t${i}` })) }, 'agent_config.tools', /20/],
    [
      'parameters that are an array',
      { tools: [tool({ parameters: [1] })] },
      'agent_config.tools[0].parameters',
      /JSON Schema object/,
    ],
    [
      'parameters that are a string',
      { tools: [tool({ parameters: 'x' })] },
      'agent_config.tools[0].parameters',
      /JSON Schema object/,
    ],
    [
      'parameters over 16 KB',
      { tools: [tool({ parameters: { type: 'object', description: 'x'.repeat(17_000) } })] },
      'agent_config.tools[0].parameters',
      /16384 bytes/,
    ],
    ['a timeout of 99 ms', { tools: [tool({ timeout_ms: 99 })] }, 'agent_config.tools[0].timeout_ms', /100/],
    ['a timeout of 60001 ms', { tools: [tool({ timeout_ms: 60_001 })] }, 'agent_config.tools[0].timeout_ms', /60000/],
    ['a tool without url', { tools: [{ name: 'book' }] }, 'agent_config.tools[0].url', /is required/],
    ['an unknown tool field', { tools: [tool({ method: 'GET' })] }, 'agent_config.tools[0].method', /Unknown field/],
    ['a tools object', { tools: { name: 'book' } }, 'agent_config.tools', /agent_config\.tools/],
    [
      'a description over 1000',
      { tools: [tool({ description: 'd'.repeat(1001) })] },
      'agent_config.tools[0].description',
      /1000/,
    ],
    ['a first_message over 1000', { first_message: 'h'.repeat(1001) }, 'agent_config.first_message', /1000/],
    ['a language that is not BCP 47', { language: 'english please' }, 'agent_config.language', /BCP 47/],
    ['a language with a bad subtag', { language: 'en-US-' }, 'agent_config.language', /BCP 47/],
    ['a transfer number not E.164', { transfer_number: '555-0100' }, 'agent_config.transfer_number', /international/],
    ['max_duration_seconds 0', { max_duration_seconds: 0 }, 'agent_config.max_duration_seconds', /1/],
    ['max_duration_seconds 3601', { max_duration_seconds: 3601 }, 'agent_config.max_duration_seconds', /3600/],
    ['interruptible "yes"', { interruptible: 'yes' }, 'agent_config.interruptible', /boolean/],
    ['endpointing_ms 99', { endpointing_ms: 99 }, 'agent_config.endpointing_ms', /100/],
    ['endpointing_ms 5001', { endpointing_ms: 5001 }, 'agent_config.endpointing_ms', /5000/],
    ['endpointing_ms 250.5', { endpointing_ms: 250.5 }, 'agent_config.endpointing_ms', /integer/],
    ['endpointing_ms "300"', { endpointing_ms: '300' }, 'agent_config.endpointing_ms', /integer/],
    ['a transfer_mode "hot"', { transfer_mode: 'hot' }, 'agent_config.transfer_mode', /cold, warm/],
    ['a transfer_mode true', { transfer_mode: true }, 'agent_config.transfer_mode', /cold, warm/],
    ['a blank transfer_summary', { transfer_summary: '   ' }, 'agent_config.transfer_summary', /blank/],
    ['an empty transfer_summary', { transfer_summary: '' }, 'agent_config.transfer_summary', /1/],
    ['a transfer_summary over 1000', { transfer_summary: 's'.repeat(1001) }, 'agent_config.transfer_summary', /1000/],
    ['a transfer_summary number', { transfer_summary: 7 }, 'agent_config.transfer_summary', /string/],
    ['a voicemail message number', { voicemail: { message: 7 } }, 'agent_config.voicemail.message', /string/],
    ['a blank voicemail message', { voicemail: { message: ' ' } }, 'agent_config.voicemail.message', /blank/],
    [
      'a voicemail message over 1000',
      { voicemail: { message: 'm'.repeat(1001) } },
      'agent_config.voicemail.message',
      /1000/,
    ],
  ];
  it.each(cases)('refuses %s', async (_what, fields, param, message) => {
    expectRefused(await call({ prompt: PROMPT, ...fields }), param, message);
  });

  it.each([
    ['http', 'http://93.184.215.14/tools', /must use https/],
    ['loopback', 'https://127.0.0.1/tools', /private|loopback|not public|public address/i],
    ['localhost', 'https://localhost/tools', /must not point to/],
    ['a private network', 'https://10.0.0.7/tools', /non-public address/],
    ['credentials', 'https://user:pw@93.184.215.14/tools', /credentials/],
    ['not a URL', 'tools/book', /absolute URL/],
  ])('refuses a tool URL that is %s, naming the tool', async (_what, url, message) => {
    const res = await call({ prompt: PROMPT, tools: [tool({ name: 'first', url: PUBLIC_TOOL_URL }), tool({ url })] });
    expectRefused(res, 'agent_config.tools[1].url', message);
    expect(res.json<{ error: { message: string } }>().error.message).toMatch(/^agent_config\.tools\[1\]\.url /);
  });

  it('says how to allow a private URL for development', async () => {
    const res = await call({ prompt: PROMPT, tools: [tool({ url: 'http://127.0.0.1:4000/tools' })] });
    expectRefused(res, 'agent_config.tools[0].url', /WEBHOOK_ALLOW_PRIVATE_URLS=true/);
  });

  it('stores a valid agent normalised, and a call without the new fields as before', async () => {
    const agent = {
      prompt: PROMPT,
      first_message: 'Hello from Ava!',
      language: 'fr-ca',
      transfer_number: '+1 415 555 0123',
      tools: [
        tool({
          description: 'Books a slot.',
          parameters: { type: 'object', properties: { time: { type: 'string' } } },
          timeout_ms: 2500,
        }),
      ],
      max_duration_seconds: 600,
      endpointing_ms: 300,
      interruptible: false,
      transfer_mode: 'warm',
      transfer_summary: 'A caller about their Tuesday appointment.',
    };
    const res = await call(agent, { to: '+14155550101' });
    expect(res.statusCode).toBe(201);
    const id = res.json<{ session_id: string }>().session_id;
    const { rows } = await app.db.pool.query<{ data: { agent_config: unknown } }>(
      `SELECT data FROM events WHERE stream_id = $1 AND type = 'session.placed'`,
      [`session-${id}`],
    );
    expect(rows[0]?.data.agent_config).toEqual({
      ...agent,
      language: 'fr-CA',
      transfer_number: '+14155550123',
      tools: [{ ...agent.tools[0], url: PUBLIC_TOOL_URL }],
    });
    const plain = await call({ prompt: PROMPT }, { to: '+14155550101' });
    expect(plain.statusCode).toBe(201);
  });
});

describe('agent_config on the other routes', () => {
  const privateTool = { prompt: PROMPT, tools: [tool({ url: 'https://192.168.1.20/tools' })] };

  it('a room refuses a private tool URL and shows a valid agent as given', async () => {
    const refused = await app.asTenant(tenant.api_key, {
      method: 'POST',
      url: '/v1/rooms',
      payload: { agent_config: privateTool },
    });
    expectRefused(refused, 'agent_config.tools[0].url', /non-public address/);
    const made = await app.asTenant(tenant.api_key, {
      method: 'POST',
      url: '/v1/rooms',
      payload: { agent_config: { prompt: PROMPT, tools: [tool()], interruptible: true, language: 'en-US' } },
    });
    expect(made.statusCode).toBe(201);
    expect(made.json<{ agent_config: unknown }>().agent_config).toEqual({
      prompt: PROMPT,
      tools: [tool()],
      interruptible: true,
      language: 'en-US',
    });
  });

  it('a campaign refuses a private tool URL, and a reserved name', async () => {
    const body = (agent: unknown) => ({
      name: 'Spring recall',
      from_number: '+14155550000',
      test_mode: true,
      agent_config: agent,
    });
    expectRefused(
      await app.asTenant(tenant.api_key, { method: 'POST', url: '/v1/campaigns', payload: body(privateTool) }),
      'agent_config.tools[0].url',
      /non-public address/,
    );
    expectRefused(
      await app.asTenant(tenant.api_key, {
        method: 'POST',
        url: '/v1/campaigns',
        payload: body({ prompt: PROMPT, tools: [tool({ name: 'end_call' })] }),
      }),
      'agent_config.tools[0].name',
      /built-in/,
    );
  });

  it('a phone number refuses a private tool URL and a bad transfer number', async () => {
    const body = (agent: unknown) => ({ phone_number: '+14155550142', test_mode: true, agent_config: agent });
    expectRefused(
      await app.asTenant(tenant.api_key, { method: 'POST', url: '/v1/phone_numbers', payload: body(privateTool) }),
      'agent_config.tools[0].url',
      /non-public address/,
    );
    expectRefused(
      await app.asTenant(tenant.api_key, {
        method: 'POST',
        url: '/v1/phone_numbers',
        payload: body({ prompt: PROMPT, transfer_number: '+1' }),
      }),
      'agent_config.transfer_number',
      /international/,
    );
  });
});

describe('WEBHOOK_ALLOW_PRIVATE_URLS=true', () => {
  let dev: TestApp;
  afterAll(async () => {
    await dev?.close();
  });

  it('accepts a loopback http tool URL', async () => {
    dev = await startTestApp({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' } });
    const t = await dev.createTenant();
    const res = await dev.asTenant(t.api_key, {
      method: 'POST',
      url: '/v1/rooms',
      payload: { agent_config: { prompt: PROMPT, tools: [tool({ url: 'http://127.0.0.1:4000/tools' })] } },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json<{ agent_config: { tools: { url: string }[] } }>().agent_config.tools[0]?.url).toBe(
      'http://127.0.0.1:4000/tools',
    );
    // Still not ftp, nor credentials.
    const ftp = await dev.asTenant(t.api_key, {
      method: 'POST',
      url: '/v1/rooms',
      payload: { agent_config: { prompt: PROMPT, tools: [tool({ url: 'ftp://127.0.0.1/tools' })] } },
    });
    expectRefused(ftp, 'agent_config.tools[0].url', /https:\/\/ or http:\/\//);
  });
});

describe('test_persona', () => {
  const persona = { script: ['Hello, I would like an appointment.', 'Goodbye.'] };

  it.each([
    [
      'without test_mode',
      { test_persona: persona, test_mode: undefined },
      'test_persona',
      /only allowed with test_mode: true/,
    ],
    ['with test_mode false', { test_persona: persona, test_mode: false }, 'test_persona', /test_mode: true/],
    ['with no lines', { test_persona: { script: [] } }, 'test_persona.script', /at least 1/],
    ['with 51 lines', { test_persona: { script: Array(51).fill('Hi.') } }, 'test_persona.script', /50/],
    ['with an empty line', { test_persona: { script: ['Hi.', ''] } }, 'test_persona.script', /1 to 500/],
    ['with a line of 501', { test_persona: { script: ['x'.repeat(501)] } }, 'test_persona.script', /1 to 500/],
    ['with a number line', { test_persona: { script: [7] } }, 'test_persona.script', /string|1 to 500/],
    ['with pause_ms 10001', { test_persona: { ...persona, pause_ms: 10_001 } }, 'test_persona.pause_ms', /10000/],
    ['with pause_ms -1', { test_persona: { ...persona, pause_ms: -1 } }, 'test_persona.pause_ms', /0/],
    ['as a string', { test_persona: 'hello' }, 'test_persona', /object/],
  ])('is refused %s', async (_what, extra, param, message) => {
    expectRefused(await call({ prompt: PROMPT }, extra), param, message);
  });

  it('is kept in session.placed; the simulator does not play it; its watchdog stays', async () => {
    const res = await call({ prompt: PROMPT }, { test_persona: persona });
    expect(res.statusCode).toBe(201);
    const id = res.json<{ session_id: string }>().session_id;
    // A call to the same number without a persona is played (and ends) meanwhile.
    const played = await call({ prompt: PROMPT });
    const playedId = played.json<{ session_id: string }>().session_id;
    await eventually(async () => {
      const r = await app.asTenant(tenant.api_key, { method: 'GET', url: `/v1/sessions/${playedId}` });
      return r.json<{ status: string }>().status === 'completed';
    }, 60_000);
    const events = await app.db.pool.query<{ type: string; data: Record<string, unknown> }>(
      `SELECT type, data FROM events WHERE stream_id = $1 ORDER BY global_position`,
      [`session-${id}`],
    );
    expect(events.rows.slice(0, 2).map((e) => e.type)).toEqual(['session.placed', 'session.created']);
    expect(events.rows[0]?.data.test_persona).toEqual({ script: persona.script, pause_ms: 800 });
    // No simulator step: the watchdog, and the hand-over to the conversations context (session.persona,
    // which may have been taken already: the persona call then runs, in real time).
    const timers = await app.db.pool.query<{ kind: string; due_at: Date }>(
      `SELECT kind, due_at FROM timers WHERE payload->>'session_id' = $1 ORDER BY kind DESC`,
      [id],
    );
    const kinds = timers.rows.map((t) => t.kind);
    expect(kinds).toContain('session.watchdog');
    expect(kinds.filter((k) => k !== 'session.watchdog' && k !== 'session.persona')).toEqual([]);
    const watchdog = timers.rows.find((t) => t.kind === 'session.watchdog')!;
    // Real time: an hour and its slack from the placement, not scaled by SIM_TIME_SCALE.
    expect(watchdog.due_at.getTime() - Date.now()).toBeGreaterThan(3_500_000);
  });
});
