/**
 * Two of our user agents on loopback, one the caller and one the callee (over UDP and over TCP):
 * the callee answers, audio crosses both ways, DTMF digits sent as RFC 4733 events arrive once
 * each, and a BYE from the callee ends the caller's call.
 */
import { type IncomingInvite, RtpCallMedia, type RtpMediaSession, SipUserAgent } from '../../../src/telephony/index';
import { eventually } from '../../support/eventually';
import { freeUdpPort } from '../../support/sipp';

jest.setTimeout(60_000);

const rms = (frame: Int16Array): number => Math.sqrt(frame.reduce((s, v) => s + v * v, 0) / frame.length);
const tone = (hz: number) => {
  let n = 0;
  return {
    nextFrame: () =>
      Int16Array.from({ length: 160 }, () => Math.round(5000 * Math.sin((2 * Math.PI * hz * n++) / 8000))),
  };
};

describe('our user agent calling our user agent', () => {
  const agents: SipUserAgent<RtpMediaSession>[] = [];
  const start = async () => {
    const first = await freeUdpPort(true);
    const ua = new SipUserAgent({
      listenHost: '127.0.0.1',
      listenPort: 0,
      media: new RtpCallMedia({ host: '127.0.0.1', ports: { first, last: first + 19 } }),
    });
    await ua.start();
    agents.push(ua);
    return ua;
  };
  afterAll(async () => Promise.all(agents.map((a) => a.stop())));

  it.each(['udp', 'tcp'] as const)(
    'carries audio and DTMF both ways over %s; the callee hangs up',
    async (transport) => {
      const caller = await start();
      const callee = await start();
      const answered: IncomingInvite<RtpMediaSession>[] = [];
      callee.onInvite(async (invite) => {
        answered.push(invite);
        return { answered: (media) => media.play(tone(700)) };
      });
      const placed = await caller.call({
        to: '+15551112222',
        from: '+15559870000',
        trunkUri: `sip:127.0.0.1:${callee.address.port};transport=${transport}`,
        ringTimeoutMs: 10_000,
      });
      const outcome = await placed.outcome;
      expect(outcome.kind).toBe('answered');
      expect(answered.map((i) => [i.to, i.from])).toEqual([['+15551112222', '+15559870000']]);
      const theirs = answered[0]!.call;
      const heardByCaller: number[] = [];
      const heardByCallee: number[] = [];
      const digits: string[] = [];
      placed.call.media.onFrame((f) => heardByCaller.push(rms(f)));
      theirs.media.onFrame((f) => heardByCallee.push(rms(f)));
      theirs.media.onDtmf((d) => digits.push(d));
      placed.call.media.play(tone(400));
      expect(placed.call.media.sendDtmf('12#')).toBe(true);
      await eventually(
        () => heardByCaller.filter((r) => r > 2000).length >= 25 && heardByCallee.filter((r) => r > 2000).length >= 25,
        20_000,
      );
      await eventually(() => digits.length === 3, 10_000);
      expect(digits).toEqual(['1', '2', '#']);
      await callee.hangUp(theirs);
      await expect(placed.call.ended).resolves.toEqual({ by: 'remote' });
      await expect(theirs.ended).resolves.toEqual({ by: 'local' });
    },
  );
});
