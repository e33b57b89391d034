import { ConfigError, loadConfig } from './config';

describe('loadConfig: EVENTSTORE_URL', () => {
  const problems = (value: string): string[] => {
    try {
      loadConfig({ EVENTSTORE_URL: value });
      return [];
    } catch (err) {
      return (err as ConfigError).problems;
    }
  };

  it.each([
    'kurrentdb://a:2113,b:2113,c:2113',
    'esdb://localhost:2113?tls=false',
    'esdb+discover://cluster.example.com:2113',
    'kurrentdb://localhost:2113',
    'kurrentdb+discover://cluster.example.com',
    'kurrent://admin:changeit@localhost:2113?tls=true&tlsVerifyCert=false',
    'kurrent+discover://cluster.example.com:2113',
    'kdb://a:2113,b:2113?nodePreference=leader',
    'kdb+discover://cluster.example.com:2113',
  ])('accepts %s as given', (value) => {
    expect(problems(value)).toEqual([]);
    expect(loadConfig({ EVENTSTORE_URL: value }).eventStoreUrl).toBe(value);
  });

  it('is unset by default (events in PostgreSQL)', () => {
    expect(loadConfig({}).eventStoreUrl).toBeNull();
  });

  it.each([
    ['postgres://localhost/db', /unsupported scheme "postgres:"/],
    ['kurrentdb//localhost', /not a connection string/],
    ['kurrentdb://a:2113,,c:2113', /is not a host/],
    ['kurrentdb://localhost:2113?tls=no', /tls must be true or false/],
  ])('refuses %s, naming the variable and the reason', (value, reason) => {
    const found = problems(value);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^EVENTSTORE_URL is not a KurrentDB connection string/);
    expect(found[0]).toMatch(reason);
  });

  it('does not print the password of a refused string', () => {
    expect(problems('kurrentdb://admin:s3cret@a:port')[0]).not.toContain('s3cret');
  });
});

describe('loadConfig: BLOB_STORE and the S3 settings', () => {
  const problems = (env: Record<string, string>): string[] => {
    try {
      loadConfig(env);
      return [];
    } catch (err) {
      return (err as ConfigError).problems;
    }
  };

  it('defaults to PostgreSQL, without S3 settings', () => {
    expect(loadConfig({})).toMatchObject({ blobStore: 'postgres', s3: null });
  });

  it('s3: the bucket, endpoint, region, keys and path style', () => {
    expect(
      loadConfig({
        BLOB_STORE: 'S3',
        S3_BUCKET: 'recordings',
        S3_ENDPOINT: 'http://minio:9000/',
        S3_REGION: 'eu-west-3',
        S3_ACCESS_KEY_ID: 'AKIA1',
        S3_SECRET_ACCESS_KEY: 'secret',
        S3_FORCE_PATH_STYLE: 'true',
      }),
    ).toMatchObject({
      blobStore: 's3',
      s3: {
        bucket: 'recordings',
        endpoint: 'http://minio:9000',
        region: 'eu-west-3',
        accessKeyId: 'AKIA1',
        secretAccessKey: 'secret',
        forcePathStyle: true,
      },
    });
    // No keys: the SDK's default chain; no region: AWS_REGION, else us-east-1.
    expect(loadConfig({ BLOB_STORE: 's3', S3_BUCKET: 'b', AWS_REGION: 'ap-south-1' }).s3).toEqual({
      bucket: 'b',
      endpoint: null,
      region: 'ap-south-1',
      accessKeyId: null,
      secretAccessKey: null,
      forcePathStyle: false,
    });
  });

  it('refuses an unknown store, s3 without a bucket, half a key pair and a bad endpoint', () => {
    expect(problems({ BLOB_STORE: 'disk' })).toEqual(['BLOB_STORE must be postgres or s3 (got "disk")']);
    expect(problems({ BLOB_STORE: 's3' })).toEqual(['S3_BUCKET is required when BLOB_STORE=s3']);
    expect(problems({ BLOB_STORE: 's3', S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'AKIA1' })).toEqual([
      'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together (neither: the AWS SDK default chain)',
    ]);
    expect(problems({ BLOB_STORE: 's3', S3_BUCKET: 'b', S3_ENDPOINT: 'ftp://minio' })).toEqual([
      'S3_ENDPOINT must use http: or https: (got "ftp:")',
    ]);
  });
});
