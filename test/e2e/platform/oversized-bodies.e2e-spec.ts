/**
 * Refused bodies are answered, not reset (decision 179): a body over its limit, or one refused before
 * it is read (a 415, a multipart upload refused half-way), is read and dropped up to 16 MB before the
 * answer, so Node's `fetch` (undici, the Node client's transport) reads the 413's error body instead
 * of failing with EPIPE or a reset. Past 16 MB, or past HTTP_REQUEST_TIMEOUT_MS, the connection is
 * closed; the service serves the next request either way. Real sockets, the service in-process.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import Ajv2020 from 'ajv/dist/2020';
import { AudioFixtures } from '../../support/audio-fixtures';
import type { CreatedTenant } from '../../support/app';
import { startListeningApp, type ListeningApp } from '../../support/webhooks-app';

jest.setTimeout(60_000);

type Json = Record<string, any>;
const MB = 1024 * 1024;
const TIMEOUT_MS = 3000;

let app: ListeningApp;
let tenant: CreatedTenant;
let document: Json;
const audio = new AudioFixtures();

beforeAll(async () => {
  app = await startListeningApp({ HTTP_REQUEST_TIMEOUT_MS: String(TIMEOUT_MS) });
  tenant = await app.t.createTenant('Oversized Bodies Co', 'pro');
  document = (await (await fetch(`${app.baseUrl}/openapi.json`)).json()) as Json;
});
afterAll(async () => {
  await app?.close();
  audio.remove();
});

/** A JSON body of about `bytes` bytes that is a valid call request but for its size. */
function callBody(bytes: number): string {
  const head = '{"to":"+14155550100","from":"+14155550000","test_mode":true,"agent_config":{"prompt":"';
  return `${head}${'x'.repeat(bytes - head.length - 3)}"}}`;
}

const postCall = (body: string, contentType = 'application/json') =>
  fetch(`${app.baseUrl}/v1/calls`, {
    method: 'POST',
    headers: { authorization: `Bearer ${tenant.api_key}`, 'content-type': contentType },
    body,
  });

/** The response of `operationId` for `status` as the document declares it, and Ajv's verdict on `body`. */
function checkAgainstDocument(path: string, method: string, status: number, body: unknown): string[] {
  const response = document.paths[path]?.[method]?.responses?.[String(status)];
  if (!response) return [`${method.toUpperCase()} ${path} does not declare ${status}`];
  const ajv = new Ajv2020({ strict: false, validateFormats: false });
  ajv.addSchema({ ...document, $id: 'openapi' }, 'openapi');
  const validate = ajv.compile({ $ref: `openapi${String(response.content['application/json'].schema.$ref)}` });
  return validate(body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}

async function expectTooLarge(res: Response): Promise<void> {
  expect(res.status).toBe(413);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  const body = (await res.json()) as Json;
  expect(body.error).toMatchObject({ type: 'payload_too_large', request_id: res.headers.get('request-id') });
  expect(checkAgainstDocument('/v1/calls', 'post', 413, body)).toEqual([]);
}

async function expectServing(): Promise<void> {
  const res = await fetch(`${app.baseUrl}/health`);
  expect(res.status).toBe(200);
}

/**
 * `fetch` in another process, as a client is: in this one the service's event loop is the client's,
 * and the race that resets the connection (the service answers and closes while the client is still
 * writing) is rarely lost. Each attempt's status, or the error's code.
 */
function fetchFromAnotherProcess(path: string, megabytes: number, attempts: number): Promise<string[]> {
  const script = `
    const [url, key, megabytes, attempts] = process.argv.slice(1);
    (async () => {
      const head = '{"to":"+14155550100","from":"+14155550000","test_mode":true,"agent_config":{"prompt":"';
      const body = head + 'x'.repeat(Number(megabytes) * 1048576 - head.length - 3) + '"}}';
      const results = [];
      for (let i = 0; i < Number(attempts); i++) {
        try {
          const res = await fetch(url, {
            method: 'POST',
            headers: { authorization: 'Bearer ' + key, 'content-type': 'application/json' },
            body,
          });
          const answer = await res.json();
          results.push(res.status + ' ' + answer.error.type);
        } catch (err) {
          results.push(String(err.cause?.code ?? err.cause ?? err));
        }
      }
      console.log(JSON.stringify(results));
    })();`;
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['-e', script, `${app.baseUrl}${path}`, tenant.api_key, String(megabytes), String(attempts)],
      { maxBuffer: MB },
      (err, stdout) => (err ? reject(new Error(err.message)) : resolve(JSON.parse(stdout) as string[])),
    );
  });
}

describe('a JSON body over the 1 MB limit, sent with fetch', () => {
  it('5 MB from another process, 10 times: a 413 with the error body each time, never EPIPE or a reset', async () => {
    expect(await fetchFromAnotherProcess('/v1/calls', 5, 10)).toEqual(new Array(10).fill('413 payload_too_large'));
  });

  it('15 MB from another process, 3 times: a 413 with the error body each time', async () => {
    expect(await fetchFromAnotherProcess('/v1/calls', 15, 3)).toEqual(new Array(3).fill('413 payload_too_large'));
  });

  it('5 MB: a 413 with the error body, declared in the document', async () => {
    await expectTooLarge(await postCall(callBody(5 * MB)));
  });

  it('15 MB: a 413 with the error body', async () => {
    await expectTooLarge(await postCall(callBody(15 * MB)));
  });

  it('5 MB streamed (chunked, no Content-Length): a 413 with the error body', async () => {
    const text = callBody(5 * MB);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < text.length; i += 64 * 1024) controller.enqueue(Buffer.from(text.slice(i, i + 64 * 1024)));
        controller.close();
      },
    });
    await expectTooLarge(
      await fetch(`${app.baseUrl}/v1/calls`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tenant.api_key}`, 'content-type': 'application/json' },
        body: stream,
        duplex: 'half',
      }),
    );
  });

  it('20 MB streamed (chunked): read up to 16 MB, then a 413 or a closed connection; the service stays up', async () => {
    const chunk = Buffer.alloc(256 * 1024, 0x78);
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 20 * MB) return controller.close();
        controller.enqueue(sent === 0 ? Buffer.concat([Buffer.from('{"a":"'), chunk]) : chunk);
        sent += chunk.length;
      },
    });
    try {
      const res = await fetch(`${app.baseUrl}/v1/calls`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tenant.api_key}`, 'content-type': 'application/json' },
        body: stream,
        duplex: 'half',
      });
      expect(res.status).toBe(413);
    } catch (err) {
      expect(String((err as Error & { cause?: unknown }).cause ?? err)).toMatch(/EPIPE|ECONNRESET|closed|socket/i);
    }
    expect(sent).toBeLessThan(20 * MB + chunk.length);
    await expectServing();
  });

  it('20 MB: a 413 or a closed connection, and the service serves the next request', async () => {
    try {
      await expectTooLarge(await postCall(callBody(20 * MB)));
    } catch (err) {
      // Past 16 MB the connection may be closed before the body is sent.
      expect(String((err as Error & { cause?: unknown }).cause ?? err)).toMatch(/EPIPE|ECONNRESET|closed|socket/i);
    }
    await expectServing();
    expect((await postCall('{}')).status).toBe(400);
  });
});

describe('415: an unsupported Content-Type', () => {
  it('a 2 MB text/plain body gets its 415, which the document declares with the error body', async () => {
    const res = await postCall('x'.repeat(2 * MB), 'text/plain');
    expect(res.status).toBe(415);
    const body = (await res.json()) as Json;
    expect(body.error.type).toBe('unsupported_media_type');
    expect(checkAgainstDocument('/v1/calls', 'post', 415, body)).toEqual([]);
  });

  it('every operation that takes a body declares 413 and 415 with the error body', () => {
    const missing: string[] = [];
    for (const [path, item] of Object.entries(document.paths as Json))
      for (const [method, operation] of Object.entries(item as Json)) {
        if (!(operation as Json).requestBody) continue;
        for (const status of ['413', '415']) {
          const schema = (operation as Json).responses[status]?.content?.['application/json']?.schema;
          if (schema?.$ref !== '#/components/schemas/Error') missing.push(`${method.toUpperCase()} ${path} ${status}`);
        }
      }
    expect(missing).toEqual([]);
  });
});

/** A raw HTTP/1.1 exchange: what the socket received, and whether it was closed. */
function rawSocket(): Promise<{ socket: Socket; received: () => string; closed: Promise<void> }> {
  const { hostname, port } = new URL(app.baseUrl);
  const socket = connect(Number(port), hostname);
  let answer = '';
  socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return new Promise((resolve) => socket.once('connect', () => resolve({ socket, received: () => answer, closed })));
}

const until = async (check: () => boolean, ms: number): Promise<void> => {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > ms) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('on one connection', () => {
  it('the 413 waits for the body: nothing is answered while the client is still sending', async () => {
    const { socket, received, closed } = await rawSocket();
    const body = callBody(3 * MB);
    socket.write(
      `POST /v1/calls HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${tenant.api_key}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    socket.write(body.slice(0, 2 * MB));
    await new Promise((r) => setTimeout(r, 500));
    expect(received()).toBe('');
    socket.write(body.slice(2 * MB));
    await until(() => received().includes('"payload_too_large"'), 10_000);
    expect(received()).toMatch(/^HTTP\/1\.1 413/);
    socket.destroy();
    await closed;
  });

  it('a drained 413 keeps the connection alive for the next request', async () => {
    const { socket, received } = await rawSocket();
    const body = callBody(2 * MB);
    socket.write(
      `POST /v1/calls HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${tenant.api_key}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    socket.write(body);
    await until(() => received().includes('"payload_too_large"'), 10_000);
    expect(received()).toMatch(/^HTTP\/1\.1 413/);
    expect(received()).not.toMatch(/connection: close/i);
    socket.write('GET /health HTTP/1.1\r\nHost: x\r\n\r\n');
    await until(() => /HTTP\/1\.1 200/.test(received()), 5_000);
    socket.destroy();
  });

  it('an over-limit body that trickles is answered 413 and closed within HTTP_REQUEST_TIMEOUT_MS', async () => {
    const { socket, received, closed } = await rawSocket();
    const started = Date.now();
    socket.write(
      `POST /v1/calls HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${tenant.api_key}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${4 * MB}\r\n\r\n{"a":"`,
    );
    socket.write('x'.repeat(2 * MB));
    const trickle = setInterval(() => socket.writable && socket.write('x'), 200);
    try {
      await Promise.race([closed, new Promise((_, reject) => setTimeout(() => reject(new Error('open')), 10_000))]);
      expect(received()).toMatch(/^HTTP\/1\.1 413/);
      expect(received()).toContain('"payload_too_large"');
      expect(Date.now() - started).toBeGreaterThanOrEqual(TIMEOUT_MS - 200);
      expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + 3000);
    } finally {
      clearInterval(trickle);
      socket.destroy();
    }
    await expectServing();
  });
});

describe('a voice upload refused half-way, sent with fetch', () => {
  const upload = (files: { bytes: Buffer | string; name: string }[]) => {
    const form = new FormData();
    form.append('name', 'Refused');
    for (const file of files)
      form.append(
        'samples',
        new Blob([typeof file.bytes === 'string' ? readFileSync(file.bytes) : file.bytes], {
          type: 'audio/wav',
        }),
        file.name,
      );
    return fetch(`${app.baseUrl}/v1/voice_clones`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tenant.api_key}` },
      body: form,
    });
  };

  it('26 files, the last of 10 MB: a 413 with the error body', async () => {
    const one = audio.tone('wav', { seconds: 1 });
    const res = await upload([
      ...new Array(25).fill(null).map((_, i) => ({ bytes: one, name: `${i}.wav` })),
      { bytes: Buffer.alloc(10 * MB, 1), name: 'big.wav' },
    ]);
    expect(res.status).toBe(413);
    const body = (await res.json()) as Json;
    expect(body.error.type).toBe('payload_too_large');
    expect(checkAgainstDocument('/v1/voice_clones', 'post', 413, body)).toEqual([]);
  });

  it('a first file that is not audio, then 10 MB: a 400 with the error body', async () => {
    const res = await upload([
      { bytes: Buffer.from('not audio at all'), name: 'a.wav' },
      { bytes: Buffer.alloc(10 * MB, 1), name: 'big.wav' },
    ]);
    expect(res.status).toBe(400);
    expect(((await res.json()) as Json).error.param).toBe('samples[0]');
  });
});
