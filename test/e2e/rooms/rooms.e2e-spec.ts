/**
 * Rooms over real HTTP against `node dist/main.js`, without a browser: the REST API and its
 * refusals, forged and expired links refused with no event, expiry on time and across a kill -9,
 * the agent_unreachable scenario and a real failure to set up the agent's peer, WHIP's refusals,
 * and a participant whose media never arrives (the room completes as `connection_lost` 30 s later).
 */
import { eventCatalog } from '../../../src/app.module';
import { allEvents, CallsService, startCallsService } from '../../support/calls-harness';
import { eventually } from '../../support/eventually';
import { killAllServices } from '../../support/process';
import { CANNED_OFFER } from '../../support/rooms-harness';
import { createTenant, Envelope, sleep, TenantInfo } from '../../support/webhooks-harness';

jest.setTimeout(180_000);

let h: CallsService;
let tenant: TenantInfo;
let other: TenantInfo;

beforeAll(async () => {
  h = await startCallsService();
  tenant = await createTenant(h.call, h.svc.adminToken, 'Rooms Co');
  other = await createTenant(h.call, h.svc.adminToken, 'Other Rooms Co');
});

afterAll(async () => {
  await h?.destroy();
  await killAllServices();
});

const api = (method: string, path: string, body?: unknown, token = tenant.api_key) =>
  h.call(method, path, { token, ...(body === undefined ? {} : { body }) });

async function createRoom(body: Record<string, unknown> = {}): Promise<any> {
  const res = await api('POST', '/v1/rooms', body);
  if (res.status !== 201) throw new Error(`POST /v1/rooms: ${res.status} ${res.text}`);
  return res.body;
}

const roomEvents = async (roomId: string): Promise<Envelope[]> =>
  (await allEvents(h.call, tenant.api_key)).filter((e) => e.data.room_id === roomId);
const types = async (roomId: string) => (await roomEvents(roomId)).map((e) => e.type);

/** A request to a room's participant routes: the page, its view beacon, WHIP. */
async function participant(method: string, url: string, body?: string, contentType = 'application/sdp') {
  const res = await fetch(url, {
    method,
    ...(body !== undefined ? { body, headers: { 'content-type': contentType } } : {}),
  });
  return { status: res.status, text: await res.text(), headers: res.headers };
}

const withToken = (roomUrl: string, token: string) => roomUrl.replace(/token=[^&]*/, `token=${token}`);
const pathOf = (roomUrl: string, tail: string) =>
  roomUrl.includes('?') ? roomUrl.replace('?', `${tail}?`) : `${roomUrl}${tail}`;

describe('the REST API', () => {
  it('creates a room (201) with its signed link, reads and lists it; Idempotency-Key repeats it', async () => {
    const res = await api('POST', '/v1/rooms', { client_reference_id: 'ref-1', expires_in_seconds: 600 });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      room_id: expect.stringMatching(/^room_[a-z0-9]{20}$/),
      participant_id: expect.stringMatching(/^par_[a-z0-9]{20}$/),
      client_reference_id: 'ref-1',
      status: 'created',
      session_id: null,
    });
    const ttl = Date.parse(res.body.expires_at) - Date.parse(res.body.created_at);
    // expires_at is taken when the command is handled, created_at when its events are stamped: ms apart.
    expect(Math.abs(ttl - 600_000)).toBeLessThan(1_000);
    expect(res.body.room_url).toBe(
      `${h.svc.baseUrl}/rooms/${res.body.room_id}?token=${Date.parse(res.body.expires_at)}.${res.body.room_url.split('.').pop()}`,
    );
    expect((await api('GET', `/v1/rooms/${res.body.room_id}`)).body).toEqual(res.body);

    const first = await h.call('POST', '/v1/rooms', {
      token: tenant.api_key,
      body: {},
      headers: { 'idempotency-key': 'k-1' },
    });
    const again = await h.call('POST', '/v1/rooms', {
      token: tenant.api_key,
      body: {},
      headers: { 'idempotency-key': 'k-1' },
    });
    expect(again.body.room_id).toBe(first.body.room_id);
    expect(first.body.client_reference_id).toBeNull();

    const page = await api('GET', '/v1/rooms?limit=2');
    expect(page.status).toBe(200);
    expect(page.body).toEqual({ data: [expect.anything(), expect.anything()], has_more: expect.any(Boolean) });
    const next = await api('GET', `/v1/rooms?limit=100&starting_after=${page.body.data[1].room_id}`);
    expect(next.body.data.map((r: any) => r.room_id)).not.toContain(page.body.data[0].room_id);
    const created = await api('GET', '/v1/rooms?status=created');
    expect(created.body.data.every((r: any) => r.status === 'created')).toBe(true);
  });

  it('refuses bad bodies and queries with 400, and unknown, malformed or foreign ids with 404', async () => {
    const bad: [unknown, string | undefined][] = [
      [{ nope: 1 }, 'nope'],
      [{ expires_in_seconds: 0 }, 'expires_in_seconds'],
      [{ expires_in_seconds: 604_801 }, 'expires_in_seconds'],
      [{ expires_in_seconds: 1.5 }, 'expires_in_seconds'],
      [{ expires_in_seconds: '60' }, 'expires_in_seconds'],
      [{ test_scenario: 'agent_busy' }, 'test_scenario'],
      [{ client_reference_id: '' }, 'client_reference_id'],
      [{ client_reference_id: 'x'.repeat(201) }, 'client_reference_id'],
      [{ client_reference_id: 7 }, 'client_reference_id'],
      [{ agent_config: { voice_id: 'v' } }, 'agent_config.prompt'],
      [{ agent_config: 'hi' }, 'agent_config'],
      [{ voice_id: null }, 'voice_id'],
      [[1], undefined],
    ];
    for (const [body, param] of bad) {
      const res = await api('POST', '/v1/rooms', body);
      expect([JSON.stringify(body), res.status, res.body?.error?.type]).toEqual([
        JSON.stringify(body),
        400,
        'invalid_request',
      ]);
      if (param) expect([JSON.stringify(body), res.body.error.param]).toEqual([JSON.stringify(body), param]);
    }
    expect((await api('POST', '/v1/rooms', { client_reference_id: null })).status).toBe(201);
    // A voice the tenant cannot use (unknown, another tenant's or untrained): 422, as for calls.
    for (const [body, param] of [
      [{ voice_id: 'vc_unknownvoice000000' }, 'voice_id'],
      [{ agent_config: { prompt: 'Hi', voice_id: 'vc_unknownvoice000000' } }, 'agent_config.voice_id'],
    ] as const) {
      const res = await api('POST', '/v1/rooms', body);
      expect([res.status, res.body.error.type, res.body.error.param]).toEqual([422, 'voice_not_ready', param]);
    }
    expect((await api('POST', '/v1/rooms', { voice_id: 'voice_ava' })).status).toBe(201);
    for (const q of ['limit=0', 'limit=101', 'limit=x', 'status=open'])
      expect([q, (await api('GET', `/v1/rooms?${q}`)).status]).toEqual([q, 400]);
    expect((await api('GET', '/v1/rooms?starting_after=room_nope')).status).toBe(404);
    const mine = await createRoom();
    for (const id of ['room_aaaaaaaaaaaaaaaaaaaa', 'nope', mine.room_id]) {
      const token = id === mine.room_id ? other.api_key : tenant.api_key;
      const res = await api('GET', `/v1/rooms/${id}`, undefined, token);
      expect([id, res.status, res.body.error.type]).toEqual([id, 404, 'not_found']);
    }
  });

  it('refuses a suspended tenant (403), and needs an API key (401)', async () => {
    const suspended = await createTenant(h.call, h.svc.adminToken, 'Suspended Rooms');
    await h.call('POST', `/admin/v1/tenants/${suspended.tenant_id}/suspend`, { token: h.svc.adminToken });
    const res = await api('POST', '/v1/rooms', {}, suspended.api_key);
    expect([res.status, res.body.error.type]).toEqual([403, 'forbidden']);
    expect((await h.call('POST', '/v1/rooms', { body: {} })).status).toBe(401);
  });
});

describe('links', () => {
  it('refuses a forged link (403) on every participant route, and records nothing', async () => {
    const room = await createRoom();
    const token = new URL(room.room_url).searchParams.get('token') as string;
    const [expiry, signature] = token.split('.') as [string, string];
    const forged = [
      withToken(room.room_url, `${expiry}.${'A'.repeat(43)}`),
      withToken(room.room_url, `${Number(expiry) + 86_400_000}.${signature}`),
      withToken(room.room_url, ''),
      room.room_url.replace(room.room_id, 'room_aaaaaaaaaaaaaaaaaaaa'),
      room.room_url.split('?')[0] as string,
    ];
    for (const url of forged) {
      const page = await participant('GET', url);
      expect([url, page.status]).toEqual([url, 403]);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect((await participant('POST', pathOf(url, '/view'))).status).toBe(403);
      expect((await participant('POST', pathOf(url, '/whip'), CANNED_OFFER)).status).toBe(403);
    }
    await sleep(300);
    expect(await types(room.room_id)).toEqual(['room.created']);
  });

  it('expires an unjoined room on time; its link then answers 410, with no event', async () => {
    const room = await createRoom({ expires_in_seconds: 2 });
    expect((await participant('POST', pathOf(room.room_url, '/view'))).status).toBe(204);
    const expired = await eventually(
      async () => {
        const events = await roomEvents(room.room_id);
        const e = events.find((x) => x.type === 'room.expired');
        if (!e) throw new Error(`not expired yet: ${events.map((x) => x.type).join(', ')}`);
        return e;
      },
      10_000,
      100,
    );
    expect(expired.data.expired_at).toBe(room.expires_at);
    const late = Date.parse(expired.created_at) - Date.parse(room.expires_at);
    expect(late).toBeGreaterThanOrEqual(0);
    expect(late).toBeLessThan(2_000);
    const page = await participant('GET', room.room_url);
    expect(page.status).toBe(410);
    expect(page.text).toContain('expired');
    expect((await participant('POST', pathOf(room.room_url, '/view'))).status).toBe(410);
    expect((await participant('POST', pathOf(room.room_url, '/whip'), CANNED_OFFER)).status).toBe(410);
    await sleep(300);
    expect(await types(room.room_id)).toEqual(['room.created', 'room.landing_viewed', 'room.expired']);
    expect((await api('GET', `/v1/rooms/${room.room_id}`)).body).toMatchObject({ status: 'expired' });
  });

  it('fails the room with agent_unreachable under that test scenario, nobody having opened it', async () => {
    const room = await createRoom({ test_scenario: 'agent_unreachable', client_reference_id: 'ref-fail' });
    const events = await eventually(async () => {
      const got = await roomEvents(room.room_id);
      expect(got.map((e) => e.type)).toEqual(['room.created', 'room.failed']);
      return got;
    });
    expect(events[1]!.data).toMatchObject({
      room_id: room.room_id,
      error_code: 'agent_unreachable',
      error_message: expect.any(String),
      client_reference_id: 'ref-fail',
    });
    for (const e of events) expect(eventCatalog.validatePayload(e.type, e.data)).toEqual([]);
    expect((await api('GET', `/v1/rooms/${room.room_id}`)).body).toMatchObject({
      status: 'failed',
      error_code: 'agent_unreachable',
    });
    expect((await participant('GET', room.room_url)).status).toBe(410);
  });
});

describe('WHIP', () => {
  it('refuses what is not an SDP offer the agent can answer, with no event', async () => {
    const room = await createRoom();
    const whip = pathOf(room.room_url, '/whip');
    expect((await participant('POST', whip, JSON.stringify({ sdp: CANNED_OFFER }), 'application/json')).status).toBe(
      415,
    );
    expect((await participant('POST', whip, CANNED_OFFER, 'application/json')).status).toBe(400);
    expect((await participant('POST', whip, CANNED_OFFER, 'text/plain')).status).toBe(415);
    expect((await participant('POST', whip, '')).status).toBe(400);
    expect((await participant('POST', whip, 'hello')).status).toBe(400);
    // Neither Opus nor PCMU (only PCMA): nothing the agent speaks.
    const noCodec = CANNED_OFFER.replace('a=rtpmap:0 PCMU/8000\r\n', '')
      .replace('a=rtpmap:111 opus/48000/2\r\n', '')
      .replace(' 111 0 8', ' 8');
    const refused = await participant('POST', whip, noCodec);
    expect([refused.status, JSON.parse(refused.text).error.message]).toEqual([400, expect.stringContaining('PCMU')]);
    expect((await participant('POST', whip, 'v=0\r\nm=audio 9 RTP/AVP 0\r\na=rtpmap:0 PCMU/8000\r\n')).status).toBe(
      400,
    );
    // No WHIP session to hang up before a join.
    expect((await participant('DELETE', pathOf(room.room_url, `/whip/${room.participant_id}`))).status).toBe(404);
    // SDP to any other route is refused like every non-JSON body.
    expect((await participant('POST', pathOf(room.room_url, '/view'), CANNED_OFFER)).status).toBe(415);
    await sleep(300);
    expect(await types(room.room_id)).toEqual(['room.created']);
  });

  it('answers an offer once (201, Opus then PCMU, loopback candidates, Location); a participant who never sends audio is lost after 30 s', async () => {
    const room = await createRoom({ client_reference_id: 'ref-lost' });
    const whip = pathOf(room.room_url, '/whip');
    const answer = await participant('POST', whip, CANNED_OFFER);
    expect(answer.status).toBe(201);
    expect(answer.headers.get('content-type')).toBe('application/sdp');
    expect(answer.text).toMatch(/^v=0\r\n/);
    expect(answer.text).toMatch(/^m=audio \d+ UDP\/TLS\/RTP\/SAVPF 111 0\r$/m);
    expect(answer.text).toMatch(/^a=rtpmap:111 opus\/48000\/2\r$/m);
    const candidates = answer.text.split('\r\n').filter((l) => l.startsWith('a=candidate:'));
    expect(candidates.length).toBeGreaterThan(0);
    for (const c of candidates) expect(c.split(' ')[4]).toBe('127.0.0.1');
    const location = new URL(answer.headers.get('location') as string, whip);
    expect(location.pathname).toBe(`/rooms/${room.room_id}/whip/${room.participant_id}`);
    expect((await participant('POST', whip, CANNED_OFFER)).status).toBe(409);
    expect(
      (await participant('PATCH', location.toString(), 'a=end-of-candidates', 'application/trickle-ice-sdpfrag'))
        .status,
    ).toBe(405);

    const completed = await eventually(
      async () => {
        const e = (await roomEvents(room.room_id)).find((x) => x.type === 'room.completed');
        if (!e) throw new Error('not completed yet');
        return e;
      },
      45_000,
      500,
    );
    const joined = (await roomEvents(room.room_id)).find((x) => x.type === 'room.joined')!;
    // Lost as of the last audio: none ever came, so as of the join.
    expect(completed.data).toMatchObject({ duration_seconds: 0, completed_at: joined.data.joined_at });
    expect(Date.parse(completed.created_at) - Date.parse(String(joined.data.joined_at))).toBeGreaterThanOrEqual(30_000);
    const view = (await api('GET', `/v1/rooms/${room.room_id}`)).body;
    expect(view).toMatchObject({ status: 'completed', end_reason: 'connection_lost', duration_seconds: 0 });
    // The room's session: the participant came to the agent (inbound), and it was created at the join,
    // when it started (it is stored a moment later: created_at used to be that moment, after started_at).
    const session = await eventually(async () => {
      const res = await api('GET', `/v1/sessions/${view.session_id}`);
      if (res.body.status !== 'completed') throw new Error('session not completed yet');
      return res.body;
    });
    expect(session.started_at).toBe(joined.data.joined_at);
    expect(Date.parse(session.created_at)).toBeLessThanOrEqual(Date.parse(session.started_at));
    expect(session).toMatchObject({ direction: 'inbound', hold_reason: null });
    const listed = (await api('GET', '/v1/sessions?direction=inbound')).body.data as { session_id: string }[];
    expect(listed.map((s) => s.session_id)).toContain(view.session_id);
    const ended = await eventually(async () => {
      const e = (await allEvents(h.call, tenant.api_key, 'session.ended')).find(
        (x) => x.data.session_id === view.session_id,
      );
      if (!e) throw new Error('session not ended yet');
      return e;
    });
    expect(ended.data).toMatchObject({
      end_reason: 'connection_lost',
      client_reference_id: 'ref-lost',
      to_number: null,
      duration_seconds: 0,
    });
    // A hang-up after the end changes nothing.
    expect((await participant('DELETE', location.toString())).status).toBe(200);
    expect((await types(room.room_id)).filter((t) => t === 'room.completed')).toHaveLength(1);
  });
});

describe('a real failure to set up the agent', () => {
  it('fails the room (room.failed, agent_unreachable) when the agent has no address to offer, and answers 410', async () => {
    // 203.0.113.9 (TEST-NET-3) is no address of this machine: the agent's sockets cannot be bound to it.
    const broken = await startCallsService({ ROOM_ICE_HOSTS: '203.0.113.9' });
    try {
      const owner = await createTenant(broken.call, broken.svc.adminToken, 'Broken Agent Co');
      const created = await broken.call('POST', '/v1/rooms', { token: owner.api_key, body: {} });
      const room = created.body;
      const answer = await participant('POST', pathOf(room.room_url, '/whip'), CANNED_OFFER);
      expect(answer.status).toBe(410);
      expect(JSON.parse(answer.text).error.message).toContain('203.0.113.9');
      const events = await eventually(async () => {
        const got = (await allEvents(broken.call, owner.api_key)).filter((e) => e.data.room_id === room.room_id);
        expect(got.map((e) => e.type)).toEqual(['room.created', 'room.failed']);
        return got;
      });
      expect(events[1]!.data).toMatchObject({
        error_code: 'agent_unreachable',
        error_message: expect.stringContaining('ICE'),
      });
      expect((await participant('GET', room.room_url)).status).toBe(410);
    } finally {
      if (process.env.ROOMS_DEBUG) console.log(broken.diagnostics(8000));
      await broken.destroy();
    }
  });
});

describe('expiry across a restart', () => {
  it('a room whose expiry passes while the service is down expires after the restart, as of expires_at', async () => {
    const room = await createRoom({ expires_in_seconds: 3 });
    await eventually(
      async () =>
        (await h.db.pool.query('SELECT 1 FROM timers WHERE dedupe_key = $1', [`room.expire:${room.room_id}`]))
          .rowCount === 1,
    );
    h.svc.kill('SIGKILL');
    await h.svc.waitForExit(10_000);
    await sleep(Math.max(0, Date.parse(room.expires_at) - Date.now()) + 1_000);
    await h.restart();
    const expired = await eventually(
      async () => {
        const e = (await roomEvents(room.room_id)).find((x) => x.type === 'room.expired');
        if (!e) throw new Error('not expired yet');
        return e;
      },
      20_000,
      200,
    );
    expect(expired.data.expired_at).toBe(room.expires_at);
    expect(await types(room.room_id)).toEqual(['room.created', 'room.expired']);
  });
});
