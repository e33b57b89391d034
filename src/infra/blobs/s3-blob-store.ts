import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Logger } from '@nestjs/common';
import type { S3Settings } from '../../config/config';
import type { Readable } from 'node:stream';
import { checkKey, checkPrefix, exactly, type BlobBody, type BlobRead, type BlobStore } from './blob-store.port';

const log = new Logger('BlobStore');

/** Deletes of one prefix in flight at once (voice samples: a few files). */
const DELETE_CONCURRENCY = 8;

/**
 * Blobs in an S3-compatible bucket (BLOB_STORE=s3), one object per key. It uses only PutObject (with
 * the length known, so a stream is sent as it is read), GetObject, CopyObject (server side),
 * DeleteObject and ListObjectsV2, which every S3-compatible server implements. Checksums are
 * computed only where an operation requires them, so that servers without the newer checksum
 * headers accept the requests. A PutObject replaces the object at once: readers see the old object
 * or the new one.
 */
export class S3BlobStore implements BlobStore {
  readonly kind = 's3';
  private readonly client: S3Client;

  constructor(private readonly settings: S3Settings) {
    this.client = new S3Client({
      region: settings.region,
      ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
      forcePathStyle: settings.forcePathStyle,
      ...(settings.accessKeyId && settings.secretAccessKey
        ? { credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } }
        : {}),
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      // The SDK's warnings through the service's log (never the request: it carries the signature).
      logger: {
        trace: () => {},
        debug: () => {},
        info: () => {},
        warn: (m: unknown) => log.warn(String(m)),
        error: (m: unknown) => log.error(String(m)),
      },
    });
  }

  private get bucket(): string {
    return this.settings.bucket;
  }

  async put(key: string, body: BlobBody, contentType: string): Promise<void> {
    checkKey(key);
    const [data, size] = Buffer.isBuffer(body) ? [body, body.length] : [exactly(body.stream, body.size), body.size];
    // A body that fails (short, or its source broke) aborts the request: the SDK would wait for it.
    const abort = new AbortController();
    let failure: unknown = null;
    if (!Buffer.isBuffer(data))
      data.on('error', (err) => {
        failure = err;
        abort.abort(err);
      });
    try {
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: key,
          Body: data,
          ContentLength: size,
          ContentType: contentType,
        }),
        { abortSignal: abort.signal },
      );
    } catch (err) {
      throw failure ?? err;
    }
  }

  async copy(from: string, to: string): Promise<boolean> {
    checkKey(from);
    checkKey(to);
    try {
      await this.client.send(
        new CopyObjectCommand({ Bucket: this.bucket, Key: to, CopySource: `${this.bucket}/${from}` }),
      );
      return true;
    } catch (err) {
      if (isNotFound(err)) return false;
      throw err;
    }
  }

  async open(key: string): Promise<BlobRead | null> {
    checkKey(key);
    try {
      const out = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      if (!out.Body) return null;
      return {
        size: out.ContentLength ?? 0,
        contentType: out.ContentType ?? 'application/octet-stream',
        stream: out.Body as Readable,
      };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    checkKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async deletePrefix(prefix: string): Promise<number> {
    checkPrefix(prefix);
    let deleted = 0;
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token }),
      );
      const keys = (page.Contents ?? []).flatMap((o) => (o.Key ? [o.Key] : []));
      for (let i = 0; i < keys.length; i += DELETE_CONCURRENCY)
        await Promise.all(
          keys
            .slice(i, i + DELETE_CONCURRENCY)
            .map((key) => this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }))),
        );
      deleted += keys.length;
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return deleted;
  }

  close(): Promise<void> {
    this.client.destroy();
    return Promise.resolve();
  }
}

function isNotFound(err: unknown): boolean {
  if (err instanceof S3ServiceException)
    return err.name === 'NoSuchKey' || err.name === 'NotFound' || err.$metadata.httpStatusCode === 404;
  return false;
}
