import { digestAuthorization, parseChallenge } from './digest';

describe('digest authentication', () => {
  it('answers the RFC 2617 section 3.5 example (qop=auth) with its published response', () => {
    const challenge = parseChallenge(
      'Digest realm="testrealm@host.com", qop="auth,auth-int", nonce="dcd98b7102dd2f0e8b11d0f600bfb0c093", opaque="5ccc069c403ebaf9f0171e9517f40e41"',
    );
    expect(challenge).not.toBeNull();
    const value = digestAuthorization(challenge!, {
      method: 'GET',
      uri: '/dir/index.html',
      username: 'Mufasa',
      password: 'Circle Of Life',
      nonceCount: 1,
      cnonce: '0a4f113b',
    });
    expect(value).toContain('response="6629fae49393a05397450978507c4ef1"');
    expect(value).toContain('qop=auth');
    expect(value).toContain('nc=00000001');
    expect(value).toContain('opaque="5ccc069c403ebaf9f0171e9517f40e41"');
  });

  it('answers without qop in the RFC 2069 form (no nc, no cnonce)', () => {
    const challenge = parseChallenge('Digest realm="testrealm@host.com", nonce="dcd98b7102dd2f0e8b11d0f600bfb0c093"');
    const value = digestAuthorization(challenge!, {
      method: 'GET',
      uri: '/dir/index.html',
      username: 'Mufasa',
      password: 'Circle Of Life',
    });
    // MD5(MD5(A1):nonce:MD5(A2)), computed independently.
    expect(value).toContain('response="670fd8c2df070c60b045671b8b24ff02"');
    expect(value).not.toMatch(/qop|cnonce|nc=/);
  });

  it('refuses what it cannot answer', () => {
    expect(parseChallenge('Basic realm="x"')).toBeNull();
    expect(parseChallenge('Digest realm="x"')).toBeNull();
    const sha = parseChallenge('Digest realm="x", nonce="y", algorithm=SHA-256')!;
    expect(() => digestAuthorization(sha, { method: 'INVITE', uri: 'sip:a@b', username: 'u', password: 'p' })).toThrow(
      /Unsupported/,
    );
  });
});
