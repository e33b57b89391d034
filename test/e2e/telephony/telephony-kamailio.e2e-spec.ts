/**
 * The SIP user agent through Kamailio, a real proxy in the path, to baresip: the proxy challenges
 * the INVITE (407 with qop=auth, checked by Kamailio itself) and records its route, so the ACK and
 * the BYE in both directions must carry the Route set back through it.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RtpCallMedia, type RtpMediaSession, SipUserAgent } from '../../../src/telephony/index';
import { cseqOf } from '../../../src/telephony/infra/sip/sip-message';
import { type Baresip, startBaresip } from '../../support/baresip';
import { eventually } from '../../support/eventually';
import { type Kamailio, startKamailio } from '../../support/kamailio';
import { freeUdpPort } from '../../support/sipp';

jest.setTimeout(120_000);

describe('SIP user agent through Kamailio', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sip-kamailio-'));
  let ua: SipUserAgent<RtpMediaSession>;
  let phone: Baresip;
  let proxy: Kamailio;
  const responses: string[] = [];

  beforeAll(async () => {
    const voice = join(dir, 'voice.wav');
    execFileSync('sox', ['-n', '-r', '8000', '-c', '1', '-b', '16', voice, 'synth', '3', 'sine', '500', 'vol', '0.3']);
    phone = await startBaresip(voice);
    proxy = await startKamailio(phone.port);
    const first = await freeUdpPort(true);
    ua = new SipUserAgent({
      listenHost: '127.0.0.1',
      listenPort: 0,
      media: new RtpCallMedia({ host: '127.0.0.1', ports: { first, last: first + 99 } }),
      trace: (direction, message) => {
        if (direction === 'in' && message.kind === 'response')
          responses.push(`${message.status} ${cseqOf(message).method}`);
      },
    });
    await ua.start();
  });

  afterAll(async () => {
    await ua?.stop();
    await proxy?.stop();
    await phone?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const dial = (password?: string) =>
    ua.call({
      to: 'phone',
      from: '+15559870000',
      trunkUri: `sip:127.0.0.1:${proxy.port}`,
      ringTimeoutMs: 20_000,
      ...(password ? { username: 'agent', password } : {}),
    });

  it('is refused with 407 without credentials or with a wrong password', async () => {
    await expect((await dial()).outcome).resolves.toEqual({ kind: 'failed', code: 407 });
    await expect((await dial('wrong')).outcome).resolves.toEqual({ kind: 'failed', code: 407 });
  });

  it('authenticates, is answered through the proxy, and our BYE reaches the phone by the route set', async () => {
    const placed = await dial('s3cret');
    const outcome = await placed.outcome;
    if (outcome.kind !== 'answered') throw new Error(`${JSON.stringify(outcome)}\n${proxy.output()}`);
    expect(placed.call.routeSet).toEqual([expect.stringMatching(new RegExp(`^<sip:127\\.0\\.0\\.1:${proxy.port};lr`))]);
    await placed.call.media.mediaFlowing();
    await placed.hangUp();
    await expect(placed.call.ended).resolves.toEqual({ by: 'local' });
    // The phone answered our BYE (relayed back by the proxy): it reached the phone by the route set.
    await eventually(() => responses.includes('200 BYE'), 10_000);
  });

  it('ends the call when the phone hangs up: its BYE comes back through the proxy', async () => {
    const placed = await dial('s3cret');
    expect((await placed.outcome).kind).toBe('answered');
    // baresip hangs up when its 3 s WAV ends.
    await expect(placed.call.ended).resolves.toEqual({ by: 'remote' });
  });
});
