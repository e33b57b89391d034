/**
 * Rooms relayed to a media gateway (MEDIA_GATEWAY_URL): a fake gateway on loopback gets the
 * participant's WHIP offer, signed, with the room's context, and answers; it reports the call's end
 * and its recording through the signed ingest route; a gateway that refuses the relay's credentials
 * fails the room (relay_authentication_failed); a participant's hang-up is passed on to it.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { allEvents, CallsService, rawPost, signedHeaders, startCallsService } from '../../support/calls-harness';
import { eventually } from '../../support/eventually';
import { killAllServices } from '../../support/process';
import { CANNED_OFFER } from '../../support/rooms-harness';
import {
  createTenant,
  expectedStandardSignature,
  expectedXSignature,
  header,
  TenantInfo,
} from '../../support/webhooks-harness';

jest.setTimeout(120_000);

const SECRET = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
const ANSWER =
  'v=0\r\no=- 1 1 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\nm=audio 9 UDP/TLS/RTP/SAVPF 0\r\na=rtpmap:0 PCMU/8000\r\n';

interface GatewayRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

let gateway: Server;
const received: GatewayRequest[] = [];
/** Rooms whose relay the fake gateway refuses with a 401. */
const refusing = new Set<string>();
let h: CallsService;
let tenant: TenantInfo;

beforeAll(async () => {
  gateway = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const roomId = /^\/rooms\/([^/]+)\/whip$/.exec(req.url ?? '')?.[1] ?? '';
      if (req.method === 'POST' && !refusing.has(roomId)) {
        res.writeHead(201, { 'content-type': 'application/sdp', location: `/rooms/${roomId}/whip` }).end(ANSWER);
      } else if (req.method === 'POST') res.writeHead(401).end();
      else res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`;
  h = await startCallsService({ MEDIA_GATEWAY_URL: url, MEDIA_GATEWAY_SECRET: SECRET });
  tenant = await createTenant(h.call, h.svc.adminToken, 'Gateway Rooms Co');
});

afterAll(async () => {
  await h?.destroy();
  await new Promise((resolve) => gateway?.close(resolve));
  await killAllServices();
});

/** Both signatures of a relayed request, over its raw body (SDP, or JSON for a hang-up). */
function signedBy(secret: string, r: GatewayRequest): boolean {
  const ts = header(r.headers, 'x-webhook-timestamp') ?? '';
  const body = Buffer.from(r.body, 'utf8');
  return (
    header(r.headers, 'x-webhook-signature') === expectedXSignature(secret, ts, body) &&
    header(r.headers, 'webhook-signature') ===
      expectedStandardSignature(secret, header(r.headers, 'webhook-id') ?? '', ts, body)
  );
}

async function createRoom(body: Record<string, unknown> = {}): Promise<any> {
  const res = await h.call('POST', '/v1/rooms', { token: tenant.api_key, body });
  if (res.status !== 201) throw new Error(`POST /v1/rooms: ${res.status} ${res.text}`);
  return res.body;
}

const whipOf = (room: { room_url: string }) => room.room_url.replace('?', '/whip?');
const offer = (url: string) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/sdp' }, body: CANNED_OFFER });
const roomTypes = async (roomId: string) =>
  (await allEvents(h.call, tenant.api_key)).filter((e) => e.data.room_id === roomId).map((e) => e.type);

function report(roomId: string, signal: unknown, opts: { bodyRoom?: string; signed?: boolean } = {}) {
  const body = JSON.stringify({ room_id: opts.bodyRoom ?? roomId, signal });
  const headers = opts.signed === false ? { 'content-type': 'application/json' } : signedHeaders(SECRET, body);
  return rawPost(h.svc.baseUrl, `/media/v1/rooms/${roomId}/signals`, body, headers);
}

it('relays the offer, signed, with the room context; the gateway reports the end and the recording', async () => {
  const room = await createRoom({ client_reference_id: 'gw-1', agent_config: { prompt: 'Be brief.' } });
  const res = await offer(whipOf(room));
  expect(res.status).toBe(201);
  expect(await res.text()).toBe(ANSWER);

  const relayed = received.find((r) => r.method === 'POST' && r.url === `/rooms/${room.room_id}/whip`)!;
  expect(relayed.headers['content-type']).toBe('application/sdp');
  expect(relayed.body).toBe(CANNED_OFFER);
  expect(signedBy(SECRET, relayed)).toBe(true);
  const context = JSON.parse(Buffer.from(String(relayed.headers['x-room-context']), 'base64url').toString('utf8'));
  const view = (await h.call('GET', `/v1/rooms/${room.room_id}`, { token: tenant.api_key })).body;
  expect(context).toEqual({
    room_id: room.room_id,
    session_id: view.session_id,
    tenant_id: tenant.tenant_id,
    participant_id: room.participant_id,
    client_reference_id: 'gw-1',
    agent_config: { prompt: 'Be brief.' },
    voice_id: 'voice_default',
  });
  expect(relayed.headers['webhook-id']).toBe(view.session_id);

  // Refused reports: unsigned, for another room, malformed.
  expect((await report(room.room_id, { kind: 'ended', reason: 'hangup' }, { signed: false })).status).toBe(401);
  expect((await report(room.room_id, { kind: 'ended', reason: 'hangup' }, { bodyRoom: 'room_x' })).status).toBe(401);
  expect((await report(room.room_id, { kind: 'ended', reason: 'bored' })).status).toBe(400);
  expect((await report(room.room_id, { kind: 'recording_ready', recording_id: 'x', duration_seconds: 1 })).status).toBe(
    400,
  );

  const ended = await report(room.room_id, { kind: 'ended', reason: 'hangup' });
  expect([ended.status, ended.body]).toEqual([202, { room_id: room.room_id, applied: true }]);
  expect((await report(room.room_id, { kind: 'ended', reason: 'hangup' })).body.applied).toBe(false);
  const recording = { kind: 'recording_ready', recording_id: 'rec_gateway0123456789', duration_seconds: 12 };
  expect((await report(room.room_id, recording)).body.applied).toBe(true);

  const events = await eventually(async () => {
    const all = await allEvents(h.call, tenant.api_key);
    const ours = all.filter((e) => e.data.room_id === room.room_id || e.data.session_id === view.session_id);
    expect(ours.map((e) => e.type)).toEqual([
      'room.created',
      'room.joined',
      'session.created',
      'session.started',
      'room.completed',
      'session.ended',
      'session.recording_completed',
    ]);
    return ours;
  });
  expect(events.find((e) => e.type === 'session.ended')!.data).toMatchObject({
    client_reference_id: 'gw-1',
    to_number: null,
    end_reason: 'completed',
  });
  expect(events.find((e) => e.type === 'session.recording_completed')!.data).toMatchObject({
    recording_id: 'rec_gateway0123456789',
    channels: 'dual',
    duration_seconds: 12,
  });
  // The platform tells the gateway the room is over (it had reported it: a no-op there).
  await eventually(() => received.some((r) => r.method === 'DELETE' && r.url === `/rooms/${room.room_id}/whip`));
});

/**
 * A hang-up as docs/media-gateway.md tells the gateway to check it: both signatures over the body,
 * and the body's room_id is the room of the path it is for.
 */
function hangUpVerifiesFor(roomId: string, r: GatewayRequest): boolean {
  let body: { room_id?: unknown };
  try {
    body = JSON.parse(r.body) as { room_id?: unknown };
  } catch {
    return false;
  }
  return signedBy(SECRET, r) && body.room_id === roomId;
}

it("passes the participant's hang-up on to the gateway, signed over a body that names the room", async () => {
  const hangUpOf = async () => {
    const room = await createRoom();
    expect((await offer(whipOf(room))).status).toBe(201);
    const [path, query] = room.room_url.split('?') as [string, string];
    const location = `${path}/whip/${room.participant_id}?${query}`;
    expect((await fetch(location, { method: 'DELETE' })).status).toBe(200);
    const hangUp = await eventually(
      () => received.find((r) => r.method === 'DELETE' && r.url === `/rooms/${room.room_id}/whip`) ?? false,
    );
    await eventually(async () => (await roomTypes(room.room_id)).includes('room.completed'));
    return { room, hangUp };
  };
  const a = await hangUpOf();
  const b = await hangUpOf();
  const view = (await h.call('GET', `/v1/rooms/${a.room.room_id}`, { token: tenant.api_key })).body;
  expect(header(a.hangUp.headers, 'content-type')).toBe('application/json');
  expect(JSON.parse(a.hangUp.body)).toEqual({ room_id: a.room.room_id, session_id: view.session_id });
  expect(hangUpVerifiesFor(a.room.room_id, a.hangUp)).toBe(true);
  expect(hangUpVerifiesFor(b.room.room_id, b.hangUp)).toBe(true);
  // Replayed against the other room, as is (or with the other room's body), it does not verify.
  expect(hangUpVerifiesFor(b.room.room_id, a.hangUp)).toBe(false);
  expect(hangUpVerifiesFor(b.room.room_id, { ...a.hangUp, body: b.hangUp.body })).toBe(false);
});

it('fails the room when the gateway refuses the relay (relay_authentication_failed), and answers 410', async () => {
  const room = await createRoom();
  refusing.add(room.room_id);
  const res = await offer(whipOf(room));
  expect(res.status).toBe(410);
  const events = await eventually(async () => {
    const all = (await allEvents(h.call, tenant.api_key)).filter((e) => e.data.room_id === room.room_id);
    expect(all.map((e) => e.type)).toEqual(['room.created', 'room.failed']);
    return all;
  });
  expect(events[1]!.data).toMatchObject({ error_code: 'relay_authentication_failed' });
});
