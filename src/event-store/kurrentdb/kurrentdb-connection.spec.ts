import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KurrentDBClient } from '@kurrent/kurrentdb-client';
import { connectionStringProblem, CONNECTION_SCHEMES, normalizeConnectionString, redact } from './kurrentdb-connection';

// The client's own parser (not exported from the package's index): what our check must agree with.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const client = require('@kurrent/kurrentdb-client/dist/Client/parseConnectionString') as {
  parseConnectionString(connectionString: string): { hosts: { address: string; port: number }[]; dnsDiscover: boolean };
};

function clientAccepts(connectionString: string): boolean {
  const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  try {
    client.parseConnectionString(connectionString);
    return true;
  } catch {
    return false;
  } finally {
    warn.mockRestore();
  }
}

/**
 * What the client's public entry point makes of a string: `KurrentDBClient.connectionString` parses
 * it (warning about options it ignores), loads the native bridge and builds a client without
 * connecting (no channel is opened before the first call; the client is disposed all the same).
 */
async function clientTakes(connectionString: string): Promise<'taken' | 'ignores an option' | 'refused'> {
  const warnings: string[] = [];
  const warn = jest.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => {
    warnings.push(args.map(String).join(' '));
  });
  try {
    const made = KurrentDBClient.connectionString(connectionString);
    await made.dispose();
    return warnings.some((w) => w.includes('setting will be ignored')) ? 'ignores an option' : 'taken';
  } catch {
    return 'refused';
  } finally {
    warn.mockRestore();
  }
}

describe('KurrentDB connection strings', () => {
  it('knows exactly the schemes of the installed client', () => {
    expect([...CONNECTION_SCHEMES].sort()).toEqual(
      [
        'esdb',
        'esdb+discover',
        'kdb',
        'kdb+discover',
        'kurrent',
        'kurrent+discover',
        'kurrentdb',
        'kurrentdb+discover',
      ].sort(),
    );
    for (const scheme of CONNECTION_SCHEMES) expect(clientAccepts(`${scheme}://localhost:2113`)).toBe(true);
    expect(clientAccepts('kdbx://localhost:2113')).toBe(false);
  });

  const accepted = [
    ...CONNECTION_SCHEMES.map((s) => `${s}://localhost:2113?tls=false`),
    'kurrentdb://a:2113,b:2113,c:2113',
    'kurrentdb://a:2113,b:2113,c:2113?tls=true&tlsVerifyCert=false&nodePreference=leader',
    'esdb://admin:changeit@node1:2113,node2:2113,node3:2113?tls=true&tlsCAFile=%2Fcerts%2Fca.crt',
    'kurrent+discover://cluster.example.com:2113?keepAliveInterval=10000&gossipTimeout=3000',
    'kdb://localhost',
    'kdb+discover://db.internal/',
    'kurrentdb://10.0.0.1:2113,10.0.0.2:2113?node_preference=follower&connection-name=vap',
    'KurrentDB://localhost:2113',
    'kurrentdb://a:2113?dnsDiscover=true',
    'kurrentdb://a:2113?throwOnAppendFailure=true&keep_alive_timeout=10000',
  ];

  it.each(accepted)('accepts %s, as the client does', (connectionString) => {
    expect(connectionStringProblem(connectionString)).toBeNull();
    expect(clientAccepts(normalizeConnectionString(connectionString))).toBe(true);
  });

  it('hands the client every gossip seed', () => {
    const parsed = client.parseConnectionString(normalizeConnectionString('kurrentdb://a:2113,b:2114,c'));
    expect(parsed.hosts).toEqual([
      { address: 'a', port: 2113 },
      { address: 'b', port: 2114 },
      { address: 'c', port: 2113 },
    ]);
    expect(parsed.dnsDiscover).toBe(false);
    expect(client.parseConnectionString(normalizeConnectionString('kdb+discover://x:2113')).dnsDiscover).toBe(true);
  });

  it('rewrites the deprecated esdb schemes and the case of the scheme, nothing else', () => {
    expect(normalizeConnectionString(' esdb://u:p@a:1,b:2?tls=false ')).toBe('kurrentdb://u:p@a:1,b:2?tls=false');
    expect(normalizeConnectionString('esdb+discover://a')).toBe('kurrentdb+discover://a');
    expect(normalizeConnectionString('KDB://a:2113')).toBe('kdb://a:2113');
    expect(normalizeConnectionString('kurrent://a:2113')).toBe('kurrent://a:2113');
  });

  const refused: [string, RegExp][] = [
    ['http://localhost:2113', /unsupported scheme "http:"/],
    ['localhost:2113', /not a connection string/],
    ['kurrentdb://', /no host/],
    ['kurrentdb://a:2113,,b:2113', /"" is not a host/],
    ['kurrentdb://a:port', /"a:port" is not a host/],
    ['kurrentdb://a:99999', /out of range/],
    ['kurrentdb://a:2113?tls=maybe', /tls must be true or false/],
    ['kurrentdb://a:2113?tsl=false', /unknown option "tsl"/],
    ['kurrentdb://a:2113?gossipTimeout=soon', /whole number/],
    ['kurrentdb://a:2113?nodePreference=nearest', /nodePreference must be/],
    ['kurrentdb://user@a:2113', /credentials must be user:password@/],
    ['kurrentdb://a:2113?dnsdiscover=true', /must be written dnsDiscover/],
    ['kurrentdb://a:2113?dns-discover=false', /must be written dnsDiscover/],
    ['kurrentdb://a:2113?throwOnAppendFailure=false', /can only be true/],
    ['kurrentdb://a:2113?connectionName=a?b', /cannot hold "\?"/],
  ];

  it.each(refused)('refuses %s with a clear reason', (connectionString, reason) => {
    expect(connectionStringProblem(connectionString)).toMatch(reason);
    expect(() => normalizeConnectionString(connectionString)).toThrow(/Invalid EventStoreDB connection string/);
  });

  it('refuses what the client refuses, and a few strings it would take and fail on later', () => {
    // stricter than the client: an unknown option (ignored with a warning), a port above 65535 and a
    // user without a password (both taken as part of the host, failing only when connecting)
    // a spelling of dnsDiscover it ignores with a warning, and throwOnAppendFailure=false (decision 50)
    const stricter = [
      'kurrentdb://a:2113?tsl=false',
      'kurrentdb://a:99999',
      'kurrentdb://user@a:2113',
      'kurrentdb://a:2113?dnsdiscover=true',
      'kurrentdb://a:2113?dns-discover=false',
      'kurrentdb://a:2113?throwOnAppendFailure=false',
    ];
    for (const [connectionString] of refused) {
      expect(clientAccepts(connectionString)).toBe(stricter.includes(connectionString));
    }
  });

  it('agrees with KurrentDBClient.connectionString: what passes is taken whole, what is refused is refused or ignored there', async () => {
    // the client reads a CA file when it is made (the grammar does not): one that exists
    const dir = mkdtempSync(join(tmpdir(), 'kdb-ca-'));
    const ca = join(dir, 'ca.crt');
    writeFileSync(ca, '');
    const withCa = (s: string) => s.replace('%2Fcerts%2Fca.crt', encodeURIComponent(ca));
    for (const connectionString of accepted) {
      expect([connectionString, await clientTakes(normalizeConnectionString(withCa(connectionString)))]).toEqual([
        connectionString,
        'taken',
      ]);
    }
    const ignoredThere = [
      'kurrentdb://a:2113?tsl=false',
      'kurrentdb://a:2113?dnsdiscover=true',
      'kurrentdb://a:2113?dns-discover=false',
    ];
    // the JS parser takes a:99999 but the native bridge the client loads refuses it
    const takenThere = [
      // fails only when connecting
      'kurrentdb://user@a:2113',
      // taken, with a meaning the platform refuses
      'kurrentdb://a:2113?throwOnAppendFailure=false',
    ];
    for (const [connectionString] of refused) {
      const expected = ignoredThere.includes(connectionString)
        ? 'ignores an option'
        : takenThere.includes(connectionString)
          ? 'taken'
          : 'refused';
      expect([connectionString, await clientTakes(connectionString)]).toEqual([connectionString, expected]);
    }
  });

  it('keeps passwords out of messages', () => {
    expect(redact('kurrentdb://admin:changeit@a:2113')).toBe('kurrentdb://admin:***@a:2113');
    expect(() => normalizeConnectionString('kurrentdb://admin:secret@a:port')).toThrow(/admin:\*\*\*@/);
  });
});
