/**
 * The live view (`GET /v1/sessions/{id}/live`, docs/conversations-api.md, "Live view"): the whole
 * application on a real database, listening on loopback, a test call played by the simulator at
 * SIM_TIME_SCALE=0.05, and a real HTTP client reading the Server-Sent Events as they come. The stream
 * tells the call from `queued` to `ended` and closes; `Last-Event-ID` goes on after an event without
 * repeating it; another tenant's session is a 404 with the API's error body. Partial transcripts
 * published where the call is carried reach its live views on that instance and on another one on
 * the same database (NOTIFY session_partials): without an id, not stored, throttled, and none of an
 * utterance after its user turn was told.
 */
import { get } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CommandBus } from '@nestjs/cqrs';
import type { Pool } from 'pg';
import { CallHost } from '../../../src/conversations';
import { EVENT_STORE, type EventStore } from '../../../src/event-store/event-store.port';
import { PG_POOL } from '../../../src/infra/database/database.tokens';
import { OpenRoomSessionCommand, SessionPartials, sessionSignals, sessionStream } from '../../../src/sessions';
import { TEST_NUMBERS } from '../../../src/sessions/domain/test-pool.scenarios';
import { CreatedTenant, startTestApp, TestApp } from '../../support/app';
import { eventually } from '../../support/eventually';

jest.setTimeout(120_000);

let t: TestApp;
let base: string;
let tenant: CreatedTenant;

beforeAll(async () => {
  t = await startTestApp({ env: { SIM_TIME_SCALE: '0.05' } });
  await t.app.listen(0, '127.0.0.1');
  base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
  tenant = await t.createTenant('Live Co');
});
afterAll(() => t?.close());

interface Message {
  id: number;
  event: string;
  data: Record<string, unknown>;
}

/** Reads the stream to its end (or `timeoutMs`): its status, content type and messages. */
async function follow(
  sessionId: string,
  apiKey: string,
  lastEventId?: number,
  timeoutMs = 60_000,
): Promise<{ status: number; type: string | null; messages: Message[]; body: string }> {
  const res = await fetch(`${base}/v1/sessions/${sessionId}/live`, {
    headers: {
      authorization: `Bearer ${apiKey}`,
      ...(lastEventId !== undefined ? { 'last-event-id': String(lastEventId) } : {}),
    },
    signal: AbortSignal.timeout(timeoutMs),
  });
  const body = await res.text();
  const messages = body
    .split('\n\n')
    .map((block) => block.split('\n').filter((line) => !line.startsWith(':') && line !== ''))
    .filter((lines) => lines.length > 0)
    .map((lines) => {
      const field = (name: string) => lines.find((l) => l.startsWith(`${name}: `))?.slice(name.length + 2) ?? '';
      return { id: Number(field('id')), event: field('event'), data: JSON.parse(field('data') || '{}') };
    });
  return { status: res.status, type: res.headers.get('content-type'), messages, body };
}

async function place(): Promise<string> {
  const res = await t.asTenant(tenant.api_key, {
    method: 'POST',
    url: '/v1/calls',
    payload: { to: TEST_NUMBERS.completed, from: '+14155550177', agent_config: { prompt: 'Hi.' }, test_mode: true },
  });
  expect(res.statusCode).toBe(201);
  return res.json<{ session_id: string }>().session_id;
}

it('tells a call as it happens, queued to ended, then closes', async () => {
  const id = await place();
  const live = await follow(id, tenant.api_key);
  expect(live.status).toBe(200);
  expect(live.type).toMatch(/^text\/event-stream/);
  const events = live.messages.map((m) => m.event);
  expect(live.messages[0]).toMatchObject({ event: 'status', data: { status: 'queued' } });
  expect(live.messages.some((m) => m.event === 'status' && m.data.status === 'in_progress')).toBe(true);
  expect(events.filter((e) => e === 'turn').length).toBeGreaterThanOrEqual(2);
  expect(live.messages.at(-1)).toMatchObject({ event: 'ended', data: { status: 'completed' } });
  // In the order they were stored, each once.
  const ids = live.messages.map((m) => m.id);
  expect([...ids].sort((a, b) => a - b)).toEqual(ids);
  expect(new Set(ids).size).toBe(ids.length);
  // The turns are the session's transcript, in order.
  const session = (await t.asTenant(tenant.api_key, { method: 'GET', url: `/v1/sessions/${id}` })).json<{
    transcript: unknown[];
  }>();
  expect(live.messages.filter((m) => m.event === 'turn').map((m) => m.data)).toEqual(session.transcript);

  // Reconnecting after the third message gives the rest, nothing twice.
  const third = live.messages[2]!.id;
  const again = await follow(id, tenant.api_key, third);
  expect(again.messages.map((m) => m.id)).toEqual(ids.filter((i) => i > third));
  expect(again.messages.at(-1)?.event).toBe('ended');
  // Back with the id of `ended` (as EventSource reconnects): closed at once, nothing sent.
  const after = await follow(id, tenant.api_key, ids.at(-1), 5_000);
  expect(after.status).toBe(200);
  expect(after.messages).toEqual([]);
});

it("is tenant-scoped: another tenant's session, or none, is a 404 with the error body", async () => {
  const id = await place();
  const other = await t.createTenant('Other Co');
  for (const [sessionId, key] of [
    [id, other.api_key],
    ['ses_doesnotexist0000000', tenant.api_key],
  ] as const) {
    const res = await fetch(`${base}/v1/sessions/${sessionId}/live`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(await res.json()).toMatchObject({ error: { type: 'not_found' } });
  }
  const unauthenticated = await fetch(`${base}/v1/sessions/${id}/live`);
  expect(unauthenticated.status).toBe(401);
});

/** A live view read as it comes: its messages so far (with whether each had an `id:` line). */
function watch(baseUrl: string, sessionId: string, apiKey: string) {
  const messages: (Message & { hasId: boolean })[] = [];
  let failure: Error | null = null;
  let buffer = '';
  // node:http, not fetch: closing destroys the socket at once (the server then ends the view).
  const req = get(`${baseUrl}/v1/sessions/${sessionId}/live`, { headers: { authorization: `Bearer ${apiKey}` } });
  req.on('error', (err) => (failure ??= err));
  req.on('response', (res) => {
    if (res.statusCode !== 200) failure = new Error(`live view: ${res.statusCode}`);
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      buffer += chunk;
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const lines = buffer
          .slice(0, end)
          .split('\n')
          .filter((line) => !line.startsWith(':') && line !== '');
        buffer = buffer.slice(end + 2);
        if (lines.length === 0) continue;
        const field = (name: string) => lines.find((l) => l.startsWith(`${name}: `))?.slice(name.length + 2) ?? '';
        messages.push({
          id: Number(field('id')),
          hasId: lines.some((l) => l.startsWith('id: ')),
          event: field('event'),
          data: JSON.parse(field('data') || '{}'),
        });
      }
    });
  });
  return {
    messages,
    partials: () => messages.filter((m) => m.event === 'partial_transcript'),
    check: () => {
      if (failure) throw failure;
    },
    close: () => {
      failure = null;
      req.destroy();
    },
  };
}

describe('partial_transcript', () => {
  let other: TestApp;
  let otherBase: string;
  beforeAll(async () => {
    // Another instance on the same database: it serves a live view of a call this one carries.
    other = await startTestApp({ database: t.db, env: { SIM_TIME_SCALE: '0.05' } });
    await other.app.listen(0, '127.0.0.1');
    otherBase = `http://127.0.0.1:${(other.app.getHttpServer().address() as AddressInfo).port}`;
  });
  afterAll(() => other?.close());

  it('tells partials to live views here and on another instance: no id, not stored, throttled, none after their turn', async () => {
    const sessionId = `ses_live${Date.now().toString(36)}`;
    await t.app.get(CommandBus).execute(
      new OpenRoomSessionCommand(tenant.tenant_id, {
        sessionId,
        roomId: `room_live${Date.now().toString(36)}`,
        clientReferenceId: null,
        agentConfig: { prompt: '' },
        startedAt: new Date().toISOString(),
      }),
    );
    await eventually(async () => {
      const res = await t.asTenant(tenant.api_key, { method: 'GET', url: `/v1/sessions/${sessionId}` });
      expect(res.statusCode).toBe(200);
    });
    const views = [watch(base, sessionId, tenant.api_key), watch(otherBase, sessionId, tenant.api_key)];
    try {
      // Both caught up (the session's status told), and both instances LISTEN for partials.
      await eventually(() => views.every((v) => (v.check(), v.messages.some((m) => m.event === 'status'))));
      const pool = t.app.get<Pool>(PG_POOL);
      await eventually(async () => {
        const { rows } = await pool.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE query = 'LISTEN session_partials'",
        );
        return rows[0]!.n >= 2;
      });

      // Published where the call is carried (CallHost's reporters publish through this service): the
      // first at once, then the newest of the 100 ms window.
      const partials = t.app.get(SessionPartials);
      expect(Reflect.get(t.app.get(CallHost), 'partials')).toBe(partials);
      for (const content of ['Hel', 'Hello', 'Hello the', 'Hello there'])
        partials.publish(sessionId, { content, t: 1.5 });
      for (const view of views)
        await eventually(() => expect(view.partials().map((m) => m.data.content)).toEqual(['Hel', 'Hello there']));
      await new Promise((r) => setTimeout(r, 300));
      for (const view of views) {
        expect(view.partials()).toHaveLength(2);
        expect(view.partials()[0]).toMatchObject({ hasId: false, data: { role: 'user', content: 'Hel', t: 1.5 } });
      }

      // The utterance's user turn is stored and told: a late partial of it is dropped, the next one's is told.
      await sessionSignals(t.app.get(CommandBus), tenant.tenant_id, sessionId).duringCall({
        kind: 'turn',
        role: 'user',
        content: 'Hello there.',
        t: 1.5,
      });
      for (const view of views) await eventually(() => view.messages.some((m) => m.event === 'turn'));
      await new Promise((r) => setTimeout(r, 150));
      partials.publish(sessionId, { content: 'Hello there', t: 1.5 });
      partials.publish(sessionId, { content: 'And', t: 4.2 });
      for (const view of views) {
        await eventually(() => view.partials().length === 3);
        const turnAt = view.messages.findIndex((m) => m.event === 'turn');
        const after = view.messages.slice(turnAt + 1).filter((m) => m.event === 'partial_transcript');
        expect(after.map((m) => m.data)).toEqual([{ role: 'user', content: 'And', t: 4.2 }]);
        // Stored events keep their ids, in order; partials have none.
        const ids = view.messages.filter((m) => m.hasId).map((m) => m.id);
        expect([...ids].sort((a, b) => a - b)).toEqual(ids);
        expect(view.messages.filter((m) => !m.hasId).every((m) => m.event === 'partial_transcript')).toBe(true);
      }

      // Never stored: the session's stream holds the turn, no partial.
      const stored = await t.app.get<EventStore>(EVENT_STORE).readStream(sessionStream(sessionId));
      expect(stored.some((e) => e.type.includes('partial'))).toBe(false);
      expect(stored.filter((e) => e.type === 'session.transcript_appended')).toHaveLength(1);
    } finally {
      for (const view of views) view.close();
    }
  });
});
