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
  ];

  it.each(refused)('refuses %s with a clear reason', (connectionString, reason) => {
    expect(connectionStringProblem(connectionString)).toMatch(reason);
    expect(() => normalizeConnectionString(connectionString)).toThrow(/Invalid EventStoreDB connection string/);
  });

  it('refuses what the client refuses, and a few strings it would take and fail on later', () => {
    // stricter than the client: an unknown option (ignored with a warning), a port above 65535 and a
    // user without a password (both taken as part of the host, failing only when connecting)
    const stricter = ['kurrentdb://a:2113?tsl=false', 'kurrentdb://a:99999', 'kurrentdb://user@a:2113'];
    for (const [connectionString] of refused) {
      expect(clientAccepts(connectionString)).toBe(stricter.includes(connectionString));
    }
  });

  it('keeps passwords out of messages', () => {
    expect(redact('kurrentdb://admin:changeit@a:2113')).toBe('kurrentdb://admin:***@a:2113');
    expect(() => normalizeConnectionString('kurrentdb://admin:secret@a:port')).toThrow(/admin:\*\*\*@/);
  });
});
