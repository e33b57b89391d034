/**
 * The SIP port and the RTP range facing the internet (docs/security.md, "SIP and RTP"): the service
 * (node dist/main.js) with a trunk on 127.0.0.1 (so SIP_ALLOWED_SOURCES and RTP_ALLOWED_SOURCES are,
 * by default, that one address), driven by hand-written SIP and RTP from several loopback addresses:
 * 127.0.0.1 plays the trunk, 127.0.0.5 a stranger. Each test is one item of the review that found the
 * holes, and fails on the code before it.
 */
import { createHash } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { type CallsService, stopCallsSuite } from '../../support/calls-harness';
import { eventually } from '../../support/eventually';
import { createFundedTenant } from '../../support/funded-tenant';
import {
  answeredPort,
  assignAnsweringNumber,
  invite,
  offer,
  type Received,
  RtpCounter,
  SipPeer,
  startTrunkedService,
  udpPortsBound,
} from '../../support/sip-peer';
import type { TenantInfo } from '../../support/webhooks-harness';

jest.setTimeout(120_000);

const NUMBER_A = '+14155550201';
const NUMBER_A2 = '+14155550203';
const NUMBER_B = '+14155550202';
const STRANGER = '127.0.0.5';
let h: CallsService;
let sipPort: number;
let trunk: SipPeer;
let rtpFirst: number;
let tenantA: TenantInfo;
let tenantB: TenantInfo;
const open: SipPeer[] = [];

beforeAll(async () => {
  ({ h, trunk, sipPort, rtpFirst } = await startTrunkedService(50, {
    SIP_USERNAME: 'agent',
    SIP_PASSWORD: 's3cret',
    SIP_RING_TIMEOUT: '5s',
    SIP_MAX_CALLS: '3',
    TENANT_MAX_CALLS: '2',
  }));
  tenantA = await createFundedTenant(h, 'Hardened A');
  tenantB = await createFundedTenant(h, 'Hardened B');
  await assignAnsweringNumber(h, tenantA, NUMBER_A);
  await assignAnsweringNumber(h, tenantA, NUMBER_A2);
  await assignAnsweringNumber(h, tenantB, NUMBER_B);
});

afterAll(async () => {
  for (const peer of open) peer.close();
  trunk.close();
  await stopCallsSuite(h);
});

const peerAt = async (address: string): Promise<SipPeer> => {
  const peer = await SipPeer.open(address);
  open.push(peer);
  return peer;
};

const healthy = async (): Promise<void> => {
  expect(h.svc.hasExited()).toBe(false);
  expect((await h.call('GET', '/health')).status).toBe(200);
};

const sessionsOf = async (tenant: TenantInfo): Promise<any[]> =>
  (await h.call('GET', '/v1/sessions?direction=inbound', { token: tenant.api_key })).body.data as any[];

const rtpBound = (): number[] => udpPortsBound(rtpFirst, rtpFirst + 99);

/** An inbound call from the trunk's address, answered and acknowledged; returns what ends it. */
async function answeredCall(to: string, rtp: RtpCounter) {
  const peer = await peerAt('127.0.0.1');
  const inv = invite({ to, peer, media: { host: '127.0.0.1', port: rtp.port } });
  peer.send(inv.text, sipPort);
  const ok = await peer.waitFor((m) => m.status === 200 && m.method === 'INVITE', 10_000);
  if (!ok) throw new Error(`no 200: ${peer.received.map((m) => m.status).join(',')}\n${h.diagnostics()}`);
  peer.send(inv.ack(ok), sipPort);
  return {
    peer,
    ok,
    hangUp: async () => {
      peer.send(inv.bye(ok), sipPort);
      await peer.waitFor((m) => m.status === 200 && m.method === 'BYE', 5000);
    },
  };
}

describe('who may talk SIP', () => {
  it('a forged INVITE from outside SIP_ALLOWED_SOURCES gets no answer, makes no session and binds no port', async () => {
    const stranger = await peerAt(STRANGER);
    const before = rtpBound().length;
    for (let i = 0; i < 5; i++) stranger.send(invite({ to: NUMBER_A, peer: stranger }).text, sipPort);
    expect(await stranger.waitFor(() => true, 1500)).toBeNull();
    expect(rtpBound().length).toBe(before);
    expect((await sessionsOf(tenantA)).length).toBe(0);
    // Over TCP: the connection is closed before anything is read.
    const closed = await new Promise<string>((resolve) => {
      const socket: Socket = connect({ host: '127.0.0.1', port: sipPort, localAddress: STRANGER });
      let data = '';
      socket.on('data', (d) => (data += d.toString()));
      socket.on('error', () => undefined);
      socket.on('connect', () => socket.write(invite({ to: NUMBER_A, peer: { address: STRANGER, port: 5060 } }).text));
      socket.on('close', () => resolve(data));
    });
    expect(closed).toBe('');
    // The same INVITE from the trunk's address is heard (then refused here: no SDP).
    const trunkSide = await peerAt('127.0.0.1');
    trunkSide.send(invite({ to: '+14155550999', peer: trunkSide }).text, sipPort);
    expect(await trunkSide.waitFor((m) => m.status >= 100)).not.toBeNull();
    await healthy();
  });

  it('an INVITE to a number nobody owns is 404 without ringing, and binds no port', async () => {
    const peer = await peerAt('127.0.0.1');
    const before = rtpBound().length;
    peer.send(invite({ to: '+14155550999', peer }).text, sipPort);
    const refused = await peer.waitFor((m) => m.status >= 200);
    expect(refused?.status).toBe(404);
    expect(peer.received.filter((m) => m.status === 180 || m.status === 183)).toEqual([]);
    expect(rtpBound().length).toBe(before);
  });
});

describe('SDP', () => {
  const refusedWith = async (sdp: string): Promise<number> => {
    const peer = await peerAt('127.0.0.1');
    peer.send(invite({ to: NUMBER_A, peer, sdp }).text, sipPort);
    return (await peer.waitFor((m) => m.status >= 200))?.status ?? 0;
  };

  it.each([
    ['port 0', offer('127.0.0.1', 0)],
    ['port 65535 (its RTCP would go to 65536)', offer('127.0.0.1', 65535)],
    ['a host name', offer('trunk.example.com', 40000)],
    ['the unspecified address', offer('0.0.0.0', 40000)],
    ['a multicast address', offer('239.1.2.3', 40000)],
    ['the broadcast address', offer('255.255.255.255', 40000)],
    ['an address outside RTP_ALLOWED_SOURCES', offer('127.0.0.9', 40000)],
  ])('media to %s is 488, and the service stays up', async (_what, sdp) => {
    const before = rtpBound().length;
    expect(await refusedWith(sdp)).toBe(488);
    expect(rtpBound().length).toBe(before);
    await healthy();
  });
});

describe('media', () => {
  it('flows from the ACK to the SDP address; a stranger’s packets neither take the call nor reach the agent', async () => {
    const rtp = await RtpCounter.open('127.0.0.1');
    const peer = await peerAt('127.0.0.1');
    const inv = invite({ to: NUMBER_A, peer, media: { host: '127.0.0.1', port: rtp.port } });
    peer.send(inv.text, sipPort);
    const ok = await peer.waitFor((m) => m.status === 200 && m.method === 'INVITE', 10_000);
    expect(ok).not.toBeNull();
    // Ports are bound only now, at random in the range.
    const ourPort = answeredPort(ok!);
    expect(ourPort).toBeGreaterThanOrEqual(rtpFirst);
    await new Promise((r) => setTimeout(r, 1000));
    expect(rtp.packets).toBe(0); // no media before the ACK
    peer.send(inv.ack(ok!), sipPort);
    rtp.sendRtp(ourPort, 10);
    await eventually(() => rtp.packets > 20, 5000);
    const attacker = await RtpCounter.open(STRANGER);
    attacker.sendRtp(ourPort, 50, 0x666);
    const atAttack = rtp.packets;
    await new Promise((r) => setTimeout(r, 1000));
    expect(attacker.packets).toBe(0); // the call did not move to the stranger
    expect(rtp.packets - atAttack).toBeGreaterThan(30); // and goes on to the caller
    peer.send(inv.bye(ok!), sipPort);
    expect(await peer.waitFor((m) => m.status === 200 && m.method === 'BYE')).not.toBeNull();
    attacker.close();
    rtp.close();
  });

  it('a 200 never acknowledged streams nothing and ends the call with a BYE within 32 s (failed, sip_no_ack)', async () => {
    const rtp = await RtpCounter.open('127.0.0.1');
    const peer = await peerAt('127.0.0.1');
    const inv = invite({ to: NUMBER_B, peer, media: { host: '127.0.0.1', port: rtp.port } });
    const sentAt = Date.now();
    peer.send(inv.text, sipPort);
    const ok = await peer.waitFor((m) => m.status === 200 && m.method === 'INVITE', 10_000);
    expect(ok).not.toBeNull();
    const bye = await peer.waitFor((m) => m.method === 'BYE' && m.status === 0, 40_000);
    expect(bye).not.toBeNull();
    expect(Date.now() - sentAt).toBeLessThan(36_000);
    expect(rtp.packets).toBe(0);
    let session: any;
    await eventually(async () => {
      session = (await sessionsOf(tenantB)).find((s) => s.ended_at);
      return session !== undefined;
    }, 10_000);
    expect(session).toMatchObject({ status: 'failed', end_reason: 'sip_no_ack' });
    // Nothing of the call outlives it: its ports are free again.
    await eventually(() => !rtpBound().includes(answeredPort(ok!)), 5000);
    rtp.close();
  });
});

describe('limits', () => {
  it('inbound calls count against TENANT_MAX_CALLS (486) and SIP_MAX_CALLS (503 with Retry-After)', async () => {
    const media = await Promise.all([0, 1, 2].map(() => RtpCounter.open('127.0.0.1')));
    const first = await answeredCall(NUMBER_A, media[0]!);
    const second = await answeredCall(NUMBER_A2, media[1]!);
    // Tenant A has TENANT_MAX_CALLS (2) calls: its third is busy.
    const peer = await peerAt('127.0.0.1');
    peer.send(invite({ to: NUMBER_A, peer }).text, sipPort);
    expect((await peer.waitFor((m) => m.status >= 200))?.status).toBe(486);
    // Tenant B takes the trunk's third place (SIP_MAX_CALLS = 3); a fourth call is 503, Retry-After.
    const third = await answeredCall(NUMBER_B, media[2]!);
    const fourth = await peerAt('127.0.0.1');
    fourth.send(invite({ to: NUMBER_B, peer: fourth }).text, sipPort);
    const full = await fourth.waitFor((m) => m.status >= 200);
    expect(full?.status).toBe(503);
    expect(Number(full?.header('Retry-After'))).toBeGreaterThan(0);
    for (const call of [first, second, third]) await call.hangUp();
    for (const m of media) m.close();
    // Places are given back: a new call is answered.
    await eventually(async () => {
      const rtp = await RtpCounter.open('127.0.0.1');
      try {
        const again = await answeredCall(NUMBER_A, rtp);
        await again.hangUp();
        return true;
      } catch {
        return false;
      } finally {
        rtp.close();
      }
    }, 15_000);
  });
});

describe('SIP over TCP', () => {
  const tcpExchange = (payload: Buffer | string): Promise<string> =>
    new Promise((resolve) => {
      const socket = connect({ host: '127.0.0.1', port: sipPort });
      let data = '';
      socket.on('data', (d) => (data += d.toString()));
      socket.on('error', () => undefined);
      socket.on('connect', () => socket.write(payload));
      socket.on('close', () => resolve(data));
    });

  it('a head over 16 KB is 400 and a body over 64 KB is 413, then the connection closes', async () => {
    const head = `OPTIONS sip:x@127.0.0.1 SIP/2.0\r\nX-Filler: ${'a'.repeat(20_000)}`;
    expect(await tcpExchange(head)).toMatch(/^SIP\/2\.0 400 /);
    const big = [
      `INVITE sip:${NUMBER_A}@127.0.0.1 SIP/2.0`,
      'Via: SIP/2.0/TCP 127.0.0.1:5099;branch=z9hG4bKbig',
      'From: <sip:a@127.0.0.1>;tag=1',
      `To: <sip:${NUMBER_A}@127.0.0.1>`,
      'Call-ID: big@peer',
      'CSeq: 1 INVITE',
      'Content-Length: 70000',
      '',
      '',
    ].join('\r\n');
    const answer = await tcpExchange(big);
    expect(answer).toMatch(/^SIP\/2\.0 413 /);
    expect(answer).toContain('Call-ID: big@peer');
    await healthy();
  });

  it('a source has at most 32 connections', async () => {
    const sockets: Socket[] = [];
    const closedEarly: number[] = [];
    for (let i = 0; i < 34; i++) {
      const socket = connect({ host: '127.0.0.1', port: sipPort, localAddress: '127.0.0.1' });
      socket.on('error', () => undefined);
      socket.on('close', () => closedEarly.push(i));
      sockets.push(socket);
      await new Promise((r) => socket.once('connect', r));
    }
    await new Promise((r) => setTimeout(r, 500));
    expect(closedEarly.sort((a, b) => a - b)).toEqual([32, 33]);
    for (const s of sockets) s.destroy();
  });
});

describe('containment', () => {
  it('logs quote at most 200 characters of a 60 KB malformed line', async () => {
    const peer = await peerAt('127.0.0.1');
    peer.send(`INVITE sip:x@y SIP/2.0\r\n${'Z'.repeat(60_000)}\r\n\r\n`, sipPort);
    await new Promise((r) => setTimeout(r, 500));
    await healthy();
    const output = h.svc.stdout() + h.svc.stderr();
    expect(output).toContain('ZZZZZZZZZZ'); // it was logged…
    expect(output).not.toContain('Z'.repeat(201)); // …quoted, not whole
  });
});

describe('outbound calls: the trunk’s digest challenge', () => {
  const placeThrough = async (challenges: string[], answerAfter: number) => {
    const from = '+14155550250';
    await h.call('POST', `/admin/v1/tenants/${tenantA.tenant_id}/phone_numbers`, {
      token: h.svc.adminToken,
      body: { phone_number: from },
    });
    trunk.received.length = 0;
    const res = await h.call('POST', '/v1/calls', {
      token: tenantA.api_key,
      body: { to: '+14155550777', from, agent_config: { prompt: 'Hi.' }, test_mode: false },
    });
    expect(res.status).toBe(201);
    const first = await trunk.waitFor((m) => m.method === 'INVITE' && m.status === 0, 20_000);
    expect(first).not.toBeNull();
    trunk.send(response(first!, 401, challenges), first!.from.port);
    let retried: Received | null = null;
    if (answerAfter) {
      retried = await trunk.waitFor((m) => m.method === 'INVITE' && m.status === 0 && m !== first, 10_000);
      if (retried) trunk.send(response(retried, answerAfter, []), retried.from.port);
    }
    let session: any;
    await eventually(async () => {
      session = (await h.call('GET', `/v1/sessions/${res.body.session_id}`, { token: tenantA.api_key })).body;
      return session.ended_at != null;
    }, 20_000);
    return { session, retried };
  };

  it('answers SHA-256 when offered before MD5 (RFC 8760), with the right response', async () => {
    const { session, retried } = await placeThrough(
      [
        'Digest realm="trunk", nonce="n256", algorithm=SHA-256, qop="auth"',
        'Digest realm="trunk", nonce="nmd5", algorithm=MD5, qop="auth"',
      ],
      486,
    );
    const auth = retried?.header('Authorization') ?? '';
    expect(auth).toContain('algorithm=SHA-256');
    expect(auth).toContain('nonce="n256"');
    const field = (name: string) => new RegExp(`${name}="?([^",]+)"?`).exec(auth)?.[1] ?? '';
    const sha = (s: string) => createHash('sha256').update(s).digest('hex');
    const ha1 = sha('agent:trunk:s3cret');
    const ha2 = sha(`INVITE:${field('uri')}`);
    expect(field('response')).toBe(sha(`${ha1}:n256:${field('nc')}:${field('cnonce')}:auth:${ha2}`));
    expect(session).toMatchObject({ status: 'busy' });
    await healthy();
  });

  it('a challenge with no algorithm we support fails that call (sip_401), not the service', async () => {
    const { session } = await placeThrough(['Digest realm="trunk", nonce="x", algorithm=SHA-512-256'], 0);
    expect(session).toMatchObject({ status: 'failed', end_reason: 'sip_401' });
    await healthy();
  });
});

/** A response to `request` with the given status and WWW-Authenticate challenges. */
function response(request: Received, status: number, challenges: string[]): string {
  const copy = ['Via', 'From', 'To', 'Call-ID', 'CSeq'].flatMap((name) =>
    request.headers(name).map((value) => `${name}: ${name === 'To' ? `${value};tag=trunk1` : value}`),
  );
  return [
    `SIP/2.0 ${status} Whatever`,
    ...copy,
    ...challenges.map((c) => `WWW-Authenticate: ${c}`),
    'Content-Length: 0',
    '',
    '',
  ].join('\r\n');
}
