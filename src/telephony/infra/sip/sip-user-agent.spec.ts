/**
 * The user agent and its media port (call-media.ts), against a raw UDP peer and a port that records
 * what it is asked: the offer checked before routing, media bound only once routed and after the 180,
 * its SDP in the 200, started at the ACK; a lost media hangs up; an outbound call's answer goes to it.
 */
import { createSocket, type Socket } from 'node:dgram';
import type { CallMediaPort, MediaBinding, MediaRefusal } from './call-media';
import {
  header,
  parseDatagram,
  responseTo,
  serialiseSipMessage,
  type SipMessage,
  type SipRequest,
} from './sip-message';
import { SipUserAgent } from './sip-user-agent';

const eventually = async (check: () => boolean, ms = 3000) => {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
};

class FakeMedia {
  closed = false;
  close(): void {
    this.closed = true;
  }
}

/** Records the calls it is asked in `log`; refuses offers that say `refuse`. */
class FakeMediaPort implements CallMediaPort<FakeMedia> {
  readonly log: string[] = [];
  lastBinding: MediaBinding | null = null;
  refuseAnswer: MediaRefusal | null = null;

  answer(offerSdp: string) {
    this.log.push('answer');
    if (offerSdp.includes('refuse')) return { reject: 488 as const, reason: 'refused by the test' };
    return {
      bind: (binding: MediaBinding) => {
        this.log.push('bind');
        this.lastBinding = binding;
        return Promise.resolve({
          sdp: `answer from ${binding.publicHost}`,
          media: new FakeMedia(),
          start: () => this.log.push('start'),
        });
      },
    };
  }

  offer(binding: MediaBinding) {
    this.log.push('offer');
    this.lastBinding = binding;
    return Promise.resolve({
      sdp: 'our offer',
      media: new FakeMedia(),
      complete: (answerSdp: string) => {
        this.log.push(`complete ${answerSdp}`);
        return this.refuseAnswer;
      },
    });
  }

  stateSizes() {
    return { fake_media: 0 };
  }
}

describe('the SIP user agent takes its media through a port', () => {
  let ua: SipUserAgent<FakeMedia>;
  let media: FakeMediaPort;
  let peer: Socket;
  const received: SipMessage[] = [];
  const errors: string[] = [];

  beforeEach(async () => {
    media = new FakeMediaPort();
    received.length = 0;
    errors.length = 0;
    ua = new SipUserAgent({
      listenHost: '127.0.0.1',
      listenPort: 0,
      media,
      onError: (error) => errors.push(error.message),
      trace: (direction, message) => {
        if (direction === 'out' && message.kind === 'response' && message.status === 180) media.log.push('180');
      },
    });
    await ua.start();
    peer = createSocket('udp4');
    peer.on('message', (data) => {
      const message = parseDatagram(data);
      received.push(message);
      if (message.kind === 'request' && message.method === 'BYE') send(responseTo(message, 200, 'OK'));
    });
    await new Promise<void>((resolve) => peer.bind(0, '127.0.0.1', () => resolve()));
  });
  afterEach(async () => {
    await ua.stop();
    peer.close();
  });

  const send = (message: SipMessage) => peer.send(serialiseSipMessage(message), ua.address.port, '127.0.0.1');
  const statuses = () => received.flatMap((m) => (m.kind === 'response' ? [m.status] : []));
  const invite = (body: string, callId = 'media-port-1'): SipMessage => {
    const { port } = peer.address();
    return parseDatagram(
      Buffer.from(
        [
          `INVITE sip:+1555@127.0.0.1:${ua.address.port} SIP/2.0`,
          `Via: SIP/2.0/UDP 127.0.0.1:${port};branch=z9hG4bK${callId}`,
          `From: <sip:+1666@127.0.0.1:${port}>;tag=raw`,
          `To: <sip:+1555@127.0.0.1:${ua.address.port}>`,
          `Call-ID: ${callId}`,
          'CSeq: 1 INVITE',
          `Contact: <sip:raw@127.0.0.1:${port}>`,
          'Content-Type: application/sdp',
          '',
          body,
        ].join('\r\n'),
      ),
    );
  };
  const ack = (ok: SipMessage): SipMessage => ({
    kind: 'request',
    method: 'ACK',
    uri: `sip:agent@127.0.0.1:${ua.address.port}`,
    headers: [
      { name: 'Via', value: `SIP/2.0/UDP 127.0.0.1:${peer.address().port};branch=z9hG4bKack` },
      { name: 'From', value: header(ok, 'From') ?? '' },
      { name: 'To', value: header(ok, 'To') ?? '' },
      { name: 'Call-ID', value: header(ok, 'Call-ID') ?? '' },
      { name: 'CSeq', value: '1 ACK' },
    ],
    body: '',
  });

  const options = (branch: string, dialog?: SipMessage): SipMessage => ({
    kind: 'request',
    method: 'OPTIONS',
    uri: `sip:agent@127.0.0.1:${ua.address.port}`,
    headers: [
      { name: 'Via', value: `SIP/2.0/UDP 127.0.0.1:${peer.address().port};branch=z9hG4bK${branch}` },
      { name: 'From', value: dialog ? (header(dialog, 'From') ?? '') : '<sip:probe@127.0.0.1>;tag=probe' },
      { name: 'To', value: dialog ? (header(dialog, 'To') ?? '') : '<sip:agent@127.0.0.1>' },
      { name: 'Call-ID', value: dialog ? (header(dialog, 'Call-ID') ?? '') : `probe-${branch}` },
      { name: 'CSeq', value: '7 OPTIONS' },
    ],
    body: '',
  });
  const optionsAnswer = (branch: string) =>
    received.find((m) => m.kind === 'response' && (header(m, 'Via') ?? '').includes(branch));

  it('OPTIONS outside a call says whether new calls are taken (200 or 503); inside a call it is always 200', async () => {
    let taking = true;
    ua.onOptions(() => taking);
    ua.onInvite(() => Promise.resolve({ answered: () => undefined }));
    send(options('probe1'));
    await eventually(() => optionsAnswer('probe1') !== undefined);
    expect(optionsAnswer('probe1')).toMatchObject({ status: 200 });
    taking = false;
    send(options('probe2'));
    await eventually(() => optionsAnswer('probe2') !== undefined);
    expect(optionsAnswer('probe2')).toMatchObject({ status: 503 });
    // A call's keep-alive is answered 200 whatever new calls would be told.
    send(invite('an offer', 'options-call'));
    const inviteOk = () =>
      received.find((m) => m.kind === 'response' && m.status === 200 && header(m, 'Call-ID') === 'options-call');
    await eventually(() => inviteOk() !== undefined);
    const ok = received.find(
      (m) => m.kind === 'response' && m.status === 200 && header(m, 'Call-ID') === 'options-call',
    );
    if (!ok) throw new Error('no 200');
    send(ack(ok));
    send(options('keepalive', ok));
    await eventually(() => optionsAnswer('keepalive') !== undefined);
    expect(optionsAnswer('keepalive')).toMatchObject({ status: 200 });
  });

  it('an offer the port refuses is 488 before routing: the handler is not asked, nothing is bound', async () => {
    let asked = false;
    ua.onInvite(() => {
      asked = true;
      return Promise.resolve('answer');
    });
    send(invite('refuse'));
    await eventually(() => statuses().includes(488));
    expect(asked).toBe(false);
    expect(media.log).toEqual(['answer']);
    expect(statuses()).not.toContain(180);
  });

  it('routes, rings, then binds; the 200 carries the port’s SDP, and the media starts at the ACK', async () => {
    const answered: FakeMedia[] = [];
    ua.onInvite(() => {
      media.log.push('routed');
      return Promise.resolve({ answered: (m: FakeMedia) => answered.push(m) });
    });
    send(invite('an offer'));
    await eventually(() => statuses().includes(200));
    const ok = received.find((m) => m.kind === 'response' && m.status === 200);
    if (!ok) throw new Error('no 200');
    expect(ok.body).toBe(`answer from ${ua.address.host}`);
    expect(answered).toHaveLength(1);
    expect(media.log).toEqual(['answer', 'routed', '180', 'bind']);
    send(ack(ok));
    await eventually(() => media.log.includes('start'));
    expect(media.log.filter((e) => e === 'start')).toHaveLength(1);
  });

  it('a media lost by itself is reported, and the call is hung up with a BYE (ended by error)', async () => {
    let ended: Promise<{ by: string }> | null = null;
    ua.onInvite(({ call }) => {
      ended = call.ended;
      return Promise.resolve('answer');
    });
    send(invite('an offer', 'media-port-2'));
    await eventually(() => statuses().includes(200));
    const ok = received.find((m) => m.kind === 'response' && m.status === 200);
    if (!ok) throw new Error('no 200');
    send(ack(ok));
    await eventually(() => media.log.includes('start'));
    media.lastBinding?.onLost(new Error('the media failed'));
    await eventually(() => received.some((m) => m.kind === 'request' && m.method === 'BYE'));
    await expect(ended).resolves.toEqual({ by: 'error' });
    expect(errors).toEqual(['the media failed']);
  });

  it.each([
    ['taken: the call is answered', null, 'answered'],
    ['refused: ACK, BYE, failed 488', { reject: 488 as const, reason: 'no' }, 'failed'],
  ])('an outbound call offers the port’s SDP; the 2xx’s answer is %s', async (_, refusal, kind) => {
    media.refuseAnswer = refusal;
    const placed = await ua.call({
      to: '+1555',
      from: '+1666',
      trunkUri: `sip:127.0.0.1:${peer.address().port}`,
      ringTimeoutMs: 5000,
    });
    expect(media.lastBinding?.publicHost).toBe(ua.address.host);
    await eventually(() => received.some((m) => m.kind === 'request' && m.method === 'INVITE'));
    const sent = received.find((m): m is SipRequest => m.kind === 'request' && m.method === 'INVITE');
    if (!sent) throw new Error('no INVITE');
    expect(sent.body).toBe('our offer');
    const ok = responseTo(sent, 200, 'OK', 'callee');
    ok.headers.push({ name: 'Contact', value: `<sip:callee@127.0.0.1:${peer.address().port}>` });
    ok.body = 'their answer';
    send(ok);
    const outcome = await placed.outcome;
    expect(outcome.kind).toBe(kind);
    expect(media.log).toEqual(['offer', 'complete their answer']);
    await eventually(() => received.some((m) => m.kind === 'request' && m.method === 'ACK'));
    if (refusal) {
      expect(outcome).toEqual({ kind: 'failed', code: 488 });
      await eventually(() => received.some((m) => m.kind === 'request' && m.method === 'BYE'));
      expect(placed.call.media.closed).toBe(true);
    }
  });
});
