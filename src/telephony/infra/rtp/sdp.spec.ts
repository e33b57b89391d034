import { buildAnswer, buildOffer, negotiate, parseSdp, SdpError } from './sdp';

describe('SDP offer/answer', () => {
  it('offers PCMU, PCMA and telephone-event with ptime 20', () => {
    const offer = buildOffer('192.0.2.10', 40000);
    expect(offer).toContain('m=audio 40000 RTP/AVP 0 8 101\r\n');
    expect(offer).toContain('c=IN IP4 192.0.2.10');
    expect(offer).toMatch(/a=rtpmap:101 telephone-event\/8000\r\na=fmtp:101 0-16/);
    expect(offer).toContain('a=ptime:20');
    const parsed = parseSdp(offer);
    expect(negotiate(parsed)).toEqual({
      remoteHost: '192.0.2.10',
      remotePort: 40000,
      codec: 'PCMU',
      payloadType: 0,
      dtmfPayloadType: 101,
    });
  });

  it('answers with the first codec of the offer it speaks, and its DTMF payload type', () => {
    const offer = [
      'v=0',
      'o=- 1 1 IN IP4 198.51.100.1',
      's=-',
      'c=IN IP4 198.51.100.1',
      't=0 0',
      'm=audio 30000 RTP/AVP 96 8 0 97',
      'c=IN IP4 198.51.100.2',
      'a=rtpmap:96 opus/48000/2',
      'a=rtpmap:97 telephone-event/8000',
    ].join('\r\n');
    const chosen = negotiate(parseSdp(offer));
    expect(chosen).toEqual({
      remoteHost: '198.51.100.2',
      remotePort: 30000,
      codec: 'PCMA',
      payloadType: 8,
      dtmfPayloadType: 97,
    });
    const answer = buildAnswer('192.0.2.10', 40002, chosen);
    expect(answer).toContain('m=audio 40002 RTP/AVP 8 97\r\n');
    expect(answer).toContain('a=rtpmap:97 telephone-event/8000');
  });

  it('refuses an offer without a common codec, without audio, or without an address', () => {
    const base = 'v=0\r\nc=IN IP4 198.51.100.1\r\nt=0 0\r\n';
    expect(() => negotiate(parseSdp(`${base}m=audio 1 RTP/AVP 96\r\na=rtpmap:96 opus/48000/2\r\n`))).toThrow(
      /No common codec/,
    );
    expect(() => parseSdp(`${base}m=video 1 RTP/AVP 96\r\n`)).toThrow(SdpError);
    expect(() => parseSdp('v=0\r\nm=audio 1 RTP/AVP 0\r\n')).toThrow(/connection address/);
  });
});
