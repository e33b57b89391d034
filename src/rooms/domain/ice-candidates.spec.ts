import {
  candidatePolicyFor,
  candidateProblem,
  MAX_CANDIDATES,
  MAX_QUOTED,
  quote,
  screenCandidates,
} from './ice-candidates';

const PUBLIC = { allowPrivate: false };
const LOCAL = { allowPrivate: true };
const cand = (address: string, rest = '54400 typ host') => `842163049 1 udp 1677729535 ${address} ${rest}`;

const OFFER = (candidates: string[]) =>
  [
    'v=0',
    'o=- 1 2 IN IP4 127.0.0.1',
    's=-',
    't=0 0',
    'm=audio 9 UDP/TLS/RTP/SAVPF 111 0',
    'c=IN IP4 0.0.0.0',
    'a=ice-ufrag:MA1p',
    'a=mid:0',
    ...candidates.map((c) => `a=candidate:${c}`),
    'a=end-of-candidates',
    'a=rtpmap:0 PCMU/8000',
    '',
  ].join('\r\n');

describe('candidatePolicyFor', () => {
  it('allows private addresses when HOST is loopback (any of 127/8, ::1, localhost) or MEDIA_ALLOW_PRIVATE_ADDRESSES', () => {
    for (const host of ['127.0.0.1', '127.0.0.2', '::1', '[::1]', 'localhost', '::ffff:127.0.0.1'])
      expect([host, candidatePolicyFor(host, false)]).toEqual([host, LOCAL]);
    for (const host of ['0.0.0.0', '::', '10.0.0.5', '192.168.1.2', '203.0.114.9', 'rooms.example.com'])
      expect([host, candidatePolicyFor(host, false)]).toEqual([host, PUBLIC]);
    expect(candidatePolicyFor('0.0.0.0', true)).toEqual(LOCAL);
  });
});

describe('candidateProblem', () => {
  it('keeps public IPv4 and IPv6 addresses of every candidate type', () => {
    expect(candidateProblem(cand('8.8.8.8'), PUBLIC)).toBeNull();
    expect(candidateProblem(cand('2a00:1450:4001:81b::200e'), PUBLIC)).toBeNull();
    expect(candidateProblem(cand('8.8.4.4', '3478 typ srflx raddr 10.0.0.2 rport 54400 generation 0'), PUBLIC)).toBe(
      null,
    );
    expect(candidateProblem(cand('8.8.4.4', '3478 typ relay raddr 0.0.0.0 rport 0'), PUBLIC)).toBeNull();
    expect(candidateProblem(`${cand('8.8.8.8')} generation 0 ufrag MA1p network-id 1`, PUBLIC)).toBeNull();
  });

  it('drops private, loopback, link-local, CGNAT, unique-local and other special addresses unless allowed', () => {
    const special = [
      '10.1.2.3',
      '172.16.0.1',
      '192.168.0.10',
      '100.64.0.1',
      '127.0.0.1',
      '127.0.0.5',
      '169.254.1.1',
      '192.0.2.1',
      '198.18.0.1',
      '::1',
      'fe80::1',
      'fe80::1%eth0',
      'fc00::1',
      'fd12:3456::1',
      '::ffff:10.0.0.1',
      '::ffff:127.0.0.1',
      '64:ff9b::a00:1',
      '2002:a00:1::1',
      '2001:db8::1',
    ];
    for (const address of special) {
      expect([address, candidateProblem(cand(address), PUBLIC)]).toEqual([address, 'not_public']);
      expect([address, candidateProblem(cand(address), LOCAL)]).toEqual([address, null]);
    }
  });

  it('drops unspecified, multicast and broadcast addresses even when private ones are allowed', () => {
    for (const address of ['0.0.0.0', '::', '224.0.0.251', 'ff02::fb', '255.255.255.255'])
      expect([address, candidateProblem(cand(address), LOCAL)]).toEqual([address, 'unusable']);
  });

  it('drops host names always: mDNS .local names and any other', () => {
    for (const name of ['4c7a0c2e-6b1c-4f38-9c2a-0a1b2c3d4e5f.local', 'abc.local', 'example.com', 'localhost', '127.1'])
      for (const policy of [PUBLIC, LOCAL])
        expect([name, candidateProblem(cand(name), policy)]).toEqual([name, 'host_name']);
  });

  it('drops TCP candidates (the agent has UDP sockets only)', () => {
    expect(candidateProblem('1 1 tcp 1518280447 8.8.8.8 9 typ host tcptype active', PUBLIC)).toBe('not_udp');
  });

  it('drops what does not parse', () => {
    const garbage = [
      '',
      'garbage',
      '1 1 udp 1 8.8.8.8 54400 typ',
      '1 1 udp 1 8.8.8.8 54400 type host',
      '1 1 udp 1 8.8.8.8 54400 typ weird',
      '1 1 udp x 8.8.8.8 54400 typ host',
      '1 1 udp 99999999999 8.8.8.8 54400 typ host',
      '1 0 udp 1 8.8.8.8 54400 typ host',
      '1 257 udp 1 8.8.8.8 54400 typ host',
      '1 1 udp 1 8.8.8.8 99999 typ host',
      '1 1 udp 1 8.8.8.8 0 typ host',
      '1 1 udp 1 8.8.8.8 -5 typ host',
      '1 1 udp 1  54400 typ host',
      '1 1 udp 1 8.8.8.8 54400 typ host generation',
      '1  1 udp 1 8.8.8.8 54400 typ host',
      'fo\u00f6 1 udp 1 8.8.8.8 54400 typ host',
      `${'f'.repeat(33)} 1 udp 1 8.8.8.8 54400 typ host`,
      `1 1 udp 1 8.8.8.8 54400 typ host x ${'y'.repeat(2000)}`,
    ];
    for (const value of garbage)
      expect([value.slice(0, 40), candidateProblem(value, LOCAL)]).toEqual([value.slice(0, 40), 'malformed']);
  });
});

describe('screenCandidates', () => {
  it('keeps every other line of the offer, and only the candidates the agent may send to', () => {
    const offer = OFFER([cand('8.8.8.8'), cand('abc.local'), cand('192.168.1.20'), 'garbage']);
    const screened = screenCandidates(offer, PUBLIC);
    expect(screened.sdp).toBe(OFFER([cand('8.8.8.8')]));
    expect(screened.kept).toBe(1);
    expect(screened.dropped).toEqual([
      { quoted: cand('abc.local'), reason: 'host_name' },
      { quoted: cand('192.168.1.20'), reason: 'not_public' },
      { quoted: 'garbage', reason: 'malformed' },
    ]);
    expect(screenCandidates(offer, LOCAL).sdp).toBe(OFFER([cand('8.8.8.8'), cand('192.168.1.20')]));
  });

  it(`keeps at most ${MAX_CANDIDATES} candidates`, () => {
    const many = Array.from({ length: MAX_CANDIDATES + 5 }, (_, i) => cand('8.8.8.8', `${1000 + i} typ host`));
    const screened = screenCandidates(OFFER(many), PUBLIC);
    expect(screened.kept).toBe(MAX_CANDIDATES);
    expect(screened.dropped.map((d) => d.reason)).toEqual(Array(5).fill('too_many'));
  });

  it(`quotes at most ${MAX_QUOTED} characters of a dropped line, control characters masked`, () => {
    const long = `${'x'.repeat(5000)}\u0007`;
    const [dropped] = screenCandidates(OFFER([long]), LOCAL).dropped;
    expect(dropped?.quoted).toBe(`${'x'.repeat(MAX_QUOTED)}…`);
    expect(quote('a\u0000b\u001bc')).toBe('a?b?c');
  });
});
