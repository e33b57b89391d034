/**
 * Adding a media transport is its folder plus its entry in app.module.ts (docs/architecture.md,
 * "The media plane"). This test copies src/ to a temporary folder and writes there a throwaway
 * transport, `src/pcm-socket/`: calls that arrive over a plain TCP socket (a stand-in for a media
 * websocket such as Twilio's Media Streams) carrying raw 16 kHz 16-bit PCM both ways, one 20 ms frame
 * (640 bytes) at a time. The socket names the dialled number first (`CALL <to> <from>\n`); the number's
 * owner answers through numbers' public face (`ReceiveInboundCall`), and conversations' `CallHost`
 * carries the call on a transport built from the media toolkit (`MediaClock`, `TransportListeners`).
 * It adds `PcmSocketModule` to CONTEXTS (its import and its entry: the only edit outside the folder).
 *
 * On that copy, with no other file edited:
 * - the type checker accepts it, and dependency-cruiser finds no violation in its folder;
 * - booted (the copy's own createHttpApp, on a real PostgreSQL database), a call over the socket is
 *   a real conversation: flite's "hello there" sent as 16 kHz PCM is heard by the embedded recogniser,
 *   the agent's greeting and answer come back as audio on the socket, the session gets the
 *   transcript, and closing the socket ends the session `completed`.
 */
import { execFile } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { decodePcm16Wav } from '../../../src/kernel/audio/wav';
import { createTestDatabase, type TestDatabase } from '../../support/database';
import { eventually } from '../../support/eventually';
import { copySourceWith, type SourceCopy } from '../../support/source-copy';

// content-disposition is an ES module only (test/support/app.ts says why it is mocked so).
jest.mock('content-disposition', () =>
  process.getBuiltinModule('node:module').createRequire(__filename)('content-disposition'),
);

const run = promisify(execFile);
const NUMBER = '+14155550277';
const FRAME_BYTES = 640; // 20 ms of 16 kHz 16-bit mono

const TRANSPORT_FILES: Record<string, string> = {
  'pcm-socket.config.ts': `import { defineSettings } from '../config/config-section';

export const pcmSocketSettings = defineSettings<{ port: number }>({
  title: 'PCM socket calls',
  variables: [{ variable: 'PCM_SOCKET_PORT', default: '\`0\` (off)', meaning: 'The loopback TCP port calls arrive on.' }],
  parse: ({ int }) => ({ port: int('PCM_SOCKET_PORT', 0, 0, 65535) }),
});
`,
  'pcm-socket-transport.ts': `import type { Socket } from 'node:net';
import type { AudioTransport, FrameSource } from '../conversations';
import { MediaClock } from '../kernel/media/media-clock';
import { TransportListeners } from '../kernel/media/transport-listeners';

const RATE = 16_000;
const FRAME_BYTES = (RATE / 50) * 2;

/** A call's audio over a socket: 20 ms frames of 16 kHz 16-bit PCM each way, ours on the media clock. */
export class PcmSocketTransport implements AudioTransport {
  readonly sampleRate = RATE;
  private readonly listeners = new TransportListeners();
  private readonly clock: MediaClock;
  private source: FrameSource | null = null;
  private pending = Buffer.alloc(0);

  constructor(private readonly socket: Socket, first: Buffer) {
    this.clock = new MediaClock({ maxCatchUp: 5, onError: () => socket.destroy() });
    socket.on('data', (chunk: Buffer) => this.received(chunk));
    socket.on('close', () => this.close());
    socket.on('error', () => this.close());
    this.received(first);
    this.clock.start(() => {
      const frame = this.source?.nextFrame() ?? new Int16Array(RATE / 50);
      if (!socket.destroyed) socket.write(Buffer.from(frame.buffer, frame.byteOffset, frame.byteLength));
    });
  }

  onFrame(listener: (frame: Int16Array) => void): () => void {
    return this.listeners.onFrame(listener);
  }

  play(source: FrameSource): void {
    this.source = source;
  }

  onClosed(listener: () => void): () => void {
    return this.listeners.onClosed(listener);
  }

  close(): void {
    this.clock.stop();
    this.listeners.closed();
    this.socket.end();
  }

  private received(chunk: Buffer): void {
    this.pending = Buffer.concat([this.pending, chunk]);
    while (this.pending.length >= FRAME_BYTES) {
      const bytes = Buffer.from(this.pending.subarray(0, FRAME_BYTES));
      this.pending = this.pending.subarray(FRAME_BYTES);
      this.listeners.heard(new Int16Array(bytes.buffer, bytes.byteOffset, FRAME_BYTES / 2));
    }
  }
}
`,
  'pcm-socket-calls.ts': `import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { createServer, type Server, type Socket } from 'node:net';
import { APP_CONFIG, AppConfig, settingsOf } from '../config/config';
import { type AgentEnd, CallHost } from '../conversations';
import { GetNumberOwner, ReceiveInboundCall } from '../numbers';
import { pcmSocketSettings } from './pcm-socket.config';
import { PcmSocketTransport } from './pcm-socket-transport';

type Ending = { by: 'caller' } | { by: 'agent'; reason: AgentEnd };

/** Calls over a loopback socket: the first line names the number dialled and the caller, then PCM. */
@Injectable()
export class PcmSocketCalls implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('PcmSocketCalls');
  private server: Server | null = null;

  constructor(
    private readonly host: CallHost,
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const { port } = settingsOf(this.config, pcmSocketSettings);
    if (port === 0) return;
    const server = createServer((socket) => socket.once('data', (first: Buffer) => void this.call(socket, first)));
    this.server = server;
    await new Promise<void>((done) => server.listen(port, '127.0.0.1', done));
  }

  async onApplicationShutdown(): Promise<void> {
    await new Promise((done) => (this.server ? this.server.close(done) : done(undefined)));
  }

  private async call(socket: Socket, first: Buffer): Promise<void> {
    const end = first.indexOf(10);
    const [verb, to, from] = first.subarray(0, Math.max(0, end)).toString().split(' ');
    const owner = verb === 'CALL' && to ? await this.queries.execute(new GetNumberOwner(to)) : null;
    if (!owner) return void socket.end('404\\n');
    const { sessionId, agentConfig } = await this.commands.execute(
      new ReceiveInboundCall(owner.tenantId, owner.phoneNumberId, owner.phoneNumber, from ?? 'anonymous', null),
    );
    const transport = new PcmSocketTransport(socket, first.subarray(end + 1));
    const call = this.host.open<Ending>({
      tenantId: owner.tenantId,
      sessionId,
      agent: agentConfig,
      line: { hangUp: () => Promise.resolve(transport.close()) },
      sink: this.host.toSession(owner.tenantId, sessionId, (ending) => ({
        status: 'completed',
        end_reason: ending.by === 'agent' && ending.reason === 'max_duration' ? 'max_duration' : 'completed',
      })),
      recording: null,
      agentEnded: (reason) => ({ by: 'agent', reason }),
    });
    transport.onClosed(() => void call.end({ by: 'caller' }));
    await call.converse(transport, new Date()).catch((err: Error) => this.logger.error(err.message));
  }
}
`,
  'pcm-socket.module.ts': `import { Module } from '@nestjs/common';
import type { BoundedContext } from '../runtime/bounded-context';
import { PcmSocketCalls } from './pcm-socket-calls';
import { pcmSocketSettings } from './pcm-socket.config';

@Module({ providers: [PcmSocketCalls] })
export class PcmSocketModule {
  static readonly context: BoundedContext = { name: 'pcm-socket', settings: pcmSocketSettings };
}
`,
  'index.ts': `export { PcmSocketModule } from './pcm-socket.module';
`,
};

/** flite's "hello there", 16 kHz 16-bit mono. */
async function speech(text: string): Promise<Int16Array> {
  const wav = join(tmpdir(), `throwaway-transport-${process.pid}.wav`);
  await run('flite', ['-voice', 'slt', '-t', text, '-o', wav]);
  const decoded = decodePcm16Wav(readFileSync(wav));
  rmSync(wav, { force: true });
  if (decoded.sampleRate !== 16_000 || decoded.channels !== 1) throw new Error('flite: not 16 kHz mono');
  return decoded.samples;
}

describe('a throwaway transport: its folder and one line in app.module.ts', () => {
  let db: TestDatabase | null = null;
  let app: NestFastifyApplication | null = null;
  let copy: SourceCopy;

  beforeAll(() => {
    copy = copySourceWith('throwaway-transport', 'pcm-socket', TRANSPORT_FILES, {
      name: 'PcmSocketModule',
      file: 'pcm-socket.module',
    });
  });

  afterAll(async () => {
    await app?.close().catch(() => undefined);
    await db?.drop().catch(() => undefined);
    copy.remove();
  });

  it('type-checks, and its folder breaks no dependency rule', async () => {
    expect(await copy.typecheck()).toBe('');
    expect(await copy.depcruise(['src/pcm-socket'])).not.toMatch(/^\s*error [a-z-]+:/m);
  }, 180_000);

  it('carries a real conversation over the socket, and closing it ends the session', async () => {
    db = await createTestDatabase();
    const port = 20_000 + (process.pid % 20_000);
    const adminToken = 'adm_throwaway_transport_0123456789';
    // The copy's own application: its CONTEXTS hold the transport.
    const { loadAppConfig } = copy.load<typeof import('../../../src/app.module')>('app.module');
    const { createHttpApp } = copy.load<typeof import('../../../src/http-app')>('http-app');
    const dataDir = join(copy.dir, 'data');
    const config = loadAppConfig({
      LOG_LEVEL: 'silent',
      ADMIN_TOKEN: adminToken,
      DATA_DIR: dataDir,
      PCM_SOCKET_PORT: String(port),
    });
    app = await createHttpApp({ config, databaseUrl: db.url });
    await app.init();
    const nest = app;
    const admin = async (method: 'GET' | 'POST', url: string, payload?: object) =>
      nest.inject({ method, url, payload, headers: { authorization: `Bearer ${adminToken}` } });
    const tenant = (await admin('POST', '/admin/v1/tenants', { name: 'Socket calls' })).json<{
      tenant_id: string;
      api_key: string;
    }>();
    const assigned = await admin('POST', `/admin/v1/tenants/${tenant.tenant_id}/phone_numbers`, {
      phone_number: NUMBER,
      agent_config: { prompt: 'Answer.', first_message: 'Hello.' },
    });
    expect(assigned.statusCode).toBe(201);

    const hello = await speech('hello there');
    const socket: Socket = connect(port, '127.0.0.1');
    await new Promise((done) => socket.once('connect', done));
    let received = 0;
    let loudFrames = 0;
    let pending = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      received += chunk.length;
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= FRAME_BYTES) {
        const frame = new Int16Array(Buffer.from(pending.subarray(0, FRAME_BYTES)).buffer);
        pending = pending.subarray(FRAME_BYTES);
        if (frame.some((s) => Math.abs(s) > 1000)) loudFrames++;
      }
    });
    socket.write(`CALL ${NUMBER} +14155550123\n`);
    // Our side of the line, paced as a phone would: 1 s of silence, the words, 2 s of silence.
    const line = new Int16Array(16_000 + hello.length + 32_000);
    line.set(hello, 16_000);
    const sent = new Promise<void>((done) => {
      let at = 0;
      const timer = setInterval(() => {
        if (at >= line.length) return done(void clearInterval(timer));
        const frame = line.subarray(at, at + FRAME_BYTES / 2);
        socket.write(Buffer.from(frame.buffer, frame.byteOffset, frame.byteLength));
        at += FRAME_BYTES / 2;
      }, 20);
    });
    const sessions = async () =>
      (
        await nest.inject({
          method: 'GET',
          url: '/v1/sessions?limit=5',
          headers: { authorization: `Bearer ${tenant.api_key}` },
        })
      ).json<{ data: { session_id: string; status: string; transcript?: unknown }[] }>().data;
    await sent;
    const session = async () => {
      const [first] = await sessions();
      if (!first) throw new Error('no session yet');
      return (
        await nest.inject({
          method: 'GET',
          url: `/v1/sessions/${first.session_id}`,
          headers: { authorization: `Bearer ${tenant.api_key}` },
        })
      ).json<{ status: string; end_reason: string | null; transcript: { role: string; content: string }[] | null }>();
    };
    await eventually(async () => expect((await session()).transcript?.length ?? 0).toBeGreaterThanOrEqual(3), 20_000);
    const talking = await session();
    expect(talking.status).toBe('in_progress');
    expect(talking.transcript?.[0]).toEqual(expect.objectContaining({ role: 'agent', content: 'Hello.' }));
    expect(talking.transcript?.[1]).toEqual(expect.objectContaining({ role: 'user' }));
    expect(talking.transcript?.[1]?.content).toMatch(/hello/);
    // The greeting and the answer came back as audio: 20 ms frames, some of them loud.
    expect(received).toBeGreaterThan(FRAME_BYTES * 100);
    expect(loudFrames).toBeGreaterThan(20);
    socket.end();
    await eventually(async () => expect((await session()).status).toBe('completed'), 15_000);
    expect((await session()).end_reason).toBe('completed');
  }, 180_000);
});
