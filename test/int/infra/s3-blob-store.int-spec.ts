/**
 * The blob store contract on the S3 adapter (@aws-sdk/client-s3), against a STAND-IN S3-compatible
 * server on loopback written for the tests (test/support/s3-stand-in.ts): no S3 server runs here.
 * With S3_ENDPOINT, S3_BUCKET (and S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, S3_REGION) set, the same
 * contract also runs against that real server (MinIO, for example), under a per-run key prefix;
 * otherwise that run is skipped, and says why.
 */
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { randomUUID } from 'node:crypto';
import { S3BlobStore } from '../../../src/infra/blobs/s3-blob-store';
import { startS3StandIn, type S3StandIn } from '../../support/s3-stand-in';
import { describeBlobStoreContract } from './blob-store.contract';

jest.setTimeout(60_000);

let standIn: S3StandIn;

describeBlobStoreContract('S3 adapter against the loopback stand-in', async () => {
  // Pages of 3 keys: deletePrefix must follow ListObjectsV2's continuation tokens.
  standIn = await startS3StandIn({ bucket: 'recordings-test', accessKeyId: 'AKIATEST', pageSize: 3 });
  const store = new S3BlobStore({
    bucket: standIn.bucket,
    endpoint: standIn.endpoint,
    region: 'us-east-1',
    accessKeyId: 'AKIATEST',
    secretAccessKey: 'stand-in-secret',
    forcePathStyle: true,
  });
  return {
    store,
    namespace: 'contract',
    cleanup: async () => {
      await store.close();
      await standIn.close();
    },
    bytesHeld: () => Promise.resolve([...standIn.objects.values()].reduce((n, o) => n + o.body.length, 0)),
  };
});

describe('S3 adapter requests', () => {
  it('used only PutObject, GetObject, CopyObject, DeleteObject and ListObjectsV2, path-style, signed', () => {
    const kinds = new Set(
      standIn.requests.map((r) => {
        const [method, target] = r.split(' ') as [string, string];
        return target.includes('list-type=2') ? `${method} list` : method;
      }),
    );
    expect([...kinds].sort()).toEqual(['DELETE', 'GET', 'GET list', 'PUT']);
    expect(standIn.requests.every((r) => r.split(' ')[1]!.startsWith('/recordings-test'))).toBe(true);
  });
});

const endpoint = process.env['S3_ENDPOINT']?.trim() || undefined;
const bucket = process.env['S3_BUCKET']?.trim() || undefined;
if (!endpoint || !bucket) {
  describe('BlobStore contract: S3 adapter against a real server', () => {
    it.skip('needs S3_ENDPOINT and S3_BUCKET (e.g. a local MinIO); the stand-in run above covers the adapter', () => {});
  });
  console.log('S3 contract against a real server skipped: S3_ENDPOINT and S3_BUCKET are not set');
} else {
  describeBlobStoreContract(`S3 adapter against ${endpoint}`, async () => {
    const settings = {
      bucket,
      endpoint,
      region: process.env['S3_REGION']?.trim() || 'us-east-1',
      accessKeyId: process.env['S3_ACCESS_KEY_ID']?.trim() || null,
      secretAccessKey: process.env['S3_SECRET_ACCESS_KEY']?.trim() || null,
      forcePathStyle: process.env['S3_FORCE_PATH_STYLE'] !== 'false',
    };
    const store = new S3BlobStore(settings);
    const namespace = `vap-contract-${randomUUID()}`;
    const client = new S3Client({
      region: settings.region,
      endpoint,
      forcePathStyle: settings.forcePathStyle,
      ...(settings.accessKeyId && settings.secretAccessKey
        ? { credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } }
        : {}),
    });
    return {
      store,
      namespace,
      cleanup: async () => {
        await store.deletePrefix(`${namespace}/`);
        await store.close();
        client.destroy();
      },
      bytesHeld: async () => {
        const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: `${namespace}/` }));
        return (page.Contents ?? []).reduce((n, o) => n + (o.Size ?? 0), 0);
      },
    };
  });
}
