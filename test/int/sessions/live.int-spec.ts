/**
 * The live view (`GET /v1/sessions/{id}/live`, docs/conversations-api.md, "Live view"): the whole
 * application on a real database, listening on loopback, a test call played by the simulator at
 * SIM_TIME_SCALE=0.05, and a real HTTP client reading the Server-Sent Events as they come. The stream
 * tells the call from `queued` to `ended` and closes; `Last-Event-ID` goes on after an event without
 * repeating it; another tenant's session is a 404 with the API's error body.
 */
import type { AddressInfo } from 'node:net';
import { TEST_NUMBERS } from '../../../src/sessions/domain/test-pool.scenarios';
import { CreatedTenant, startTestApp, TestApp } from '../../support/app';

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
