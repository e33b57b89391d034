import { createSocket } from 'node:dgram';
import { readFile } from 'node:fs/promises';
import { createServer as createHttpServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createServer as createTlsServer } from 'node:tls';
import type { AddressInfo } from 'node:net';
import ipaddr from 'ipaddr.js';
import { request } from 'undici';
import {
  createDnsLookup,
  createPinnedDispatcher,
  isPublicAddress,
  pinnedLookup,
  resolvePublicAddress,
  validateWebhookUrl,
  withPrivateUrlHint,
} from './address-policy';

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

/** A UDP nameserver on loopback: answers A/AAAA from `zone`, NXDOMAIN for other names, nothing for `silent` ones. */
async function startNameserver(
  zone: Record<string, { a?: string[]; aaaa?: string[]; ttl?: number }>,
  silent: string[] = [],
): Promise<{ server: string; queries: string[]; close(): Promise<void> }> {
  const socket = createSocket('udp4');
  const queries: string[] = [];
  socket.on('message', (msg, rinfo) => {
    let at = 12;
    const labels: string[] = [];
    while (at < msg.length && msg[at] !== 0) {
      const len = msg[at]!;
      labels.push(msg.toString('latin1', at + 1, at + 1 + len));
      at += 1 + len;
    }
    const questionEnd = at + 5;
    const name = labels.join('.').toLowerCase();
    const qtype = msg.readUInt16BE(at + 1);
    queries.push(`${qtype === 28 ? 'AAAA' : 'A'} ${name}`);
    if (silent.some((s) => name === s || name.endsWith(`.${s}`))) return;
    const entry = zone[name];
    const addresses = entry ? ((qtype === 28 ? entry.aaaa : entry.a) ?? []) : [];
    const header = Buffer.alloc(12);
    msg.copy(header, 0, 0, 2);
    header.writeUInt16BE(entry ? 0x8180 : 0x8183, 2); // response, RD, RA; NOERROR or NXDOMAIN
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(addresses.length, 6);
    const answers = addresses.map((address) => {
      const rdata =
        qtype === 28 ? Buffer.from(ipaddr.parse(address).toByteArray()) : Buffer.from(address.split('.').map(Number));
      const rr = Buffer.alloc(12);
      rr.writeUInt16BE(0xc00c, 0); // the question's name
      rr.writeUInt16BE(qtype, 2);
      rr.writeUInt16BE(1, 4);
      rr.writeUInt32BE(entry?.ttl ?? 60, 6);
      rr.writeUInt16BE(rdata.length, 10);
      return Buffer.concat([rr, rdata]);
    });
    socket.send(Buffer.concat([header, msg.subarray(12, questionEnd), ...answers]), rinfo.port, rinfo.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return {
    server: `127.0.0.1:${socket.address().port}`,
    queries,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}

describe('createDnsLookup (c-ares, bounded, cached)', () => {
  const quiet = { log: () => undefined };

  it('fails within its bound against a nameserver that never answers', async () => {
    const blackHole = createSocket('udp4');
    let received = 0;
    blackHole.on('message', () => received++);
    await new Promise<void>((resolve) => blackHole.bind(0, '127.0.0.1', resolve));
    try {
      const lookup = createDnsLookup({ timeoutMs: 300, servers: [`127.0.0.1:${blackHole.address().port}`] });
      const started = performance.now();
      const r = await resolvePublicAddress('hooks.tenant-with-dead-dns.example', {
        allowPrivate: false,
        lookup,
        ...quiet,
      });
      const elapsed = performance.now() - started;
      expect(r).toEqual({
        ok: false,
        message: 'url must resolve to a public address.',
        reason: 'url host hooks.tenant-with-dead-dns.example could not be resolved (ETIMEOUT).',
      });
      expect(received).toBeGreaterThan(0); // the queries did go to the black hole
      expect(elapsed).toBeGreaterThanOrEqual(250);
      expect(elapsed).toBeLessThan(1000);
    } finally {
      await new Promise<void>((resolve) => blackHole.close(() => resolve()));
    }
  });

  it('keeps the threadpool free: file reads are not held up by lookups stuck on a dead nameserver', async () => {
    const ns = await startNameserver({}, ['dead.example']);
    try {
      const lookup = createDnsLookup({ timeoutMs: 1500, servers: [ns.server] });
      // More stuck lookups than libuv has threads (4): with getaddrinfo, the reads below would wait.
      const stuck = Array.from({ length: 8 }, (_, i) => lookup(`h${i}.dead.example`).catch(() => 'failed'));
      const started = performance.now();
      await Promise.all(Array.from({ length: 8 }, () => readFile(__filename)));
      expect(performance.now() - started).toBeLessThan(500);
      expect(ns.queries.length).toBeGreaterThanOrEqual(8);
      expect(await Promise.all(stuck)).toEqual(Array(8).fill('failed'));
    } finally {
      await ns.close();
    }
  });

  it('resolves A and AAAA through the nameserver and pins a checked public address', async () => {
    const ns = await startNameserver({
      'hooks.example.com': { a: ['93.184.216.34'], aaaa: ['2606:2800:220:1:248:1893:25c8:1946'] },
      'v6only.example.com': { aaaa: ['2606:4700::6810:84e5'] },
      'internal.example.com': { a: ['93.184.216.34'], aaaa: ['fd00::5'] },
    });
    try {
      const lookup = createDnsLookup({ timeoutMs: 2000, servers: [ns.server] });
      await expect(resolvePublicAddress('hooks.example.com', { allowPrivate: false, lookup })).resolves.toEqual({
        ok: true,
        address: '93.184.216.34',
        family: 4,
      });
      await expect(resolvePublicAddress('v6only.example.com', { allowPrivate: false, lookup })).resolves.toEqual({
        ok: true,
        address: '2606:4700::6810:84e5',
        family: 6,
      });
      const privateOne = await resolvePublicAddress('internal.example.com', { allowPrivate: false, lookup, ...quiet });
      const missing = await resolvePublicAddress('missing.example.com', { allowPrivate: false, lookup, ...quiet });
      expect(privateOne).toMatchObject({ ok: false, message: 'url must resolve to a public address.' });
      expect(missing).toMatchObject({ ok: false, message: 'url must resolve to a public address.' });
      expect(missing.ok || missing.reason).toBe('url host missing.example.com could not be resolved (ENOTFOUND).');
    } finally {
      await ns.close();
    }
  });

  it('caches a positive answer for its TTL, shares concurrent lookups, and caches no failure', async () => {
    const ns = await startNameserver({
      'cached.example.com': { a: ['93.184.216.34'], ttl: 60 },
      'nocache.example.com': { a: ['93.184.216.34'], ttl: 0 },
    });
    let now = 1_000_000;
    try {
      const lookup = createDnsLookup({ timeoutMs: 2000, servers: [ns.server], now: () => now });
      const count = (name: string) => ns.queries.filter((q) => q === `A ${name}`).length;
      const [a, b] = await Promise.all([lookup('cached.example.com'), lookup('Cached.Example.com.')]);
      expect(a).toEqual([{ address: '93.184.216.34', family: 4 }]);
      expect(b).toEqual(a);
      expect(count('cached.example.com')).toBe(1);
      now += 59_000;
      await lookup('cached.example.com');
      expect(count('cached.example.com')).toBe(1);
      now += 2_000;
      await lookup('cached.example.com');
      expect(count('cached.example.com')).toBe(2);

      await lookup('nocache.example.com');
      await lookup('nocache.example.com');
      expect(count('nocache.example.com')).toBe(2);

      await expect(lookup('gone.example.com')).rejects.toMatchObject({ code: 'ENOTFOUND' });
      await expect(lookup('gone.example.com')).rejects.toMatchObject({ code: 'ENOTFOUND' });
      expect(count('gone.example.com')).toBe(2);
    } finally {
      await ns.close();
    }
  });
});

describe('pinnedLookup', () => {
  it('answers both the single and the all:true forms with the pinned address', async () => {
    const lookup = pinnedLookup('203.0.113.10', 4);
    const single = await new Promise<unknown[]>((resolve) =>
      lookup('anything.example', {}, (...args) => resolve(args)),
    );
    expect(single).toEqual([null, '203.0.113.10', 4]);
    const all = await new Promise<unknown[]>((resolve) =>
      lookup('anything.example', { all: true }, (...args) => resolve(args)),
    );
    expect(all).toEqual([null, [{ address: '203.0.113.10', family: 4 }]]);
  });

  it('refuses an address that does not match its family', () => {
    expect(() => pinnedLookup('::1', 4)).toThrow(TypeError);
    expect(() => pinnedLookup('example.com', 4)).toThrow(TypeError);
  });
});

describe('createPinnedDispatcher', () => {
  let server: Server;
  let port: number;
  const seen: Array<{ headers: IncomingHttpHeaders; localAddress: string | undefined }> = [];

  beforeAll(async () => {
    server = createHttpServer((req, res) => {
      seen.push({ headers: req.headers, localAddress: req.socket.localAddress });
      res.writeHead(200, { 'content-type': 'text/plain' }).end('pinned');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('connects to the pinned address while keeping the original Host', async () => {
    const dispatcher = createPinnedDispatcher('127.0.0.1', 4, { timeoutMs: 5_000 });
    try {
      const res = await request(`http://some-name.invalid:${port}/hook`, { method: 'POST', body: '{}', dispatcher });
      expect(res.statusCode).toBe(200);
      expect(await res.body.text()).toBe('pinned');
      const last = seen[seen.length - 1];
      expect(last?.headers.host).toBe(`some-name.invalid:${port}`);
      expect(last?.localAddress).toBe('127.0.0.1');
    } finally {
      await dispatcher.close();
    }
  });

  it('the same name does not resolve without pinning', async () => {
    // .invalid never resolves (RFC 6761), so reaching the server above proves the pin was used.
    await expect(request(`http://some-name.invalid:${port}/hook`)).rejects.toThrow();
  });

  it('keeps the original hostname for TLS SNI', async () => {
    let servername: string | undefined;
    const tlsServer = createTlsServer({
      SNICallback: (name, cb) => {
        servername = name;
        cb(new Error('no certificate here'), undefined);
      },
    });
    await new Promise<void>((resolve) => tlsServer.listen(0, '127.0.0.1', resolve));
    const tlsPort = (tlsServer.address() as AddressInfo).port;
    const dispatcher = createPinnedDispatcher('127.0.0.1', 4, { timeoutMs: 5_000 });
    try {
      await expect(request(`https://hooks.some-name.invalid:${tlsPort}/`, { dispatcher })).rejects.toThrow();
      expect(servername).toBe('hooks.some-name.invalid');
    } finally {
      await dispatcher.close();
      await new Promise<void>((resolve) => tlsServer.close(() => resolve()));
    }
  });
});
