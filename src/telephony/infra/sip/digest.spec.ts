import { digestAuthorization, parseChallenge, strongestChallenge, UnsupportedDigest } from './digest';

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

  it('answers the RFC 7616 section 3.9.1 example (SHA-256, qop=auth) with its published response', () => {
    const challenge = parseChallenge(
      'Digest realm="http-auth@example.org", qop="auth, auth-int", algorithm=SHA-256, nonce="7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v", opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS"',
    )!;
    const value = digestAuthorization(challenge, {
      method: 'GET',
      uri: '/dir/index.html',
      username: 'Mufasa',
      password: 'Circle of Life',
      nonceCount: 1,
      cnonce: 'f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ',
    });
    expect(value).toContain('response="753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1"');
    expect(value).toContain('algorithm=SHA-256');
  });

  it('picks the strongest challenge offered, in any order, and skips what it cannot answer', () => {
    const sha = 'Digest realm="x", nonce="1", algorithm=SHA-256';
    const md5 = 'Digest realm="x", nonce="2", algorithm=MD5';
    const sess = 'Digest realm="x", nonce="3", algorithm=SHA-512-256-sess';
    expect(strongestChallenge([sha, md5])?.nonce).toBe('1');
    expect(strongestChallenge([md5, sha])?.nonce).toBe('1');
    expect(strongestChallenge([sess, md5])?.nonce).toBe('2');
    expect(strongestChallenge(['Digest realm="x", nonce="4"'])?.nonce).toBe('4'); // no algorithm: MD5
    expect(strongestChallenge([sess, 'Basic realm="x"', 'garbage'])).toBeNull();
  });

  it('refuses what it cannot answer', () => {
    expect(parseChallenge('Basic realm="x"')).toBeNull();
    expect(parseChallenge('Digest realm="x"')).toBeNull();
    const sess = parseChallenge('Digest realm="x", nonce="y", algorithm=SHA-512-256')!;
    expect(() => digestAuthorization(sess, { method: 'INVITE', uri: 'sip:a@b', username: 'u', password: 'p' })).toThrow(
      UnsupportedDigest,
    );
  });
});
