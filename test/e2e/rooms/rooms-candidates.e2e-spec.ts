/**
 * The participant's ICE candidates face the internet (docs/rooms.md, "Candidates"), against real
 * processes (`node dist/main.js`) over real sockets:
 *
 * - an offer with an mDNS `.local` candidate, while another program holds UDP 0.0.0.0:5353, is
 *   answered and the service stays up (werift would bind mDNS there for it, without an error
 *   listener: EADDRINUSE ended the process);
 * - a service listening on a non-loopback address (HOST=0.0.0.0; the agent's sockets on 127.0.0.1)
 *   sends no STUN to a candidate at a private address (a UDP socket on 127.0.0.x hears nothing),
 *   while one listening on loopback (local development) does;
 * - malformed offers and candidates are a 4xx or an answer without them, never a 5xx nor the end of
 *   the service, and its log quotes at most 200 characters of them.
 */
import { createSocket, type Socket } from 'node:dgram';
import { CallsService, startCallsService } from '../../support/calls-harness';
import { killAllServices } from '../../support/process';
import { CANNED_OFFER } from '../../support/rooms-harness';
import { createTenant, sleep, TenantInfo } from '../../support/webhooks-harness';

jest.setTimeout(120_000);

/** Served on loopback (HOST=127.0.0.1, the default): private candidates are kept. */
let local: CallsService;
let localTenant: TenantInfo;

beforeAll(async () => {
  local = await startCallsService({ LOG_LEVEL: 'info' });
  localTenant = await createTenant(local.call, local.svc.adminToken, 'Candidates Co');
});

afterAll(async () => {
  await local?.destroy();
  await killAllServices();
});

async function createRoom(h: CallsService, tenant: TenantInfo): Promise<any> {
  const res = await h.call('POST', '/v1/rooms', { token: tenant.api_key, body: {} });
  if (res.status !== 201) throw new Error(`POST /v1/rooms: ${res.status} ${res.text}`);
  return res.body;
}

const whipOf = (h: CallsService, room: { room_url: string }) => {
  const url = new URL(room.room_url);
  return `${h.svc.baseUrl}${url.pathname}/whip${url.search}`;
};

async function offer(h: CallsService, room: { room_url: string }, sdp: string) {
  const res = await fetch(whipOf(h, room), {
    method: 'POST',
    headers: { 'content-type': 'application/sdp' },
    body: sdp,
  });
  return { status: res.status, text: await res.text() };
}

/** Hangs the room's call up, so that its live-room slot is free for the next. */
async function hangUp(h: CallsService, room: { room_url: string; participant_id: string }) {
  const url = new URL(room.room_url);
  await fetch(`${h.svc.baseUrl}${url.pathname}/whip/${room.participant_id}${url.search}`, { method: 'DELETE' });
}

const withCandidates = (...candidates: string[]) =>
  CANNED_OFFER + candidates.map((c) => `a=candidate:${c}\r\n`).join('');

/** A UDP socket on `address` counting the STUN binding requests (magic cookie 0x2112A442) it gets. */
async function stunListener(address: string): Promise<{ port: number; requests: () => number; close(): void }> {
  const socket = createSocket({ type: 'udp4', reuseAddr: false });
  let requests = 0;
  socket.on('message', (msg) => {
    if (msg.length >= 20 && msg.readUInt16BE(0) === 0x0001 && msg.readUInt32BE(4) === 0x2112a442) requests++;
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind({ address, port: 0 }, () => resolve());
  });
  return { port: socket.address().port, requests: () => requests, close: () => socket.close() };
}

async function expectUp(h: CallsService): Promise<void> {
  expect(h.svc.hasExited()).toBe(false);
  expect((await fetch(`${h.svc.baseUrl}/health`)).status).toBe(200);
}

describe('an mDNS (.local) candidate', () => {
  it('is dropped: the service answers and stays up while another program holds UDP 0.0.0.0:5353', async () => {
    const holder: Socket = createSocket({ type: 'udp4', reuseAddr: false });
    await new Promise<void>((resolve, reject) => {
      holder.once('error', reject);
      holder.bind({ address: '0.0.0.0', port: 5353, exclusive: true }, () => resolve());
    });
    try {
      const room = await createRoom(local, localTenant);
      const res = await offer(
        local,
        room,
        withCandidates('1 1 udp 2122260223 4c7a0c2e-6b1c-4f38-9c2a-0a1b2c3d4e5f.local 54321 typ host generation 0'),
      );
      expect(res.status).toBe(201);
      expect(res.text).toMatch(/^a=candidate:/m);
      // werift's mDNS socket would have failed by now (its bind is immediate).
      await sleep(1_500);
      await expectUp(local);
      expect(local.svc.stdout()).toMatch(/dropped 1 of the participant's ICE candidates: host_name/);
      await hangUp(local, room);
    } finally {
      holder.close();
    }
  });
});

describe('candidates at private addresses', () => {
  it('get STUN from the agent when the service listens on loopback (local development)', async () => {
    const listener = await stunListener('127.0.0.5');
    try {
      const room = await createRoom(local, localTenant);
      const res = await offer(local, room, withCandidates(`1 1 udp 2122260223 127.0.0.5 ${listener.port} typ host`));
      expect(res.status).toBe(201);
      await sleep(3_000);
      expect(listener.requests()).toBeGreaterThan(0);
      await hangUp(local, room);
    } finally {
      listener.close();
    }
  });

  it('get nothing when it listens on another address (HOST=0.0.0.0), MEDIA_ALLOW_PRIVATE_ADDRESSES unset', async () => {
    // Reached over 127.0.0.1 all the same; the agent's media sockets are bound to 127.0.0.1 only.
    const exposed = await startCallsService({ HOST: '0.0.0.0', ROOM_ICE_HOSTS: '127.0.0.1', LOG_LEVEL: 'info' });
    const listener = await stunListener('127.0.0.6');
    try {
      const tenant = await createTenant(exposed.call, exposed.svc.adminToken, 'Exposed Co');
      const room = await createRoom(exposed, tenant);
      const res = await offer(
        exposed,
        room,
        withCandidates(
          `1 1 udp 2122260223 127.0.0.6 ${listener.port} typ host`,
          `2 1 udp 1686052607 127.0.0.6 ${listener.port} typ srflx raddr 0.0.0.0 rport 0`,
        ),
      );
      expect(res.status).toBe(201);
      expect(res.text).toMatch(/^a=candidate:\S+ 1 udp \d+ 127\.0\.0\.1 /m);
      await sleep(3_000);
      expect(listener.requests()).toBe(0);
      expect(exposed.svc.stdout()).toMatch(/dropped 2 of the participant's ICE candidates: not_public/);
      await expectUp(exposed);
      await hangUp(exposed, room);
    } finally {
      listener.close();
      await exposed.destroy();
    }
  });
});

describe('malformed offers', () => {
  it('are a 4xx, or answered without their bad candidates: never a 5xx, and the service stays up', async () => {
    const long = 'x'.repeat(20_000);
    const cases: [string, string][] = [
      [
        'garbage candidates',
        withCandidates('garbage', '1 1 udp x 127.0.0.1 1 typ host', '1 1 udp 1 127.0.0.1 99999 typ host'),
      ],
      ['a candidate of 20 000 characters', withCandidates(`1 1 udp 1 127.0.0.1 5000 typ host ${long} y`)],
      ['a host name', withCandidates('1 1 udp 1 rooms.example.com 5000 typ host')],
      [
        '1 000 candidates',
        withCandidates(...Array.from({ length: 1000 }, (_, i) => `${i} 1 udp 1 127.0.0.1 9 typ weird`)),
      ],
      ['control characters', withCandidates('1 1 udp 1 127.0.0.1 5000 typ host \u0000\u001b[31m')],
      ['an audio line alone', 'v=0\r\nm=audio\r\n'],
      ['no codec', 'v=0\r\nm=audio 9 UDP/TLS/RTP/SAVPF 8\r\na=rtpmap:8 PCMA/8000\r\n'],
      ['a media kind of 30 000 characters', `${CANNED_OFFER}m=${'v'.repeat(30_000)} 9 RTP/AVP 0\r\n`],
      ['not SDP', 'hello'],
    ];
    for (const [what, sdp] of cases) {
      const room = await createRoom(local, localTenant);
      const res = await offer(local, room, sdp);
      expect([what, res.status < 500, res.status === 201 || (res.status >= 400 && res.status < 500)]).toEqual([
        what,
        true,
        true,
      ]);
      if (res.status >= 400) expect(res.text.length).toBeLessThan(2_000);
      if (res.status === 201) await hangUp(local, room);
      await expectUp(local);
    }
    // Nothing received is quoted at length in the log (JSON lines: quotes are escaped).
    expect(local.svc.stdout() + local.svc.stderr()).not.toMatch(/x{201}|v{201}/);
    expect(local.svc.stdout()).toMatch(/malformed \\"1 1 udp 1 127\.0\.0\.1 5000 typ host x{100}/);
    await expectUp(local);
  });
});
