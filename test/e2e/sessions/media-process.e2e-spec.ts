/**
 * The media process (`node dist/media.js`) next to an API instance (SIP_MEDIA_PROCESS=external) on
 * one database: it answers SIP (OPTIONS) and serves no HTTP, renews its lease, and when it is killed
 * with SIGKILL the API instance's watchdog ends the calls it held as `failed` (`media_lost`), each with
 * one terminal event, and frees their slots. The calls are test-pool sessions in progress on the API
 * (the dial wiring is not on this branch) whose slots name the media process as their holder, as its
 * budget writes them when it places a call.
 */
import { spawn } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { join } from 'node:path';
import { TEST_NUMBERS } from '../../../src/sessions/domain/test-pool.scenarios';
import { placeCall, startCallsService, stopCallsSuite, type CallsService } from '../../support/calls-harness';
import { eventually } from '../../support/eventually';
import { expectEachEndedMediaLost, type MediaProcess, startMediaProcess } from '../../support/media-process';
import { freePort, REPO_ROOT } from '../../support/process';
import { createTenant, type TenantInfo } from '../../support/webhooks-harness';

jest.setTimeout(120_000);

describe('the media process', () => {
  let h: CallsService;
  let tenant: TenantInfo;
  let media: MediaProcess | null = null;

  beforeAll(async () => {
    h = await startCallsService({ SIP_MEDIA_PROCESS: 'external', SIP_MEDIA_LEASE: '3s', SIM_TIME_SCALE: '1' });
    tenant = await createTenant(h.call, h.svc.adminToken, 'media');
  });
  afterAll(async () => {
    if (media && media.child.exitCode === null && media.child.signalCode === null) media.child.kill('SIGKILL');
    await stopCallsSuite(h);
  });

  it('answers SIP, renews its lease, and its calls end media_lost once after kill -9', async () => {
    const sipPort = await freePort();
    media = startMediaProcess(h, {
      SIP_LISTEN: `127.0.0.1:${sipPort}`,
      SIP_ALLOWED_SOURCES: '127.0.0.1',
      RTP_PORTS: '47700-47799',
      SIP_MEDIA_LEASE: '3s',
      // As the API instances' environment: the media process runs media whatever this says.
      SIP_MEDIA_PROCESS: 'external',
    });

    // Its lease: a holder row whose heartbeat moves (every second with a 3 s lease).
    const holderRow = () =>
      h.db.pool.query<{ holder: string; heartbeat_at: Date }>('SELECT holder, heartbeat_at FROM sip_media_holders');
    const first = await eventually(async () => (await holderRow()).rows[0] ?? false, 30_000, 100);
    await eventually(
      async () => ((await holderRow()).rows[0]?.heartbeat_at.getTime() ?? 0) > first.heartbeat_at.getTime(),
      10_000,
      100,
    );
    expect((await holderRow()).rows).toHaveLength(1); // the API instance places no calls: no lease
    expect(await optionsAnswer(sipPort)).toMatch(/^SIP\/2\.0 200/);

    // Two calls in progress, held by the media process.
    const sessions = [
      await placeCall(h.call, tenant.api_key, TEST_NUMBERS.completed, { testMode: true }),
      await placeCall(h.call, tenant.api_key, TEST_NUMBERS.completed, { testMode: true }),
    ];
    for (const s of sessions) {
      await eventually(async () => {
        const r = await h.call<{ status: string }>('GET', `/v1/sessions/${s.session_id}`, { token: tenant.api_key });
        return r.body.status === 'in_progress';
      }, 30_000);
      await h.db.pool.query(
        "INSERT INTO sip_call_slots (session_id, tenant_id, holder, started_at, direction) VALUES ($1, $2, $3, now(), 'outbound')",
        [s.session_id, tenant.tenant_id, first.holder],
      );
    }
    // Alive past its lease: nothing ends.
    await new Promise((r) => setTimeout(r, 4000));
    expect((await h.db.pool.query('SELECT 1 FROM sip_call_slots')).rowCount).toBe(2);

    media.child.kill('SIGKILL');
    // One terminal event each (and no session.ended from the script's own hang-up).
    await expectEachEndedMediaLost(
      h,
      tenant.api_key,
      sessions.map((s) => s.session_id),
    );
    expect(media.output()).not.toMatch(/failed to start/);
  });

  it('refuses to start without DATABASE_URL or without SIP', async () => {
    const run = (env: Record<string, string>) =>
      new Promise<{ code: number | null; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, [join(REPO_ROOT, 'dist', 'media.js')], {
          cwd: REPO_ROOT,
          env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env },
          stdio: ['ignore', 'ignore', 'pipe'],
        });
        let stderr = '';
        child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
        child.on('exit', (code) => resolve({ code, stderr }));
      });
    const noDb = await run({ SIP_LISTEN: '127.0.0.1:0', SIP_ALLOWED_SOURCES: '127.0.0.1' });
    expect(noDb.code).toBe(78);
    expect(noDb.stderr).toMatch(/DATABASE_URL is required/);
    // A SIP port open to anyone: refused, naming both ways to say who may talk.
    const open = await run({ DATABASE_URL: h.db.url, SIP_LISTEN: '127.0.0.1:0' });
    expect(open.code).toBe(78);
    expect(open.stderr).toMatch(/SIP_TRUNK_URI/);
    expect(open.stderr).toMatch(/SIP_ALLOWED_SOURCES/);
    const noSip = await run({ DATABASE_URL: h.db.url });
    expect(noSip.code).toBe(78);
    expect(noSip.stderr).toMatch(/SIP_TRUNK_URI or SIP_LISTEN is required/);
  });
});

/** Sends a SIP OPTIONS over UDP and answers the status line of the reply. */
async function optionsAnswer(port: number): Promise<string> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', () => resolve()));
  const local = socket.address().port;
  const request = [
    `OPTIONS sip:ping@127.0.0.1:${port} SIP/2.0`,
    `Via: SIP/2.0/UDP 127.0.0.1:${local};branch=z9hG4bK-media-e2e`,
    'Max-Forwards: 70',
    `From: <sip:probe@127.0.0.1:${local}>;tag=probe`,
    `To: <sip:ping@127.0.0.1:${port}>`,
    'Call-ID: media-e2e-options',
    'CSeq: 1 OPTIONS',
    'Content-Length: 0',
    '',
    '',
  ].join('\r\n');
  try {
    return await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no answer to OPTIONS')), 5000);
      socket.on('message', (data) => {
        clearTimeout(timer);
        resolve(data.toString().split('\r\n')[0] ?? '');
      });
      socket.send(request, port, '127.0.0.1');
    });
  } finally {
    socket.close();
  }
}
