import { createSocket } from 'node:dgram';
import { AllowedSources } from '../sip/allowed-sources';
import type { MediaBinding } from '../sip/call-media';
import { RtpCallMedia } from './rtp-call-media';
import { buildOffer } from './sdp';

const sdp = (host: string, port: number, payloadTypes = '0 101') =>
  ['v=0', `o=- 1 1 IN IP4 ${host}`, 's=-', `c=IN IP4 ${host}`, 't=0 0', `m=audio ${port} RTP/AVP ${payloadTypes}`, '']
    .join('\r\n')
    .concat('a=rtpmap:101 telephone-event/8000\r\n');

const PORTS = { first: 47700, last: 47709 };
const binding = (onLost: MediaBinding['onLost'] = () => undefined): MediaBinding => ({
  publicHost: '192.0.2.7',
  onLost,
});

describe('RtpCallMedia: the user agent’s media port over RTP', () => {
  const media = new RtpCallMedia({
    host: '127.0.0.1',
    ports: PORTS,
    sources: AllowedSources.parse('127.0.0.0/8, 198.51.100.0/24'),
  });

  it.each([
    ['no SDP', ''],
    ['a host name as media address', sdp('media.example.com', 30000)],
    ['port 0', sdp('198.51.100.1', 0)],
    ['port 65535 (RTCP would be out of range)', sdp('198.51.100.1', 65535)],
    ['a media address outside the allowed sources', sdp('203.0.113.9', 30000)],
    ['no codec we speak', sdp('198.51.100.1', 30000, '96 101')],
  ])('refuses an offer with %s (488), binding nothing', (_, offer) => {
    const answer = media.answer(offer);
    expect(answer).toEqual({ reject: 488, reason: expect.any(String) });
    expect(media.stateSizes()).toEqual({ rtp_ports: 0 });
  });

  it('binds an accepted offer only at `bind`, and answers it from the public host with the chosen codec', async () => {
    const answer = media.answer(sdp('198.51.100.1', 30000, '8 0 101'));
    if ('reject' in answer) throw new Error(answer.reason);
    expect(media.stateSizes()).toEqual({ rtp_ports: 0 });
    const bound = await answer.bind(binding());
    try {
      expect(media.stateSizes()).toEqual({ rtp_ports: 1 });
      expect(bound.media.port).toBeGreaterThanOrEqual(PORTS.first);
      expect(bound.sdp).toContain(`m=audio ${bound.media.port} RTP/AVP 8 101\r\n`);
      expect(bound.sdp).toContain('c=IN IP4 192.0.2.7');
      expect(bound.media.codec).toBeNull(); // not started before the ACK
      bound.start();
      expect(bound.media.codec?.codec).toBe('PCMA');
    } finally {
      bound.media.close();
    }
    expect(media.stateSizes()).toEqual({ rtp_ports: 0 });
  });

  it('offers from a bound pair; an answer it refuses starts nothing, one it takes starts the media', async () => {
    const offered = await media.offer(binding());
    try {
      expect(offered.sdp).toContain(`m=audio ${offered.media.port} RTP/AVP 0 8 101\r\n`);
      expect(offered.sdp).toContain('c=IN IP4 192.0.2.7');
      expect(offered.complete(sdp('203.0.113.9', 30000))).toEqual({ reject: 488, reason: expect.any(String) });
      expect(offered.media.codec).toBeNull();
      expect(offered.complete(buildOffer('127.0.0.1', 30000))).toBeNull();
      expect(offered.media.codec?.codec).toBe('PCMU');
    } finally {
      offered.media.close();
    }
  });

  it('tells the binding once when the peer sends nothing for `rtpTimeoutMs`', async () => {
    const sink = createSocket('udp4');
    await new Promise<void>((resolve) => sink.bind(0, '127.0.0.1', resolve));
    const strict = new RtpCallMedia({ host: '127.0.0.1', ports: PORTS, rtpTimeoutMs: 100 });
    const lost: (Error | null)[] = [];
    const offered = await strict.offer(binding((error) => lost.push(error)));
    try {
      offered.complete(buildOffer('127.0.0.1', sink.address().port));
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(lost).toEqual([null]);
    } finally {
      offered.media.close();
      sink.close();
    }
  });
});
