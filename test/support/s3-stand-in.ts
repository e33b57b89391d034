/**
 * A STAND-IN for an S3-compatible server, on loopback, for tests only: no S3 server runs here. It
 * speaks the few calls the S3 blob store adapter makes, path-style (`/bucket/key`), as S3 documents
 * them: PutObject (also `aws-chunked` bodies), GetObject (with a `Range`), CopyObject
 * (`x-amz-copy-source`), DeleteObject and ListObjectsV2 (paged by `max-keys`, `continuation-token`).
 * It checks that each request is signed (SigV4 `Authorization` with the expected access key id), not
 * the signature itself. Objects live in memory; `objects` lets a test look at what is stored.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StoredObject {
  body: Buffer;
  contentType: string;
}

export interface S3StandIn {
  readonly endpoint: string;
  readonly bucket: string;
  readonly objects: Map<string, StoredObject>;
  /** Every request as `METHOD path?query` (for checks of what the adapter sent). */
  readonly requests: string[];
  close(): Promise<void>;
}

const xml = (body: string) => `<?xml version="1.0" encoding="UTF-8"?>\n${body}`;
const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function error(res: ServerResponse, status: number, code: string, message: string): void {
  res.writeHead(status, { 'content-type': 'application/xml' });
  res.end(xml(`<Error><Code>${code}</Code><Message>${escape(message)}</Message></Error>`));
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

/** `aws-chunked`: `<hex size>[;chunk-signature=…]\r\n<bytes>\r\n` … `0…\r\n` then trailers. */
function decodeAwsChunked(raw: Buffer): Buffer {
  const out: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = raw.indexOf('\r\n', at);
    if (lineEnd < 0) throw new Error('bad aws-chunked body');
    const size = parseInt(raw.subarray(at, lineEnd).toString('latin1').split(';')[0] ?? '', 16);
    if (!Number.isFinite(size)) throw new Error('bad aws-chunked size');
    if (size === 0) return Buffer.concat(out);
    out.push(raw.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}

export async function startS3StandIn(
  opts: { bucket?: string; accessKeyId?: string; pageSize?: number } = {},
): Promise<S3StandIn> {
  const bucket = opts.bucket ?? 'vap-test';
  const accessKeyId = opts.accessKeyId ?? 'AKIASTANDIN';
  const pageSize = opts.pageSize ?? 1000;
  const objects = new Map<string, StoredObject>();
  const requests: string[] = [];

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    requests.push(`${req.method} ${url.pathname}${url.search}`);
    const auth = req.headers.authorization ?? '';
    if (!auth.startsWith(`AWS4-HMAC-SHA256 Credential=${accessKeyId}/`))
      return error(res, 403, 'AccessDenied', 'the request is not signed with the expected key');
    const [, bucketName, ...rest] = url.pathname.split('/');
    if (bucketName !== bucket) return error(res, 404, 'NoSuchBucket', `no bucket ${bucketName}`);
    const key = decodeURIComponent(rest.join('/'));

    if (req.method === 'GET' && key === '') {
      if (url.searchParams.get('list-type') !== '2') return error(res, 400, 'InvalidRequest', 'ListObjectsV2 only');
      const prefix = url.searchParams.get('prefix') ?? '';
      const after = url.searchParams.get('continuation-token') ?? '';
      const max = Math.min(pageSize, Number(url.searchParams.get('max-keys') ?? 1000));
      const keys = [...objects.keys()].filter((k) => k.startsWith(prefix) && k > after).sort();
      const page = keys.slice(0, max);
      const truncated = keys.length > page.length;
      res.writeHead(200, { 'content-type': 'application/xml' });
      res.end(
        xml(
          `<ListBucketResult><Name>${bucket}</Name><Prefix>${escape(prefix)}</Prefix><KeyCount>${page.length}</KeyCount>` +
            `<MaxKeys>${max}</MaxKeys><IsTruncated>${truncated}</IsTruncated>` +
            (truncated ? `<NextContinuationToken>${escape(page[page.length - 1]!)}</NextContinuationToken>` : '') +
            page
              .map((k) => `<Contents><Key>${escape(k)}</Key><Size>${objects.get(k)!.body.length}</Size></Contents>`)
              .join('') +
            `</ListBucketResult>`,
        ),
      );
      return;
    }
    if (key === '') return error(res, 400, 'InvalidRequest', 'a key is needed');

    if (req.method === 'PUT') {
      const source = req.headers['x-amz-copy-source'];
      if (typeof source === 'string') {
        const from = decodeURIComponent(source.replace(/^\//, '')).slice(bucket.length + 1);
        const found = objects.get(from);
        await readBody(req);
        if (!found) return error(res, 404, 'NoSuchKey', `no object ${from}`);
        objects.set(key, { ...found });
        res.writeHead(200, { 'content-type': 'application/xml' });
        res.end(
          xml(
            `<CopyObjectResult><ETag>"copy"</ETag><LastModified>${new Date().toISOString()}</LastModified></CopyObjectResult>`,
          ),
        );
        return;
      }
      let body = await readBody(req);
      if (String(req.headers['content-encoding'] ?? '').includes('aws-chunked')) body = decodeAwsChunked(body);
      const declared = req.headers['x-amz-decoded-content-length'] ?? req.headers['content-length'];
      if (declared !== undefined && Number(declared) !== body.length)
        return error(res, 400, 'IncompleteBody', `got ${body.length} bytes of ${String(declared)}`);
      objects.set(key, { body, contentType: req.headers['content-type'] ?? 'application/octet-stream' });
      res.writeHead(200, { etag: '"stored"' });
      res.end();
      return;
    }
    if (req.method === 'GET' || req.method === 'HEAD') {
      const found = objects.get(key);
      if (!found) return error(res, 404, 'NoSuchKey', `no object ${key}`);
      const range = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
      const start = range ? Number(range[1]) : 0;
      const end = range && range[2] ? Math.min(Number(range[2]), found.body.length - 1) : found.body.length - 1;
      const bytes = found.body.subarray(start, end + 1);
      res.writeHead(range ? 206 : 200, {
        'content-type': found.contentType,
        'content-length': bytes.length,
        ...(range ? { 'content-range': `bytes ${start}-${end}/${found.body.length}` } : {}),
      });
      res.end(req.method === 'HEAD' ? undefined : bytes);
      return;
    }
    if (req.method === 'DELETE') {
      objects.delete(key);
      res.writeHead(204);
      res.end();
      return;
    }
    error(res, 405, 'MethodNotAllowed', `${req.method} is not spoken here`);
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => error(res, 500, 'InternalError', String(err)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    objects,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
