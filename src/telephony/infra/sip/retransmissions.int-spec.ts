/**
 * The UDP timers against a raw socket that plays a peer losing packets: our INVITE is retransmitted
 * (Timer A) until a provisional answer, and our 200 to an INVITE until its ACK (Timer G), then stop.
 * Generous bounds: the first retransmissions are due at 0.5 s and 1.5 s.
 */
import { createSocket, type Socket } from 'node:dgram';
import type { CallMediaPort } from './call-media';
import { header, parseDatagram, responseTo, serialiseSipMessage, type SipMessage } from './sip-message';
import { SipUserAgent } from './sip-user-agent';

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Media that binds nothing: the SIP timers alone are under test. */
const SDP = 'v=0\r\no=- 1 1 IN IP4 127.0.0.1\r\ns=-\r\nc=IN IP4 127.0.0.1\r\nt=0 0\r\nm=audio 9 RTP/AVP 0\r\n';
const noMedia: CallMediaPort = {
  answer: () => ({
    bind: () => Promise.resolve({ sdp: SDP, media: { close: () => undefined }, start: () => undefined }),
  }),
  offer: () => Promise.resolve({ sdp: SDP, media: { close: () => undefined }, complete: () => null }),
  stateSizes: () => ({}),
};

describe('SIP retransmissions over UDP', () => {
  let ua: SipUserAgent;
  let peer: Socket;
  const received: SipMessage[] = [];

  beforeAll(async () => {
    ua = new SipUserAgent({ listenHost: '127.0.0.1', listenPort: 0, media: noMedia });
    await ua.start();
    peer = createSocket('udp4');
    peer.on('message', (data) => received.push(parseDatagram(data)));
    await new Promise<void>((resolve) => peer.bind(0, '127.0.0.1', () => resolve()));
  });
  afterAll(async () => {
    await ua.stop();
    peer.close();
  });
  beforeEach(() => (received.length = 0));

  const send = (message: SipMessage) => peer.send(serialiseSipMessage(message), ua.address.port, '127.0.0.1');
  const count = (what: (m: SipMessage) => boolean) => received.filter(what).length;

  it('retransmits an unanswered INVITE, and stops at the first provisional answer', async () => {
    const placed = await ua.call({
      to: '+1555',
      from: '+1666',
      trunkUri: `sip:127.0.0.1:${peer.address().port}`,
      ringTimeoutMs: 20_000,
    });
    const isInvite = (m: SipMessage) => m.kind === 'request' && m.method === 'INVITE';
    await wait(1800);
    expect(count(isInvite)).toBeGreaterThanOrEqual(2); // sent at 0, 0.5 s, 1.5 s
    const invite = received.find(isInvite);
    if (invite?.kind !== 'request') throw new Error('no INVITE');
    send(responseTo(invite, 180, 'Ringing', 'peer'));
    await wait(300);
    const sofar = count(isInvite);
    await wait(2500);
    expect(count(isInvite)).toBe(sofar);
    await placed.hangUp(); // CANCEL
    await wait(300);
    expect(count((m) => m.kind === 'request' && m.method === 'CANCEL')).toBeGreaterThanOrEqual(1);
    await expect(placed.outcome).resolves.toEqual({ kind: 'no_answer', code: null });
  });

  it('retransmits the 200 of an answered INVITE until the ACK', async () => {
    ua.onInvite(async () => 'answer');
    const { port } = peer.address();
    const invite = parseDatagram(
      Buffer.from(
        [
          `INVITE sip:+1555@127.0.0.1:${ua.address.port} SIP/2.0`,
          `Via: SIP/2.0/UDP 127.0.0.1:${port};branch=z9hG4bKraw1`,
          `From: <sip:+1666@127.0.0.1:${port}>;tag=raw`,
          `To: <sip:+1555@127.0.0.1:${ua.address.port}>`,
          'Call-ID: raw-call-1',
          'CSeq: 1 INVITE',
          `Contact: <sip:raw@127.0.0.1:${port}>`,
          'Content-Type: application/sdp',
          '',
          `v=0\r\no=- 1 1 IN IP4 127.0.0.1\r\ns=-\r\nc=IN IP4 127.0.0.1\r\nt=0 0\r\nm=audio ${port + 2} RTP/AVP 8\r\n`,
        ].join('\r\n'),
      ),
    );
    send(invite);
    const isOk = (m: SipMessage) => m.kind === 'response' && m.status === 200;
    await wait(1800);
    expect(count(isOk)).toBeGreaterThanOrEqual(2);
    const ok = received.find(isOk);
    if (!ok) throw new Error('no 200');
    send({
      kind: 'request',
      method: 'ACK',
      uri: `sip:agent@127.0.0.1:${ua.address.port}`,
      headers: [
        { name: 'Via', value: `SIP/2.0/UDP 127.0.0.1:${port};branch=z9hG4bKraw2` },
        { name: 'From', value: header(ok, 'From') ?? '' },
        { name: 'To', value: header(ok, 'To') ?? '' },
        { name: 'Call-ID', value: 'raw-call-1' },
        { name: 'CSeq', value: '1 ACK' },
      ],
      body: '',
    });
    await wait(300);
    const sofar = count(isOk);
    await wait(2500);
    expect(count(isOk)).toBe(sofar);
    expect(count((m) => m.kind === 'response' && m.status === 180)).toBe(1);
  });
});
