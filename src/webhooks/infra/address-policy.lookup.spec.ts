// The lookup half of the address policy: the bounded, cached c-ares resolver against a nameserver on
// loopback, and the pinned connections. What counts as public is in address-policy.spec.ts.
import { createSocket } from 'node:dgram';
import { readFile } from 'node:fs/promises';
import { createServer as createHttpServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createServer as createTlsServer } from 'node:tls';
import type { AddressInfo } from 'node:net';
import ipaddr from 'ipaddr.js';
import { request } from 'undici';
import { createDnsLookup, createPinnedDispatcher, pinnedLookup, resolvePublicAddress } from './address-policy';

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
