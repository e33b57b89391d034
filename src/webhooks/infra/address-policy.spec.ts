import { isPublicAddress, resolvePublicAddress, validateWebhookUrl, withPrivateUrlHint } from './address-policy';

describe('isPublicAddress', () => {
  it.each([
    ['8.8.8.8'],
    ['1.1.1.1'],
    ['93.184.216.34'],
    ['100.63.255.255'], // just below CGNAT
    ['100.128.0.0'], // just above CGNAT
    ['172.15.255.255'],
    ['172.32.0.0'],
    ['198.17.255.255'],
    ['198.20.0.0'],
    ['223.255.255.254'],
    ['2606:4700:4700::1111'],
    ['2001:4860:4860::8888'],
    ['2a00:1450:4001:81c::200e'],
    ['[2606:4700:4700::1111]'],
    ['::ffff:8.8.8.8'],
    ['::ffff:808:808'],
    ['64:ff9b::8.8.8.8'],
    ['2002:0808:0808::1'],
    ['2001:0:0808:0808:0:0:f7f7:f7f7'], // Teredo: server 8.8.8.8, client 8.8.8.8 (inverted)
  ])('%s is public', (ip) => {
    expect(isPublicAddress(ip)).toBe(true);
  });

  const nonPublic: Array<[string, string]> = [
    // IPv4
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', '"this network" 0/8'],
    ['10.0.0.1', 'private 10/8'],
    ['10.255.255.255', 'private 10/8'],
    ['172.16.0.1', 'private 172.16/12'],
    ['172.31.255.255', 'private 172.16/12'],
    ['192.168.1.1', 'private 192.168/16'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['169.254.169.254', 'link-local (cloud metadata)'],
    ['100.64.0.1', 'CGNAT 100.64/10'],
    ['100.127.255.255', 'CGNAT 100.64/10'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved 240/4'],
    ['192.0.0.8', 'IETF protocol assignments 192.0.0/24'],
    ['198.18.0.1', 'benchmarking 198.18/15'],
    ['198.19.255.255', 'benchmarking 198.18/15'],
    ['192.0.2.1', 'documentation TEST-NET-1'],
    ['198.51.100.7', 'documentation TEST-NET-2'],
    ['203.0.113.9', 'documentation TEST-NET-3'],
    ['192.88.99.1', '6to4 relay anycast'],
    // IPv6
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['[::1]', 'bracketed loopback'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local with zone'],
    ['fc00::1', 'unique-local fc00::/7'],
    ['fd12:3456:789a::1', 'unique-local fc00::/7'],
    ['fec0::1', 'site-local (deprecated)'],
    ['ff02::1', 'multicast'],
    ['ff0e::1', 'multicast'],
    ['2001:db8::1', 'documentation 2001:db8::/32'],
    ['3fff::1', 'documentation 3fff::/20'],
    ['2001:2::1', 'benchmarking 2001:2::/48'],
    ['100::1', 'discard 100::/64'],
    ['2001:10::1', 'ORCHID'],
    ['4000::1', 'outside 2000::/3'],
    // IPv6 forms embedding IPv4
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:7f00:1', 'IPv4-mapped loopback, hex form'],
    ['::ffff:10.0.0.1', 'IPv4-mapped private'],
    ['::ffff:169.254.169.254', 'IPv4-mapped link-local'],
    ['::127.0.0.1', 'IPv4-compatible loopback'],
    ['::10.0.0.1', 'IPv4-compatible private'],
    ['::ffff:0:127.0.0.1', 'IPv4-translated (RFC 6145) loopback'],
    ['64:ff9b::127.0.0.1', 'NAT64 loopback'],
    ['64:ff9b::a00:1', 'NAT64 private'],
    ['64:ff9b::169.254.169.254', 'NAT64 link-local'],
    ['64:ff9b:1::8.8.8.8', 'local-use NAT64 64:ff9b:1::/48'],
    ['2002:7f00:0001::1', '6to4 of loopback'],
    ['2002:c0a8:0101::1', '6to4 of 192.168.1.1'],
    ['2002:a9fe:a9fe::1', '6to4 of link-local'],
    ['2001:0:0808:0808:0:0:80ff:fffe', 'Teredo with client 127.0.0.1'],
    ['2001:0:0808:0808:0:0:f5ff:fffe', 'Teredo with client 10.0.0.1'],
    ['2001:0:0a00:0001:0:0:f7f7:f7f7', 'Teredo with server 10.0.0.1'],
    // Not addresses, or non-canonical forms
    ['', 'empty'],
    ['localhost', 'a name'],
    ['example.com', 'a name'],
    ['127.1', 'legacy short form'],
    ['0x7f000001', 'legacy hex form'],
    ['2130706433', 'legacy integer form'],
    ['256.1.1.1', 'out of range'],
  ];
  it.each(nonPublic)('%s is not public (%s)', (ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });
});

describe('validateWebhookUrl', () => {
  const strict = { allowPrivate: false };
  const lax = { allowPrivate: true };
  const message = (url: string, opts = strict): string => {
    const r = validateWebhookUrl(url, opts);
    return r.ok ? 'ok' : r.message;
  };

  it('accepts a public https URL and returns it parsed', () => {
    const r = validateWebhookUrl('https://hooks.example.com:8443/in?x=1', strict);
    expect(r.ok && r.url.hostname).toBe('hooks.example.com');
    expect(message('https://8.8.8.8/hook')).toBe('ok');
    expect(message('https://[2606:4700:4700::1111]/hook')).toBe('ok');
  });

  it('requires a URL', () => {
    expect(message('')).toBe('url is required.');
    expect(message('   ')).toBe('url is required.');
    expect(message('hooks.example.com/in')).toBe('url must be an absolute URL such as https://example.com/webhooks.');
    expect(message('https://exa mple.com/')).toBe('url must be an absolute URL such as https://example.com/webhooks.');
    expect(message(`https://example.com/${'a'.repeat(2048)}`)).toBe('url must be at most 2048 characters.');
  });

  it('requires https unless private URLs are allowed', () => {
    expect(message('http://hooks.example.com/in')).toBe('url must use https://.');
    expect(message('ftp://hooks.example.com/in')).toBe('url must use https://.');
    expect(message('http://hooks.example.com/in', lax)).toBe('ok');
    expect(message('ftp://hooks.example.com/in', lax)).toBe('url must use https:// or http://.');
    expect(message('file:///etc/passwd', lax)).toBe('url must use https:// or http://.');
  });

  it('refuses credentials in the URL', () => {
    expect(message('https://user:pw@hooks.example.com/')).toBe('url must not contain credentials (user:password@).');
    expect(message('https://user@hooks.example.com/')).toBe('url must not contain credentials (user:password@).');
    expect(message('http://user:pw@127.0.0.1/', lax)).toBe('url must not contain credentials (user:password@).');
  });

  it.each([
    'https://127.0.0.1/',
    'https://10.1.2.3:8443/x',
    'https://169.254.169.254/latest/meta-data/',
    'https://[::1]/',
    'https://[::ffff:127.0.0.1]/',
    'https://[fd00::1]/',
    'https://2130706433/', // WHATWG URL normalises legacy forms to 127.0.0.1
    'https://0x7f.1/',
    'https://localhost/',
    'https://LOCALHOST./',
    'https://api.localhost/',
  ])('refuses the non-public host of %s at once', (url) => {
    expect(message(url)).toBe('url must not point to a private, loopback or otherwise non-public address.');
  });

  it('lets private and loopback hosts through when allowed', () => {
    expect(message('http://127.0.0.1:3000/hook', lax)).toBe('ok');
    expect(message('http://localhost:3000/hook', lax)).toBe('ok');
    expect(message('https://[::1]/', lax)).toBe('ok');
  });

  it('leaves names to DNS resolution', () => {
    expect(message('https://internal.corp/')).toBe('ok');
  });
});

describe('withPrivateUrlHint', () => {
  it.each(['http://localhost:4242/webhooks', 'https://10.0.0.1/hook', 'http://example.com/hook'])(
    'tells how to allow %s: WEBHOOK_ALLOW_PRIVATE_URLS=true, or vap listen',
    (url) => {
      const refused = validateWebhookUrl(url, { allowPrivate: false });
      expect(refused.ok).toBe(false);
      const text = withPrivateUrlHint(refused.ok ? '' : refused.message, url);
      expect(text).toMatch(
        /^url must .*\. For local development, start the service with WEBHOOK_ALLOW_PRIVATE_URLS=true/,
      );
      expect(text).toContain('`vap listen --forward-to <url>`');
    },
  );

  it.each(['not a url', 'ftp://localhost/x', 'http://user:pw@localhost/x'])(
    'adds nothing to the refusal of %j, which the setting would not lift',
    (url) => {
      expect(withPrivateUrlHint('url is bad.', url)).toBe('url is bad.');
    },
  );
});

describe('resolvePublicAddress', () => {
  const lookupOf = (...addresses: string[]) =>
    jest.fn(async (_host: string) => addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));
  const quiet = { log: () => undefined };

  it('returns a public address, preferring IPv4', async () => {
    const lookup = lookupOf('2606:4700::6810:84e5', '104.16.132.229');
    await expect(resolvePublicAddress('example.com', { allowPrivate: false, lookup })).resolves.toEqual({
      ok: true,
      address: '104.16.132.229',
      family: 4,
    });
    expect(lookup).toHaveBeenCalledWith('example.com');
  });

  it('returns an IPv6 address when that is all there is', async () => {
    await expect(
      resolvePublicAddress('v6.example.com', { allowPrivate: false, lookup: lookupOf('2606:4700::6810:84e5') }),
    ).resolves.toEqual({ ok: true, address: '2606:4700::6810:84e5', family: 6 });
  });

  it('refuses when ANY resolved address is non-public, telling the tenant nothing about it; the log gets why', async () => {
    const log = jest.fn();
    const r = await resolvePublicAddress('mixed.example.com', {
      allowPrivate: false,
      lookup: lookupOf('93.184.216.34', '10.0.0.5'),
      log,
    });
    expect(r).toEqual({
      ok: false,
      message: 'url must resolve to a public address.',
      reason: 'url host mixed.example.com resolves to 10.0.0.5, a private, loopback or otherwise non-public address.',
    });
    expect(r.ok || r.message).not.toContain('10.0.0.5');
    expect(log).toHaveBeenCalledWith(r.ok || r.reason);
  });

  it.each(['127.0.0.1', '::1', '169.254.169.254', '::ffff:192.168.0.1', '100.64.1.1'])(
    'refuses a name resolving to %s',
    async (address) => {
      const r = await resolvePublicAddress('rebind.example.com', {
        allowPrivate: false,
        lookup: lookupOf(address),
        ...quiet,
      });
      expect(r.ok).toBe(false);
    },
  );

  it('allows private addresses when told to', async () => {
    await expect(
      resolvePublicAddress('db.internal', { allowPrivate: true, lookup: lookupOf('10.0.0.5') }),
    ).resolves.toEqual({ ok: true, address: '10.0.0.5', family: 4 });
  });

  it('checks IP literals without DNS', async () => {
    const lookup = lookupOf('8.8.8.8');
    await expect(resolvePublicAddress('[::1]', { allowPrivate: false, lookup })).resolves.toMatchObject({
      ok: false,
      message: 'url host ::1 is a private, loopback or otherwise non-public address.',
    });
    await expect(resolvePublicAddress('[::1]', { allowPrivate: true, lookup })).resolves.toEqual({
      ok: true,
      address: '::1',
      family: 6,
    });
    await expect(resolvePublicAddress('1.1.1.1', { allowPrivate: false, lookup })).resolves.toEqual({
      ok: true,
      address: '1.1.1.1',
      family: 4,
    });
    expect(lookup).not.toHaveBeenCalled();
  });

  it('answers localhost names as loopback without DNS', async () => {
    const lookup = lookupOf('8.8.8.8');
    await expect(resolvePublicAddress('localhost', { allowPrivate: false, lookup })).resolves.toMatchObject({
      ok: false,
    });
    await expect(resolvePublicAddress('API.localhost.', { allowPrivate: true, lookup })).resolves.toEqual({
      ok: true,
      address: '127.0.0.1',
      family: 4,
    });
    expect(lookup).not.toHaveBeenCalled();
  });

  it('says the same to the tenant for a name that does not resolve, has no addresses, times out or is private', async () => {
    const failing = (code: string) => async (): Promise<never> => {
      throw Object.assign(new Error(`queryA ${code}`), { code });
    };
    const results = await Promise.all([
      resolvePublicAddress('nope.example', { allowPrivate: false, lookup: failing('ENOTFOUND'), ...quiet }),
      resolvePublicAddress('slow.example', { allowPrivate: false, lookup: failing('ETIMEOUT'), ...quiet }),
      resolvePublicAddress('empty.example', { allowPrivate: false, lookup: lookupOf(), ...quiet }),
      resolvePublicAddress('db.internal.example', { allowPrivate: false, lookup: lookupOf('10.1.2.3'), ...quiet }),
    ]);
    expect(new Set(results.map((r) => (r.ok ? 'ok' : r.message)))).toEqual(
      new Set(['url must resolve to a public address.']),
    );
    // The reasons, for the log, stay precise.
    expect(results.map((r) => (r.ok ? 'ok' : r.reason))).toEqual([
      'url host nope.example could not be resolved (ENOTFOUND).',
      'url host slow.example could not be resolved (ETIMEOUT).',
      'url host empty.example has no addresses.',
      'url host db.internal.example resolves to 10.1.2.3, a private, loopback or otherwise non-public address.',
    ]);
  });
});
