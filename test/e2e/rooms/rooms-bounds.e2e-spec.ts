/**
 * The bounds of the rooms' media path, against real processes (`node dist/main.js`) on one database:
 * an offer is one audio section (anything more is a 400 before anything is bound); a tenant has at
 * most MAX_LIVE_ROOMS_PER_TENANT live rooms, counted across two instances (429 beyond); and a disk
 * error while a call is recorded (the process's file-size limit lowered with prlimit, so writes fail
 * with EFBIG) fails that room (recording_failed), never the process.
 */
import { spawnSync } from 'node:child_process';
import { allEvents, CallsService, startCallsService } from '../../support/calls-harness';
import { eventually } from '../../support/eventually';
import { killAllServices, ServiceProcess, startService } from '../../support/process';
import { CANNED_OFFER, weriftParticipant } from '../../support/rooms-harness';
import { createTenant, sleep, TenantInfo } from '../../support/webhooks-harness';

jest.setTimeout(180_000);

const CAP = 2;

let h: CallsService;
/** A second instance on the same database and data directory. */
let second: ServiceProcess;
let tenant: TenantInfo;
let other: TenantInfo;

beforeAll(async () => {
  h = await startCallsService({ MAX_LIVE_ROOMS_PER_TENANT: String(CAP) });
  second = await startService({ env: h.env, adminToken: h.svc.adminToken });
  tenant = await createTenant(h.call, h.svc.adminToken, 'Bounded Rooms Co');
  other = await createTenant(h.call, h.svc.adminToken, 'Other Bounded Co');
});

afterAll(async () => {
  second?.kill('SIGKILL');
  await second?.exited;
  await h?.destroy();
  await killAllServices();
});

async function createRoom(call = h.call, apiKey = tenant.api_key): Promise<any> {
  const res = await call('POST', '/v1/rooms', { token: apiKey, body: {} });
  if (res.status !== 201) throw new Error(`POST /v1/rooms: ${res.status} ${res.text}`);
  return res.body;
}

/** The room's WHIP URL on the instance at `baseUrl` (its links name the first instance). */
const whipOn = (baseUrl: string, room: { room_url: string }) => {
  const url = new URL(room.room_url);
  return `${baseUrl}${url.pathname}/whip${url.search}`;
};

async function offer(url: string, sdp: string) {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/sdp' }, body: sdp });
  const text = await res.text();
  return { status: res.status, text, headers: res.headers, json: () => JSON.parse(text) };
}

const roomTypes = async (roomId: string, call = h.call, apiKey = tenant.api_key) =>
  (await allEvents(call, apiKey)).filter((e) => e.data.room_id === roomId).map((e) => e.type);

describe('offers', () => {
  it('refuses an offer of more than one audio section, or with video or a data channel, at once (400, no event)', async () => {
    const room = await createRoom();
    const whip = whipOn(h.svc.baseUrl, room);
    const section = CANNED_OFFER.slice(CANNED_OFFER.indexOf('m=audio'));
    const video = section.replace('m=audio 9 UDP/TLS/RTP/SAVPF 111 0 8', 'm=video 9 UDP/TLS/RTP/SAVPF 96');
    const data = 'm=application 9 UDP/DTLS/SCTP webrtc-datachannel\r\nc=IN IP4 0.0.0.0\r\na=mid:1\r\n';
    // Small sections, so that 200 of them fit in the 64 KB an offer may have.
    const small = Array.from(
      { length: 199 },
      (_, i) => `m=audio 9 UDP/TLS/RTP/SAVPF 0\r\nc=IN IP4 0.0.0.0\r\na=mid:${i + 1}\r\na=rtpmap:0 PCMU/8000\r\n`,
    ).join('');
    const cases: [string, string, RegExp][] = [
      ['200 audio sections', CANNED_OFFER + small, /it has 200 \(200 audio\)/],
      ['two audio sections', CANNED_OFFER + section, /it has 2 \(2 audio\)/],
      ['audio and video', CANNED_OFFER + video, /1 audio, video/],
      ['audio and a data channel', CANNED_OFFER + data, /1 audio, application/],
    ];
    for (const [what, sdp, message] of cases) {
      const started = Date.now();
      const res = await offer(whip, sdp);
      expect([what, res.status, res.json().error.type]).toEqual([what, 400, 'invalid_request']);
      expect(res.json().error.message).toMatch(/exactly one media section, for audio/);
      expect(res.json().error.message).toMatch(message);
      expect(Date.now() - started).toBeLessThan(2_000);
    }
    // The body itself is bounded (64 KB): larger is a 413 with the error body.
    const huge = await offer(whip, CANNED_OFFER + `a=x-pad:${'x'.repeat(70 * 1024)}\r\n`);
    expect([huge.status, huge.json().error.type]).toEqual([413, 'payload_too_large']);
    await sleep(300);
    expect(await roomTypes(room.room_id)).toEqual(['room.created']);
    // The same room still takes a good offer.
    expect((await offer(whip, CANNED_OFFER)).status).toBe(201);
  });
});

describe('live rooms per tenant', () => {
  it(`allows ${CAP} live rooms per tenant across two instances, answers 429 beyond, and frees a slot when a call ends`, async () => {
    // Let the room of the test above end first (hang it up), so that this tenant starts with none.
    for (const r of (await h.call('GET', '/v1/rooms?status=joined', { token: tenant.api_key })).body.data) {
      const url = new URL(r.room_url);
      await fetch(`${h.svc.baseUrl}${url.pathname}/whip/${r.participant_id}${url.search}`, { method: 'DELETE' });
    }
    const rooms = await Promise.all([1, 2, 3, 4].map(() => createRoom()));
    const [a, b, c, d] = rooms;
    expect((await offer(whipOn(h.svc.baseUrl, a), CANNED_OFFER)).status).toBe(201);
    expect((await offer(whipOn(second.baseUrl, b), CANNED_OFFER)).status).toBe(201);
    // Full, whichever instance is asked.
    for (const [room, base] of [
      [c, h.svc.baseUrl],
      [d, second.baseUrl],
    ] as const) {
      const refused = await offer(whipOn(base, room), CANNED_OFFER);
      expect([refused.status, refused.json().error.type]).toEqual([429, 'rate_limited']);
      expect(refused.json().error.message).toContain(`${CAP} live rooms`);
      expect(refused.headers.get('retry-after')).toBe('30');
    }
    // Another tenant has its own slots.
    const theirs = await createRoom(h.call, other.api_key);
    expect((await offer(whipOn(second.baseUrl, theirs), CANNED_OFFER)).status).toBe(201);

    // a hangs up (on the other instance than the one holding its call): c may join.
    const url = new URL(a.room_url);
    const hangUp = await fetch(`${second.baseUrl}${url.pathname}/whip/${a.participant_id}${url.search}`, {
      method: 'DELETE',
    });
    expect(hangUp.status).toBe(200);
    await eventually(async () => (await offer(whipOn(second.baseUrl, c), CANNED_OFFER)).status === 201, 15_000, 250);
    expect((await offer(whipOn(h.svc.baseUrl, d), CANNED_OFFER)).status).toBe(429);
    await sleep(300);
    expect(await roomTypes(d.room_id)).toEqual(['room.created']);
  });
});

describe('a disk error while recording', () => {
  it('fails that room (room.failed recording_failed, session.failed) and the process goes on', async () => {
    const svc = await startCallsService();
    const participant = await weriftParticipant();
    try {
      const owner = await createTenant(svc.call, svc.svc.adminToken, 'Full Disk Co');
      // Files of this process may grow to 24 KB at most: the recording's raw files (16 KB per second
      // and channel) hit the limit within two seconds of audio, and their writes fail with EFBIG.
      const limited = spawnSync('prlimit', [`--pid=${svc.svc.pid}`, '--fsize=24576:24576'], { encoding: 'utf8' });
      expect([limited.status, limited.stderr]).toEqual([0, '']);
      const room = await createRoom(svc.call, owner.api_key);
      const answer = await offer(whipOn(svc.svc.baseUrl, room), participant.offer);
      expect(answer.status).toBe(201);
      await participant.answer(answer.text);
      const view = (await svc.call('GET', `/v1/rooms/${room.room_id}`, { token: owner.api_key })).body;
      const events = await eventually(
        async () => {
          const got = (await allEvents(svc.call, owner.api_key)).filter(
            (e) => e.data.room_id === room.room_id || e.data.session_id === view.session_id,
          );
          if (!got.some((e) => e.type === 'session.failed')) throw new Error(got.map((e) => e.type).join(', '));
          return got;
        },
        20_000,
        250,
      );
      expect(participant.heard()).toBeGreaterThan(0); // the call was up before it broke
      expect(events.map((e) => e.type)).toEqual([
        'room.created',
        'room.joined',
        'session.created',
        'session.started',
        'room.failed',
        'session.failed',
      ]);
      expect(events.find((e) => e.type === 'room.failed')!.data).toMatchObject({
        error_code: 'recording_failed',
        error_message: expect.stringContaining('EFBIG'),
      });
      expect(events.find((e) => e.type === 'session.failed')!.data).toMatchObject({
        session_id: view.session_id,
        status: 'failed',
        end_reason: 'recording_failed',
      });
      expect((await svc.call('GET', `/v1/rooms/${room.room_id}`, { token: owner.api_key })).body).toMatchObject({
        status: 'failed',
        error_code: 'recording_failed',
      });
      // The process is alive and serves the next room.
      expect(svc.svc.hasExited()).toBe(false);
      expect((await fetch(`${svc.svc.baseUrl}/health`)).status).toBe(200);
      const next = await createRoom(svc.call, owner.api_key);
      expect((await offer(whipOn(svc.svc.baseUrl, next), CANNED_OFFER)).status).toBe(201);
      // A hang-up after the failure answers the room's status.
      const url = new URL(room.room_url);
      const late = await fetch(`${svc.svc.baseUrl}${url.pathname}/whip/${room.participant_id}${url.search}`, {
        method: 'DELETE',
      });
      expect([late.status, await late.json()]).toEqual([200, { room_id: room.room_id, status: 'failed' }]);
    } finally {
      if (process.env.ROOMS_DEBUG) console.log(svc.diagnostics(8000));
      await participant.close();
      await svc.destroy();
    }
  });
});
