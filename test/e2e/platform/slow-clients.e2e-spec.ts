/** A client that trickles its request body (slowloris) holds a connection only HTTP_REQUEST_TIMEOUT_MS. */
import { connect } from 'node:net';
import { startListeningApp, ListeningApp } from '../../support/webhooks-app';

jest.setTimeout(20_000);

let app: ListeningApp;

beforeAll(async () => {
  app = await startListeningApp({ HTTP_REQUEST_TIMEOUT_MS: '1000' });
});
afterAll(async () => {
  await app?.close();
});

it('a request whose body trickles in is answered 408 and its connection closed', async () => {
  const { hostname, port } = new URL(app.baseUrl);
  const socket = connect(Number(port), hostname);
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  const started = Date.now();
  let answer = '';
  socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
  const closed = new Promise<number>((resolve, reject) => {
    socket.once('close', () => resolve(Date.now() - started));
    setTimeout(() => reject(new Error(`still open after 10 s; received ${JSON.stringify(answer)}`)), 10_000).unref();
  });
  socket.write(
    'POST /admin/v1/tenants HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{',
  );
  // One byte a second: never idle, never finished.
  const trickle = setInterval(() => socket.writable && socket.write(' '), 1000);
  try {
    const after = await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(answer).toContain('"type":"invalid_request"');
    expect(after).toBeGreaterThanOrEqual(900);
    expect(after).toBeLessThan(5_000);
  } finally {
    clearInterval(trickle);
    socket.destroy();
  }
});
