/**
 * Post-call analysis (docs/conversations-api.md, "Post-call analysis"; decision 193), on the whole
 * application and a real database, calls placed through POST /v1/calls and played by the simulator
 * at SIM_TIME_SCALE=0.01 (a persona call in real time). The model at LLM_URL is the OpenAI-compatible
 * stand-in on loopback (test/support/openai-stand-in.ts: it streams, as a hosted model does), and
 * the tenant's webhook endpoint a loopback receiver that checks each delivery's signature.
 *
 * With a model:
 * - a production call asks the model once it has ended: an answer whose structured_data does not
 *   conform to the agent's schema is retried, the next one stored (`session.analysis_completed` after
 *   session.ended, on GET /v1/sessions/{id}, delivered signed), once even when its timer runs again;
 * - structured_data that never conforms is stored as null after ANALYSIS_MAX_ATTEMPTS, with the
 *   summary and success of the last answer; a model that never answers gives the built-in analysis;
 * - a test-pool call (test mode, no persona) gets the built-in analysis and never asks the model;
 * - a test persona call, whose conversation runs on the model, is analysed by the model;
 * - no analysis without a plan, nor for a call that was never answered.
 * Without a model: the built-in analysis for a production call, and the 400s of a malformed plan.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { eventCatalog } from '../../../src/app.module';
import { verifyWebhook } from '../../../src/kernel/signing/verify-webhook';
import { TimersService } from '../../../src/runtime/timers/timers.service';
import { ANALYSIS_MAX_ATTEMPTS } from '../../../src/sessions/application/session-analysis';
import { analysisKey, TIMER } from '../../../src/sessions/application/session-reactor.processor';
import { TEST_NUMBERS } from '../../../src/sessions/domain/test-pool.scenarios';
import { CreatedTenant, startTestApp, TestApp } from '../../support/app';
import { eventually } from '../../support/eventually';
import { OpenAiStandIn } from '../../support/openai-stand-in';

jest.setTimeout(180_000);

/** The tenant's own number: production calls go out from it. */
const OWN_NUMBER = '+14155550177';
const SCHEMA = {
  type: 'object',
  properties: {
    appointment_booked: { type: 'boolean' },
    preferred_day: { type: ['string', 'null'] },
  },
  required: ['appointment_booked', 'preferred_day'],
  additionalProperties: false,
};
const CRITERIA = 'The caller booked an appointment.';
const FULL_PLAN = { summary: true, structured_data: SCHEMA, success_criteria: CRITERIA };
const GOOD = {
  summary: 'The caller booked a cleaning for Thursday at 3.',
  structured_data: { appointment_booked: true, preferred_day: 'Thursday' },
  success: true,
};
/** The scripted caller of +14155550100 says these first and last (test-pool.scenarios.ts). */
const BUILT_IN_SUMMARY =
  'The caller said: "Sure, what is it about?". Last: "Thursday at 3 works.". The call ended completed.';

interface StoredRow {
  type: string;
  data: Record<string, unknown>;
}
interface Delivery {
  verified: boolean;
  type: string;
  data: Record<string, unknown>;
}

/** What two apps share: placing calls, reading a session's events and its analysis timer. */
function helpers(app: () => TestApp, tenant: () => CreatedTenant) {
  const call = (payload: Record<string, unknown>) =>
    app().asTenant(tenant().api_key, {
      method: 'POST',
      url: '/v1/calls',
      payload: { to: TEST_NUMBERS.completed, from: OWN_NUMBER, ...payload },
    });
  const place = async (payload: Record<string, unknown>): Promise<string> => {
    const res = await call(payload);
    expect({ status: res.statusCode, body: res.json<unknown>() }).toMatchObject({ status: 201 });
    return res.json<{ session_id: string }>().session_id;
  };
  const eventsOf = async (sessionId: string): Promise<StoredRow[]> =>
    (
      await app().db.pool.query<StoredRow>(
        'SELECT type, data FROM events WHERE stream_id = $1 ORDER BY stream_position',
        [`session-${sessionId}`],
      )
    ).rows;
  const analysesOf = async (sessionId: string): Promise<StoredRow[]> =>
    (await eventsOf(sessionId)).filter((e) => e.type === 'session.analysis_completed');
  const analysisTimers = async (sessionId: string) =>
    (
      await app().db.pool.query<{ attempts: number; last_error: string | null }>(
        `SELECT attempts, last_error FROM timers WHERE kind = $1 AND payload->>'session_id' = $2`,
        [TIMER.analysis.name, sessionId],
      )
    ).rows;
  /** The session's one analysis, once stored. */
  const analysed = async (sessionId: string, timeoutMs = 30_000): Promise<StoredRow> => {
    const [found] = await eventually(async () => {
      const rows = await analysesOf(sessionId);
      expect(rows).toHaveLength(1);
      return rows;
    }, timeoutMs);
    return found!;
  };
  const session = async (sessionId: string) =>
    (await app().asTenant(tenant().api_key, { method: 'GET', url: `/v1/sessions/${sessionId}` })).json<{
      status: string;
      analysis: unknown;
    }>();
  /** The session ended, every processor saw it, and its analysis timer (if one was scheduled) has run to its end. */
  const settled = async (sessionId: string, status: string): Promise<void> => {
    await eventually(async () => {
      const { rows } = await app().db.pool.query<{ status: string }>(
        'SELECT status FROM sessions WHERE session_id = $1',
        [sessionId],
      );
      expect(rows[0]?.status).toBe(status);
      expect(await analysisTimers(sessionId)).toEqual([]);
      return true;
    }, 30_000);
  };
  /** Fast-forwards the analysis timer to its last try, due now (as if the tries before had failed too). */
  const lastTry = async (sessionId: string): Promise<void> => {
    await app().db.pool.query(`UPDATE timers SET attempts = $2, due_at = now() WHERE dedupe_key = $1`, [
      analysisKey(sessionId),
      ANALYSIS_MAX_ATTEMPTS - 1,
    ]);
    app().app.get(TimersService).poke();
  };
  return { call, place, eventsOf, analysesOf, analysisTimers, analysed, session, settled, lastTry };
}

async function fundedTenantWithNumber(t: TestApp, name: string): Promise<CreatedTenant> {
  const tenant = await t.createTenant(name);
  // Production calls are billed: a balance, so that none waits for a top-up (docs/credits.md).
  const granted = await t.admin({
    method: 'POST',
    url: `/admin/v1/tenants/${tenant.tenant_id}/credits`,
    payload: { amount_cents: 100_000 },
  });
  expect(granted.statusCode).toBe(200);
  const assigned = await t.admin({
    method: 'POST',
    url: `/admin/v1/tenants/${tenant.tenant_id}/phone_numbers`,
    payload: { phone_number: OWN_NUMBER },
  });
  expect(assigned.statusCode).toBe(201);
  return tenant;
}

describe('post-call analysis with a model at LLM_URL', () => {
  let t: TestApp;
  let tenant: CreatedTenant;
  let model: OpenAiStandIn;
  let receiver: Server;
  let secret = '';
  const deliveries: Delivery[] = [];
  const h = helpers(
    () => t,
    () => tenant,
  );

  beforeAll(async () => {
    model = await OpenAiStandIn.start();
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const envelope = JSON.parse(raw) as { type: string; data: Record<string, unknown> };
        deliveries.push({
          verified: verifyWebhook({ secret, headers: req.headers, rawBody: raw }).ok,
          type: envelope.type,
          data: envelope.data,
        });
        res.writeHead(204);
        res.end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    t = await startTestApp({
      env: {
        SIM_TIME_SCALE: '0.01',
        LLM_URL: model.url,
        LLM_API_KEY: model.apiKey,
        LLM_MODEL: 'stand-in-model',
        WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      },
    });
    tenant = await fundedTenantWithNumber(t, 'Analysis Co');
    const endpoint = await t.asTenant(tenant.api_key, {
      method: 'POST',
      url: '/v1/webhook_endpoints',
      payload: {
        url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
        events: ['session.ended', 'session.failed', 'session.analysis_completed'],
      },
    });
    expect(endpoint.statusCode).toBe(201);
    secret = endpoint.json<{ secret: string }>().secret;
  });
  afterAll(async () => {
    await t?.close();
    await model?.close();
    await new Promise((resolve) => receiver?.close(resolve));
  });
  beforeEach(() => {
    model.script.length = 0;
    model.requests.length = 0;
  });

  const answer = (content: object) => model.script.push({ text: JSON.stringify(content) });

  it('a production call: the model is asked after the end, a non-conforming answer retried, the next stored once and delivered', async () => {
    answer({ ...GOOD, structured_data: { appointment_booked: 'yes', preferred_day: 'Thursday' } });
    answer(GOOD);
    const sessionId = await h.place({
      test_mode: false,
      agent_config: { prompt: 'Book a cleaning.', analysis: FULL_PLAN },
    });
    // Until it is done, the session shows none.
    expect((await h.session(sessionId)).analysis).toBeNull();

    const stored = await h.analysed(sessionId);
    expect(stored.data).toEqual({ session_id: sessionId, analysis: GOOD });
    expect(eventCatalog.validatePayload('session.analysis_completed', stored.data)).toEqual([]);
    const types = (await h.eventsOf(sessionId)).map((e) => e.type);
    expect(types.indexOf('session.analysis_completed')).toBeGreaterThan(types.indexOf('session.ended'));
    expect(types.indexOf('session.analysis_requested')).toBe(types.indexOf('session.ended') + 1);

    // Two requests: the first answer did not conform to the schema.
    const requests = model.chatRequests();
    expect(requests).toHaveLength(2);
    for (const request of requests) {
      expect(request).toMatchObject({
        model: 'stand-in-model',
        stream: true,
        response_format: { type: 'json_object' },
      });
    }
    const prompt = JSON.stringify(requests[0]!.messages);
    expect(prompt).toContain('Thursday at 3 works.');
    // The schema as stored (jsonb keeps no key order).
    const schemaLine = (requests[0]!.messages as { content: string }[])[1]!.content
      .split('\n')
      .find((line) => line.startsWith('{'));
    expect(JSON.parse(schemaLine ?? 'null')).toEqual(SCHEMA);
    expect(prompt).toContain(CRITERIA);
    expect(model.requests.every((r) => r.authorization === `Bearer ${model.apiKey}`)).toBe(true);

    // The session shows it (read model), and the webhook delivered it, signed.
    await eventually(async () => expect((await h.session(sessionId)).analysis).toEqual(GOOD));
    const delivered = await eventually(() => {
      const found = deliveries.filter(
        (d) => d.type === 'session.analysis_completed' && d.data.session_id === sessionId,
      );
      expect(found).toHaveLength(1);
      return found[0]!;
    }, 20_000);
    expect(delivered).toEqual({
      verified: true,
      type: 'session.analysis_completed',
      data: { session_id: sessionId, analysis: GOOD },
    });

    // The work run again (a crash before its row was deleted): the decider stores nothing twice.
    await t.db.pool.query(
      `INSERT INTO timers (timer_id, kind, dedupe_key, due_at, payload) VALUES ($1, $2, NULL, now(), $3)`,
      [randomUUID(), TIMER.analysis.name, JSON.stringify({ tenant_id: tenant.tenant_id, session_id: sessionId })],
    );
    t.app.get(TimersService).poke();
    await h.settled(sessionId, 'completed');
    expect(await h.analysesOf(sessionId)).toHaveLength(1);
    expect(model.chatRequests()).toHaveLength(2);
  });

  it('structured_data that never conforms is stored as null after the last try, with the summary and success', async () => {
    const wrong = { ...GOOD, structured_data: { appointment_booked: true } };
    answer(wrong);
    const sessionId = await h.place({
      test_mode: false,
      agent_config: { prompt: 'Book a cleaning.', analysis: FULL_PLAN },
    });
    const [row] = await eventually(async () => {
      const rows = await h.analysisTimers(sessionId);
      expect(rows[0]?.last_error).toContain("does not conform to the agent's schema");
      return rows;
    }, 20_000);
    expect(row!.attempts).toBe(1);
    answer(wrong);
    await h.lastTry(sessionId);
    const stored = await h.analysed(sessionId);
    expect(stored.data).toEqual({
      session_id: sessionId,
      analysis: { summary: GOOD.summary, structured_data: null, success: true },
    });
    expect(model.chatRequests()).toHaveLength(2);
  });

  it('a model that never answers: the built-in analysis after the last try', async () => {
    // Nothing scripted: the stand-in answers 500.
    const sessionId = await h.place({
      test_mode: false,
      agent_config: { prompt: 'Book a cleaning.', analysis: FULL_PLAN },
    });
    await eventually(async () => {
      const rows = await h.analysisTimers(sessionId);
      expect(rows[0]?.last_error).toContain('HTTP 500');
    }, 20_000);
    await h.lastTry(sessionId);
    const stored = await h.analysed(sessionId);
    expect(stored.data).toEqual({
      session_id: sessionId,
      analysis: { summary: BUILT_IN_SUMMARY, structured_data: null, success: null },
    });
  });

  it('a test-pool call gets the built-in analysis and never asks the model', async () => {
    const sessionId = await h.place({
      test_mode: true,
      agent_config: { prompt: 'Book a cleaning.', analysis: FULL_PLAN },
    });
    const stored = await h.analysed(sessionId);
    expect(stored.data).toEqual({
      session_id: sessionId,
      analysis: { summary: BUILT_IN_SUMMARY, structured_data: null, success: null },
    });
    // Only what was asked: no summary unless asked.
    const criteriaOnly = await h.place({
      test_mode: true,
      to: TEST_NUMBERS.transfer,
      agent_config: { prompt: 'Hi.', analysis: { success_criteria: CRITERIA } },
    });
    expect((await h.analysed(criteriaOnly)).data).toEqual({
      session_id: criteriaOnly,
      analysis: { summary: null, structured_data: null, success: null },
    });
    expect(model.requests).toEqual([]);
  });

  it('no analysis without a plan, nor for a call that was never answered', async () => {
    const [noPlan, noAnswer] = await Promise.all([
      h.place({ test_mode: true, agent_config: { prompt: 'Hi.' } }),
      h.place({ test_mode: true, to: TEST_NUMBERS.noAnswer, agent_config: { prompt: 'Hi.', analysis: FULL_PLAN } }),
    ]);
    await Promise.all([h.settled(noPlan, 'completed'), h.settled(noAnswer, 'no_answer')]);
    for (const sessionId of [noPlan, noAnswer]) {
      const types = (await h.eventsOf(sessionId)).map((e) => e.type);
      expect({ sessionId, types }).toEqual({
        sessionId,
        types: expect.not.arrayContaining(['session.analysis_requested']),
      });
      expect((await h.session(sessionId)).analysis).toBeNull();
    }
    expect(model.requests).toEqual([]);
  });

  it('a persona call with an analysis plan, conversed on the model, is analysed by the model and delivered', async () => {
    // The agent's one answer to the persona's line, and spares in case the recogniser splits it.
    model.script.push(
      { text: 'You are booked for Thursday at three. Goodbye.' },
      { text: 'Goodbye.' },
      { text: 'Goodbye.' },
    );
    const res = await h.call({
      to: TEST_NUMBERS.completed,
      from: '+14155550000',
      test_mode: true,
      agent_config: { prompt: 'You book cleanings.', first_message: 'Hello, Northwind Dental.', analysis: FULL_PLAN },
      test_persona: { script: ['I would like to book a cleaning on Thursday.'], pause_ms: 600 },
    });
    expect(res.statusCode).toBe(201);
    const sessionId = res.json<{ session_id: string }>().session_id;
    await eventually(
      async () => expect(['completed', 'failed']).toContain((await h.session(sessionId)).status),
      120_000,
      500,
    );
    // The conversation is over: what the model answers next is the analysis (a try that took a spare is retried).
    model.script.length = 0;
    answer(GOOD);
    const stored = await h.analysed(sessionId, 60_000);
    expect(stored.data).toEqual({ session_id: sessionId, analysis: GOOD });
    const analysisRequest = model
      .chatRequests()
      .find((r) => (r.response_format as { type?: string } | undefined)?.type === 'json_object');
    expect(JSON.stringify(analysisRequest?.messages)).toContain('Hello, Northwind Dental.');
    await eventually(() => {
      expect(deliveries).toContainEqual({
        verified: true,
        type: 'session.analysis_completed',
        data: { session_id: sessionId, analysis: GOOD },
      });
    }, 20_000);
  });
});

describe('post-call analysis without LLM_URL', () => {
  let t: TestApp;
  let tenant: CreatedTenant;
  const h = helpers(
    () => t,
    () => tenant,
  );

  beforeAll(async () => {
    t = await startTestApp({ env: { SIM_TIME_SCALE: '0.01' } });
    tenant = await fundedTenantWithNumber(t, 'Built-in Analysis Co');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a production call gets the built-in analysis: the summary, no structured data, no verdict', async () => {
    const sessionId = await h.place({
      test_mode: false,
      to: TEST_NUMBERS.transfer,
      agent_config: { prompt: 'Book a cleaning.', analysis: FULL_PLAN },
    });
    const stored = await h.analysed(sessionId);
    expect(stored.data).toEqual({
      session_id: sessionId,
      analysis: {
        summary:
          'The caller said: "Sure, what is it about?". Last: "I would rather talk to a person about my bill.". The call ended completed (transferred).',
        structured_data: null,
        success: null,
      },
    });
    await eventually(async () => expect((await h.session(sessionId)).analysis).toEqual(stored.data.analysis));
  });

  describe('a malformed plan is a 400 naming the field', () => {
    const cases: [string, unknown, string, RegExp][] = [
      ['a plan that is not an object', 'summary', 'agent_config.analysis', /must be an object/],
      ['a plan that is null', null, 'agent_config.analysis', /must not be null/],
      [
        'an empty plan',
        {},
        'agent_config.analysis',
        /must ask for something: summary: true, structured_data or success_criteria/,
      ],
      ['a plan that asks nothing', { summary: false }, 'agent_config.analysis', /must ask for something/],
      ['summary "yes"', { summary: 'yes' }, 'agent_config.analysis.summary', /boolean/],
      ['an unknown field', { summary: true, sumary: true }, 'agent_config.analysis.sumary', /Unknown field/],
      [
        'structured_data an array',
        { structured_data: [1] },
        'agent_config.analysis.structured_data',
        /must be a JSON Schema object/,
      ],
      [
        'structured_data a string',
        { structured_data: 'object' },
        'agent_config.analysis.structured_data',
        /must be a JSON Schema object/,
      ],
      [
        'structured_data with an unknown type',
        { structured_data: { type: 'objekt' } },
        'agent_config.analysis.structured_data',
        /is not a JSON Schema ajv can compile/,
      ],
      [
        'structured_data with a misspelt keyword',
        { structured_data: { type: 'object', requried: ['a'] } },
        'agent_config.analysis.structured_data',
        /unknown keyword: "requried"/,
      ],
      [
        'structured_data with a pattern',
        { structured_data: { type: 'object', properties: { a: { type: 'string', pattern: '^(a+)+$' } } } },
        'agent_config.analysis.structured_data',
        /must not use pattern or patternProperties/,
      ],
      [
        'structured_data over 16 KB',
        { structured_data: { type: 'object', description: 'x'.repeat(17_000) } },
        'agent_config.analysis.structured_data',
        /16384 bytes/,
      ],
      [
        'success_criteria empty',
        { success_criteria: '' },
        'agent_config.analysis.success_criteria',
        /success_criteria/,
      ],
      [
        'success_criteria blank',
        { success_criteria: '   ' },
        'agent_config.analysis.success_criteria',
        /must not be blank/,
      ],
      [
        'success_criteria over 2000',
        { success_criteria: 'c'.repeat(2001) },
        'agent_config.analysis.success_criteria',
        /2000/,
      ],
      [
        'success_criteria a number',
        { success_criteria: 1 },
        'agent_config.analysis.success_criteria',
        /must be a string/,
      ],
    ];
    it.each(cases)('refuses %s', async (_what, analysis, param, message) => {
      const res = await h.call({ test_mode: true, agent_config: { prompt: 'Hi.', analysis } });
      expect({ status: res.statusCode, body: res.json<unknown>() }).toEqual({
        status: 400,
        body: {
          error: expect.objectContaining({
            type: 'invalid_request',
            param,
            message: expect.stringMatching(message),
          }) as unknown,
        },
      });
    });

    it('takes each part alone, and a campaign keeps the plan as given', async () => {
      for (const analysis of [
        { summary: true },
        { structured_data: SCHEMA },
        { success_criteria: CRITERIA },
        FULL_PLAN,
      ]) {
        expect((await h.call({ test_mode: true, agent_config: { prompt: 'Hi.', analysis } })).statusCode).toBe(201);
      }
      const campaign = await t.asTenant(tenant.api_key, {
        method: 'POST',
        url: '/v1/campaigns',
        payload: {
          name: 'Analysed',
          from_number: OWN_NUMBER,
          test_mode: true,
          agent_config: { prompt: 'Hi.', analysis: FULL_PLAN },
        },
      });
      expect(campaign.statusCode).toBe(201);
      expect(campaign.json<{ agent_config: unknown }>().agent_config).toEqual({ prompt: 'Hi.', analysis: FULL_PLAN });
    });
  });
});
