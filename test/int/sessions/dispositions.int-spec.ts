/**
 * Dispositions after campaign calls (docs/campaigns.md, "Dispositions"), on the whole
 * application and a real database, with calls placed as the campaign pacer will place them
 * (`PlaceCallCommand` with campaign, contact and the agent's codes) and played by the simulator at
 * SIM_TIME_SCALE=0.01. A fake OpenAI-compatible server on 127.0.0.1 stands for LLM_URL.
 *
 * - a test-mode call gets `session.disposition_set` from the built-in evaluator, after session.ended,
 *   once even when its timer runs again; the contact's identity is in session.ended and the Session;
 * - none when the agent gave one (+14155550109), after session.failed (+14155550101), outside a
 *   campaign, or without dispositions;
 * - a production call asks the model: an answer outside the list is refused and retried, the next
 *   answer stored once (`evaluator: "llm"`, the model's name); a model that keeps failing is given up
 *   after DISPOSITION_MAX_ATTEMPTS, with no event.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CommandBus } from '@nestjs/cqrs';
import { eventCatalog } from '../../../src/app.module';
import { TimersService } from '../../../src/runtime/timers/timers.service';
import { PlaceCallCommand } from '../../../src/sessions/index';
import { DISPOSITION_MAX_ATTEMPTS } from '../../../src/sessions/application/session-dispositions';
import { dispositionKey, TIMER } from '../../../src/sessions/application/session-reactor.processor';
import { TEST_NUMBERS } from '../../../src/sessions/domain/test-pool.scenarios';
import { CreatedTenant, startTestApp, TestApp } from '../../support/app';
import { eventually } from '../../support/eventually';

jest.setTimeout(90_000);

const FROM = '+14155550199';
const MODEL = 'fake-model-7b';
const API_KEY = 'sk-fake-disposition-key';
const CODES = [
  { code: 'not_interested', description: 'The contact declined' },
  { code: 'appointment_booked', description: 'An appointment was booked' },
];
const ADA = { email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace' };

interface StoredRow {
  type: string;
  data: Record<string, unknown>;
}

/** The fake model server: answers from a queue, then 500; keeps every request. */
class FakeModel {
  readonly requests: { url: string; authorization: string | undefined; body: Record<string, unknown> }[] = [];
  readonly replies: ((res: ServerResponse) => void)[] = [];
  private server!: Server;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        this.requests.push({
          url: req.url ?? '',
          authorization: req.headers.authorization,
          body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>,
        });
        const reply = this.replies.shift();
        if (reply) return reply(res);
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end('{"error":{"message":"overloaded"}}');
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  /** Queues a chat completion whose message content is this answer. */
  answer(content: Record<string, unknown>): void {
    this.replies.push((res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: `chatcmpl-${randomUUID()}`,
          object: 'chat.completion',
          model: MODEL,
          choices: [{ index: 0, message: { role: 'assistant', content: JSON.stringify(content) } }],
        }),
      );
    });
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

describe('dispositions after campaign calls', () => {
  let t: TestApp;
  let tenant: CreatedTenant;
  const model = new FakeModel();

  beforeAll(async () => {
    await model.start();
    t = await startTestApp({
      env: { SIM_TIME_SCALE: '0.01', LLM_URL: model.url, LLM_API_KEY: API_KEY, LLM_MODEL: MODEL },
    });
    tenant = await t.createTenant('Campaign Dispositions');
    // Production calls are billed: a balance, so that none waits for a top-up (docs/credits.md).
    const granted = await t.admin({
      method: 'POST',
      url: `/admin/v1/tenants/${tenant.tenant_id}/credits`,
      payload: { amount_cents: 100_000 },
    });
    expect(granted.statusCode).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
    await model.stop();
  });

  /** Places a call the way the campaign pacer does; a campaign call unless `campaign` is false. */
  const place = async (
    to: string,
    opts: { testMode?: boolean; campaign?: boolean; dispositions?: boolean } = {},
  ): Promise<string> => {
    const campaign = opts.campaign ?? true;
    const { sessionId } = await t.app.get(CommandBus).execute(
      new PlaceCallCommand(tenant.tenant_id, {
        toNumber: to,
        fromNumber: FROM,
        testMode: opts.testMode ?? true,
        agentConfig: { prompt: 'Book a cleaning.', ...((opts.dispositions ?? true) ? { dispositions: CODES } : {}) },
        ...(campaign
          ? { campaignId: 'cmp_01jf8yk2w9e5r1t7y3u6', contactId: `con_${randomUUID().slice(0, 8)}`, contact: ADA }
          : {}),
      }),
    );
    return sessionId;
  };
  const eventsOf = async (sessionId: string): Promise<StoredRow[]> =>
    (
      await t.db.pool.query<StoredRow>('SELECT type, data FROM events WHERE stream_id = $1 ORDER BY stream_position', [
        `session-${sessionId}`,
      ])
    ).rows;
  const dispositionsOf = async (sessionId: string): Promise<StoredRow[]> =>
    (await eventsOf(sessionId)).filter((e) => e.type === 'session.disposition_set');
  const dispositionTimers = async (sessionId: string) =>
    (
      await t.db.pool.query<{ attempts: number; last_error: string | null }>(
        `SELECT attempts, last_error FROM timers WHERE kind = $1 AND payload->>'session_id' = $2`,
        [TIMER.disposition.name, sessionId],
      )
    ).rows;
  /**
   * The session ended and every processor has seen it (the read model and the reactor apply a page in
   * one transaction), and its disposition timer, if the reactor scheduled one, has run to its end.
   */
  const settled = async (sessionId: string, status: string): Promise<void> => {
    await eventually(async () => {
      const { rows } = await t.db.pool.query<{ status: string }>('SELECT status FROM sessions WHERE session_id = $1', [
        sessionId,
      ]);
      expect(rows[0]?.status).toBe(status);
      expect(await dispositionTimers(sessionId)).toEqual([]);
      return true;
    }, 20_000);
  };

  it('a test-mode campaign call: session.disposition_set by the built-in evaluator after session.ended, once', async () => {
    const sessionId = await place(TEST_NUMBERS.completed);
    const [disposition] = await eventually(async () => {
      const found = await dispositionsOf(sessionId);
      expect(found).toHaveLength(1);
      return found;
    }, 20_000);
    expect(disposition!.data).toEqual({
      session_id: sessionId,
      campaign_id: 'cmp_01jf8yk2w9e5r1t7y3u6',
      contact_id: expect.stringMatching(/^con_/) as string,
      // The script's caller says "Booked for Thursday at 3".
      disposition_code: 'appointment_booked',
      disposition_note: expect.any(String) as string,
      evaluated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) as string,
      evaluator: 'simulator',
      model: null,
    });
    expect(eventCatalog.validatePayload('session.disposition_set', disposition!.data)).toEqual([]);
    const types = (await eventsOf(sessionId)).map((e) => e.type);
    expect(types.indexOf('session.disposition_set')).toBeGreaterThan(types.indexOf('session.ended'));

    // The contact's identity, in session.ended and on the Session resource (read model and list).
    const ended = (await eventsOf(sessionId)).find((e) => e.type === 'session.ended')!;
    expect(ended.data).toMatchObject(ADA);
    const session = await t.asTenant(tenant.api_key, { method: 'GET', url: `/v1/sessions/${sessionId}` });
    expect(session.json()).toMatchObject({ session_id: sessionId, status: 'completed', ...ADA });
    const list = await t.asTenant(tenant.api_key, { method: 'GET', url: '/v1/sessions?limit=100' });
    expect(list.json<{ data: { session_id: string }[] }>().data.find((s) => s.session_id === sessionId)).toMatchObject(
      ADA,
    );

    // The work run again (a crash before its row was deleted): the decider stores nothing twice.
    await t.db.pool.query(
      `INSERT INTO timers (timer_id, kind, dedupe_key, due_at, payload) VALUES ($1, $2, NULL, now(), $3)`,
      [randomUUID(), TIMER.disposition.name, JSON.stringify({ tenant_id: tenant.tenant_id, session_id: sessionId })],
    );
    t.app.get(TimersService).poke();
    await settled(sessionId, 'completed');
    expect(await dispositionsOf(sessionId)).toHaveLength(1);
    // Test calls never ask the model.
    expect(model.requests).toEqual([]);
  });

  it('no disposition when the agent gave one, after session.failed, outside a campaign, or without dispositions', async () => {
    const [agentGaveOne, noAnswer, direct, noCodes] = await Promise.all([
      place(TEST_NUMBERS.agentDisposition),
      place(TEST_NUMBERS.noAnswer),
      place(TEST_NUMBERS.completed, { campaign: false }),
      place(TEST_NUMBERS.completed, { dispositions: false }),
    ]);
    await Promise.all([
      settled(agentGaveOne, 'completed'),
      settled(noAnswer, 'no_answer'),
      settled(direct, 'completed'),
      settled(noCodes, 'completed'),
    ]);
    for (const sessionId of [agentGaveOne, noAnswer, direct, noCodes]) {
      expect({ sessionId, dispositions: await dispositionsOf(sessionId) }).toEqual({ sessionId, dispositions: [] });
    }
    const agentEvents = (await eventsOf(agentGaveOne)).map((e) => e.type);
    expect(agentEvents).toContain('session.agent_disposition_given');
    // session.failed carries the contact's identity too; a direct call has none.
    const failed = (await eventsOf(noAnswer)).find((e) => e.type === 'session.failed')!;
    expect(failed.data).toMatchObject({ status: 'no_answer', ...ADA });
    const directEnded = (await eventsOf(direct)).find((e) => e.type === 'session.ended')!;
    expect(directEnded.data).toMatchObject({ campaign_id: null, email: null, first_name: null, last_name: null });
    expect(model.requests).toEqual([]);
  });

  it('a production call asks the model: an answer outside the list is retried, the next one stored once, as llm', async () => {
    model.requests.length = 0;
    model.answer({ disposition_code: 'callback_requested', disposition_note: 'Call back on Friday.' });
    model.answer({ disposition_code: 'appointment_booked', disposition_note: 'Booked for Thursday at 3.' });
    const sessionId = await place(TEST_NUMBERS.completed, { testMode: false });
    const [disposition] = await eventually(async () => {
      const found = await dispositionsOf(sessionId);
      expect(found).toHaveLength(1);
      return found;
    }, 30_000);
    expect(disposition!.data).toMatchObject({
      session_id: sessionId,
      disposition_code: 'appointment_booked',
      disposition_note: 'Booked for Thursday at 3.',
      evaluator: 'llm',
      model: MODEL,
    });
    await settled(sessionId, 'completed');
    expect(await dispositionsOf(sessionId)).toHaveLength(1);
    expect(model.requests).toHaveLength(2);
    for (const request of model.requests) {
      expect(request.url).toBe('/v1/chat/completions');
      expect(request.authorization).toBe(`Bearer ${API_KEY}`);
      expect(request.body.model).toBe(MODEL);
      expect(request.body.response_format).toMatchObject({
        type: 'json_schema',
        json_schema: { schema: { properties: { disposition_code: { enum: CODES.map((c) => c.code) } } } },
      });
    }
    const prompt = JSON.stringify(model.requests[0]!.body.messages);
    expect(prompt).toContain('Thursday at 3 works.');
  });

  it('a model that keeps failing is given up after DISPOSITION_MAX_ATTEMPTS tries, with no event', async () => {
    model.requests.length = 0;
    const sessionId = await place(TEST_NUMBERS.completed, { testMode: false });
    // The first try fails (HTTP 500) and the timer backs off.
    const [row] = await eventually(async () => {
      const rows = await dispositionTimers(sessionId);
      expect(rows[0]?.last_error).toContain('HTTP 500');
      return rows;
    }, 20_000);
    expect(row!.attempts).toBe(1);
    // Fast-forward to the last try: due now, as if the earlier ones had failed too.
    await t.db.pool.query(`UPDATE timers SET attempts = $2, due_at = now() WHERE dedupe_key = $1`, [
      dispositionKey(sessionId),
      DISPOSITION_MAX_ATTEMPTS - 1,
    ]);
    t.app.get(TimersService).poke();
    await settled(sessionId, 'completed');
    expect(await dispositionsOf(sessionId)).toEqual([]);
    expect(model.requests).toHaveLength(2);
  });
});
