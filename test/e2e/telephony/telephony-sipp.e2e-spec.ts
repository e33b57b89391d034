/**
 * The SIP user agent against SIPp as a real peer on loopback (test/support/sipp/*.xml): outbound
 * calls answered (audio both ways, a re-INVITE refused, DTMF in, BYE either side), busy, 503, no
 * answer with CANCEL, digest challenges 401 (qop=auth) and 407 (no qop), a transfer by REFER, and
 * inbound calls answered or refused with 404. Over UDP, and TCP for one answered call.
 */
import {
  type CallOutcome,
  type OutboundCall,
  RtpCallMedia,
  type RtpMediaSession,
  SipUserAgent,
} from '../../../src/telephony/index';
import { serialiseSipMessage } from '../../../src/telephony/infra/sip/sip-message';
import { eventually } from '../../support/eventually';
import { freeUdpPort, startSipp } from '../../support/sipp';

jest.setTimeout(120_000);

const rms = (frame: Int16Array): number => Math.sqrt(frame.reduce((s, v) => s + v * v, 0) / frame.length);
const tone = (n: number): Int16Array =>
  Int16Array.from({ length: 160 }, (_, i) => Math.round(8000 * Math.sin((2 * Math.PI * 440 * (n * 160 + i)) / 8000)));

describe('SIP user agent against SIPp', () => {
  let ua: SipUserAgent<RtpMediaSession>;

  beforeAll(async () => {
    const first = await freeUdpPort(true);
    ua = new SipUserAgent({
      listenHost: '127.0.0.1',
      listenPort: 0,
      media: new RtpCallMedia({
        host: '127.0.0.1',
        ports: { first: first - (first % 2) + 2, last: first - (first % 2) + 201 },
      }),
      onError: process.env.SIP_TRACE ? (e) => console.log('error', e.message) : undefined,
      trace: process.env.SIP_TRACE ? (dir, m) => console.log(dir, serialiseSipMessage(m).toString()) : undefined,
    });
    await ua.start();
  });
  afterAll(async () => ua.stop());

  const dial = (port: number, extra: Partial<Parameters<SipUserAgent['call']>[0]> = {}, transport = 'udp') =>
    ua.call({
      to: '+15551230000',
      from: '+15559870000',
      trunkUri: `sip:127.0.0.1:${port};transport=${transport}`,
      ringTimeoutMs: 20_000,
      ...extra,
    });

  const expectSippPassed = async (run: { done: Promise<{ code: number | null; errors: string; output: string }> }) => {
    const result = await run.done;
    if (result.code !== 0)
      throw new Error(`SIPp failed (${result.code}):\n${result.errors}\n${result.output.slice(-3000)}`);
  };

  it.each(['udp', 'tcp'] as const)(
    'places a call over %s that is answered: our audio comes back (echo), a re-INVITE is refused, we hang up',
    async (transport) => {
      const sipp = await startSipp({ scenario: 'uas-answer-echo.xml', rtpEcho: true, transport });
      const placed = await dial(sipp.port, {}, transport);
      const ringing: number[] = [];
      placed.onRinging((s) => ringing.push(s));
      const outcome = await placed.outcome;
      expect(outcome.kind).toBe('answered');
      const call = placed.call;
      expect(call.media.codec?.codec).toBe('PCMU');
      const heard: number[] = [];
      const sent: number[] = [];
      call.media.onFrame((f) => heard.push(rms(f)));
      call.media.onSentFrame((f) => sent.push(rms(f)));
      let n = 0;
      call.media.play({ nextFrame: () => tone(n++) });
      await eventually(() => heard.filter((r) => r > 2000).length >= 25, 20_000);
      expect(sent.filter((r) => r > 2000).length).toBeGreaterThanOrEqual(25);
      expect(ringing).toContain(180);
      await placed.hangUp();
      await expect(call.ended).resolves.toEqual({ by: 'local' });
      await expectSippPassed(sipp);
    },
  );

  it('hears recorded A-law speech and the DTMF digits 1, 5, # once each, and the trunk hangs up', async () => {
    const sipp = await startSipp({ scenario: 'uas-answer-pcap.xml' });
    const placed = await dial(sipp.port);
    const outcome = await placed.outcome;
    expect(outcome.kind).toBe('answered');
    const call = placed.call;
    expect(call.media.codec?.codec).toBe('PCMA');
    const digits: string[] = [];
    call.media.onDtmf((d) => digits.push(d));
    const heard: number[] = [];
    call.media.onFrame((f) => heard.push(rms(f)));
    await expect(call.ended).resolves.toEqual({ by: 'remote' });
    expect(digits.join('')).toBe('15#');
    expect(heard.filter((r) => r > 300).length).toBeGreaterThan(50); // seconds of speech
    await expectSippPassed(sipp);
  });

  it.each([
    ['uas-486.xml', { kind: 'busy', code: 486 }],
    ['uas-600.xml', { kind: 'busy', code: 600 }],
    ['uas-503.xml', { kind: 'failed', code: 503 }],
  ] as const)('maps the final answer of %s', async (scenario, expected) => {
    const sipp = await startSipp({ scenario });
    const placed = await dial(sipp.port);
    await expect(placed.outcome).resolves.toEqual(expected);
    await expect(placed.call.ended).resolves.toEqual({ by: 'remote' });
    await expectSippPassed(sipp);
  });

  it('cancels a call that rings past the ring timeout: no answer', async () => {
    const sipp = await startSipp({ scenario: 'uas-ring-cancel.xml' });
    const placed = await dial(sipp.port, { ringTimeoutMs: 1500 });
    const ringing: number[] = [];
    placed.onRinging((s) => ringing.push(s));
    const outcome: CallOutcome = await placed.outcome;
    expect(outcome).toEqual({ kind: 'no_answer', code: null });
    expect(ringing).toEqual([180]);
    await expectSippPassed(sipp); // the trunk saw our CANCEL and the ACK of its 487
  });

  it.each(['uas-auth-401-qop.xml', 'uas-auth-401.xml', 'uas-auth-407.xml'])(
    'answers the digest challenge of %s',
    async (scenario) => {
      const sipp = await startSipp({ scenario });
      const placed = await dial(sipp.port, { username: 'agent', password: 's3cret' });
      expect((await placed.outcome).kind).toBe('answered');
      await expect(placed.call.ended).resolves.toEqual({ by: 'remote' });
      await expectSippPassed(sipp);
    },
  );

  it('fails with the trunk’s code when the password is wrong, or no credentials are set', async () => {
    const wrong = await startSipp({ scenario: 'uas-auth-401-qop.xml' });
    const placed = await dial(wrong.port, { username: 'agent', password: 'wrong' });
    await expect(placed.outcome).resolves.toEqual({ kind: 'failed', code: 403 });
    await expectSippPassed(wrong);
    const none = await startSipp({ scenario: 'uas-auth-407.xml', timeoutSeconds: 5 });
    const unauthenticated: OutboundCall = await dial(none.port);
    await expect(unauthenticated.outcome).resolves.toEqual({ kind: 'failed', code: 407 });
    none.kill();
  });

  it('transfers the callee by REFER, follows the NOTIFY and hangs up once the target answered', async () => {
    const sipp = await startSipp({ scenario: 'uas-refer.xml' });
    const placed = await dial(sipp.port);
    expect((await placed.outcome).kind).toBe('answered');
    await expect(ua.transfer(placed.call, '+15557770000')).resolves.toEqual({ ok: true, stage: 'notify', code: 200 });
    await expect(placed.call.ended).resolves.toEqual({ by: 'local' });
    await expectSippPassed(sipp);
  });

  it('a transfer whose target is busy (NOTIFY sipfrag 486), then one with no final NOTIFY: both fail, the call stays up', async () => {
    const sipp = await startSipp({ scenario: 'uas-refer-failing.xml' });
    const placed = await dial(sipp.port);
    expect((await placed.outcome).kind).toBe('answered');
    await expect(ua.transfer(placed.call, '+15557770000')).resolves.toEqual({ ok: false, stage: 'notify', code: 486 });
    expect(placed.call.state).toBe('confirmed');
    await expect(ua.transfer(placed.call, '+15557770000', 1500)).resolves.toEqual({
      ok: false,
      stage: 'timeout',
      code: null,
    });
    expect(placed.call.state).toBe('confirmed');
    await ua.hangUp(placed.call);
    await expectSippPassed(sipp);
  });

  it('answers an inbound INVITE to a known number (audio and DTMF flow) and refuses others with 404', async () => {
    const seen: { to: string; from: string }[] = [];
    const digits: string[] = [];
    const ended: string[] = [];
    ua.onInvite(async (invite) => {
      seen.push({ to: invite.to, from: invite.from });
      if (invite.to !== '+15551112222') return { reject: 404 };
      invite.call.onEnded((e) => ended.push(e.by));
      return { answered: (media) => media.onDtmf((d) => digits.push(d)) };
    });
    const target = `127.0.0.1:${ua.address.port}`;
    const caller = await startSipp({ scenario: 'uac-inbound.xml', target, service: '+15551112222', rtpEcho: true });
    await expectSippPassed(caller);
    await eventually(() => ended.length === 1, 10_000);
    expect(ended).toEqual(['remote']);
    expect(digits).toEqual(['9']);
    const stranger = await startSipp({ scenario: 'uac-inbound-refused.xml', target, service: '+15550009999' });
    await expectSippPassed(stranger);
    expect(seen).toEqual([
      { to: '+15551112222', from: '+15550001111' },
      { to: '+15550009999', from: '+15550001111' },
    ]);
  });

  it('stops ringing when the caller cancels: 200 to the CANCEL, 487 to the INVITE, the call ends', async () => {
    const ended: string[] = [];
    let decide: (decision: 'answer') => void = () => undefined;
    ua.onInvite((invite) => {
      invite.call.onEnded((e) => ended.push(e.by));
      return new Promise((resolve) => (decide = resolve)); // still deciding when the CANCEL comes
    });
    const target = `127.0.0.1:${ua.address.port}`;
    const caller = await startSipp({ scenario: 'uac-inbound-cancel.xml', target, service: '+15551112222' });
    await expectSippPassed(caller);
    expect(ended).toEqual(['remote']);
    decide('answer'); // too late: nothing more is sent (SIPp would have failed on a stray 200)
  });

  it('fails a call over TCP at once with 503 when the trunk refuses the connection', async () => {
    const closedPort = await freeUdpPort(); // nothing listens on it over TCP either
    const placed = await dial(closedPort, {}, 'tcp');
    await expect(placed.outcome).resolves.toEqual({ kind: 'failed', code: 503 });
  });

  it('answers 30 inbound calls placed at 10 per second, with RTP both ways, and ends each cleanly', async () => {
    const answered = new Set<string>();
    const ended: string[] = [];
    const lateness: number[] = [];
    let framesSent = 0;
    ua.onInvite(async (invite) => {
      answered.add(invite.call.callId);
      invite.call.onEnded((e) => {
        ended.push(e.by);
        framesSent += invite.call.media.stats.sent;
      });
      return {
        answered: (media) => {
          media.onPacing((ms) => lateness.push(ms)); // the bench's jitter: one report per frame sent
          let n = 0;
          media.play({ nextFrame: () => (n++ % 2 ? new Int16Array(160).fill(3000) : null) });
        },
      };
    });
    const target = `127.0.0.1:${ua.address.port}`;
    const load = await startSipp({
      scenario: 'uac-inbound.xml',
      target,
      service: '+15551112222',
      rtpEcho: true,
      calls: 30,
      rate: 10,
    });
    await expectSippPassed(load); // every call: OPTIONS 200, INVITE 200, BYE 200
    expect(answered.size).toBe(30);
    await eventually(() => ended.length === 30, 10_000);
    expect(new Set(ended)).toEqual(new Set(['remote']));
    expect(lateness.length).toBe(framesSent);
    expect(framesSent).toBeGreaterThan(30 * 40); // about 1.5 s of 20 ms frames each
    expect(lateness.every((ms) => Number.isFinite(ms) && ms >= 0)).toBe(true);
  });

  it('hangs up, as an error, a call whose peer sends no RTP at all', async () => {
    const first = await freeUdpPort(true);
    const strict = new SipUserAgent({
      listenHost: '127.0.0.1',
      listenPort: 0,
      media: new RtpCallMedia({ host: '127.0.0.1', ports: { first, last: first + 9 }, rtpTimeoutMs: 2000 }),
    });
    await strict.start();
    try {
      const sipp = await startSipp({ scenario: 'uas-answer-echo.xml' }); // no -rtp_echo: silence
      const placed = await strict.call({
        to: '+15551230000',
        from: '+15559870000',
        trunkUri: `sip:127.0.0.1:${sipp.port}`,
        ringTimeoutMs: 20_000,
      });
      expect((await placed.outcome).kind).toBe('answered');
      await expect(placed.call.ended).resolves.toEqual({ by: 'error' });
      await expectSippPassed(sipp); // it got our BYE after its re-INVITE
    } finally {
      await strict.stop();
    }
  });
});
