/**
 * Recordings and voice samples live in one blob store that every instance reaches (PostgreSQL's
 * `blobs` here, the default), not on the disk of the instance that wrote them. Two service processes
 * on one database, each with its own DATA_DIR (two machines):
 *
 * 1. Instance A alone takes an opted-out test call (its recording pending purge) and a voice clone's
 *    upload, so A stores the recording and the samples.
 * 2. Instance B starts and serves A's recording through the signed link.
 * 3. A stops; B alone purges the recording when its grace ends and deletes the voice. What A stored
 *    is gone: no `blobs` row, no bytes left in `blob_chunks`, nothing on A's disk, and the link is a 404.
 *
 * Before the blob store, B answered the link with a 404 (the file was on A's disk), and B's purge
 * and deletion left the recording and the samples on A's disk while the API said purged and deleted.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { AudioFixtures, uploadVoice } from '../../support/audio-fixtures';
import { placeCall, readWavHeader, sessionEvents } from '../../support/calls-harness';
import { createTestDatabase, TestDatabase } from '../../support/database';
import { eventually } from '../../support/eventually';
import { killAllServices, makeDataDir, removeDataDir, ServiceProcess, startService } from '../../support/process';
import { apiClient, ApiCall, createTenant, Envelope, newSecretKey, TenantInfo } from '../../support/webhooks-harness';

jest.setTimeout(240_000);

/** Long enough for B to start and serve the recording before B alone purges it. */
const PURGE_GRACE_S = 45;

let db: TestDatabase;
let dataDirs: [string, string];
let a: ServiceProcess;
let b: ServiceProcess;
let callA: ApiCall;
let callB: ApiCall;
let tenant: TenantInfo;
let audio: AudioFixtures;
let common: Record<string, string>;

let sessionId: string;
let recording: { recording_id: string; recording_url: string; duration_seconds: number };
let voiceId: string;

/** Files under a directory, recursively, relative to it ([] when it does not exist). */
function filesUnder(root: string): string[] {
  const walk = (dir: string): string[] =>
    existsSync(dir)
      ? readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
          e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name).slice(root.length + 1)],
        )
      : [];
  return walk(root);
}

async function blobKeys(prefix: string): Promise<string[]> {
  const { rows } = await db.pool.query<{ key: string }>(
    `SELECT key FROM blobs WHERE starts_with(key, $1) ORDER BY key`,
    [prefix],
  );
  return rows.map((r) => r.key);
}

/** Bytes in blob_chunks that no key names any more: what a delete would have left behind. */
async function unnamedBytes(): Promise<number> {
  const { rows } = await db.pool.query<{ n: string }>(
    `SELECT coalesce(sum(length(bytes)), 0) AS n FROM blob_chunks c
      WHERE NOT EXISTS (SELECT 1 FROM blobs b WHERE b.content_id = c.content_id)`,
  );
  return Number(rows[0]!.n);
}

/** The same link, asked of another instance (the signature covers the id and expiry, not the host). */
const via = (svc: ServiceProcess, link: string) => {
  const url = new URL(link);
  return `${svc.baseUrl}${url.pathname}${url.search}`;
};

async function events(call: ApiCall, types: string[]): Promise<Envelope[]> {
  return eventually(
    async () => {
      const evs = await sessionEvents(call, tenant.api_key, sessionId);
      if (!types.every((t) => evs.some((e) => e.type === t)))
        throw new Error(`waiting for ${types.join(', ')}: ${evs.map((e) => e.type).join(', ')}`);
      return evs;
    },
    (PURGE_GRACE_S + 60) * 1000,
    200,
  );
}

beforeAll(async () => {
  audio = new AudioFixtures();
  db = await createTestDatabase({ poolSize: 3 });
  dataDirs = [makeDataDir(), makeDataDir()];
  common = {
    DATABASE_URL: db.url,
    WEBHOOK_SECRET_KEY: newSecretKey(),
    SIM_TIME_SCALE: '0.01',
    RECORDING_PURGE_GRACE: `${PURGE_GRACE_S}s`,
    LOG_LEVEL: 'warn',
  };
  a = await startService({ env: { ...common, DATA_DIR: dataDirs[0] } });
  callA = apiClient(() => a.baseUrl).call;
  tenant = await createTenant(callA, a.adminToken, 'Twin Blobs Co');
});

afterAll(async () => {
  await killAllServices();
  await db?.drop();
  for (const d of dataDirs ?? []) removeDataDir(d);
  audio?.remove();
});

describe('files stored by one instance, served and deleted by another', () => {
  it('A alone stores an opted-out call recording and a voice clone’s samples', async () => {
    sessionId = (await placeCall(callA, tenant.api_key, '+14155550106', { testMode: true })).session_id;
    const evs = await events(callA, ['session.recording_completed', 'session.opt_out_recording_pending_purge']);
    recording = evs.find((e) => e.type === 'session.recording_completed')!.data as typeof recording;

    const samples = [1, 2, 3].map(() => ({ path: audio.tone('wav', { seconds: 40 }) }));
    const upload = await uploadVoice(a.baseUrl, tenant.api_key, 'Twin voice', samples);
    expect(upload.status).toBe(202);
    voiceId = upload.body.voice_id;
    // Trained by A (the only instance), from the store.
    await eventually(async () => {
      const v = await callA('GET', `/v1/voice_clones/${voiceId}`, { token: tenant.api_key });
      expect(v.body.status).toBe('ready');
    }, 60_000);
    // In the shared store, nothing of it on A's own disk (a staging directory at most, emptied).
    expect(filesUnder(join(dataDirs[0], 'recordings'))).toEqual([]);
    expect(filesUnder(join(dataDirs[0], 'voices'))).toEqual([]);
    expect(await blobKeys('recordings/')).toEqual([`recordings/${recording.recording_id}.wav`]);
    // One upload's files, under its own upload id (decision 67).
    const keys = await blobKeys(`voices/${voiceId}/`);
    const uploadId = keys[0]?.split('/')[2] ?? '';
    expect(uploadId).toMatch(/^up_[0-9a-f]{32}$/);
    expect(keys).toEqual([1, 2, 3].map((i) => `voices/${voiceId}/${uploadId}/0${i}.wav`));
  });

  it('B serves the recording A stored, byte for byte as A does', async () => {
    b = await startService({ env: { ...common, DATA_DIR: dataDirs[1] }, adminToken: a.adminToken });
    callB = apiClient(() => b.baseUrl).call;
    const fromB = await fetch(via(b, recording.recording_url));
    expect(fromB.status).toBe(200);
    expect(fromB.headers.get('content-type')).toBe('audio/wav');
    const bytes = Buffer.from(await fromB.arrayBuffer());
    expect(readWavHeader(bytes)).toMatchObject({ channels: 2, seconds: recording.duration_seconds });
    const fromA = Buffer.from(await (await fetch(via(a, recording.recording_url))).arrayBuffer());
    expect(bytes.equals(fromA)).toBe(true);
  });

  it('with A gone, B purges the opted-out recording: gone from the store, nothing left anywhere, the link a 404', async () => {
    a.kill('SIGTERM');
    await a.waitForExit(30_000);
    await events(callB, ['session.opt_out_recording_purged']);
    const link = await fetch(via(b, recording.recording_url));
    expect(link.status).toBe(404);
    expect(((await link.json()) as { error: { type: string } }).error.type).toBe('not_found');
    expect(filesUnder(join(dataDirs[0], 'recordings'))).toEqual([]);
    expect(filesUnder(join(dataDirs[1], 'recordings'))).toEqual([]);
    expect(await blobKeys('recordings/')).toEqual([]);
    expect(await unnamedBytes()).toBe(0);
  });

  it('B deletes the voice A stored: its samples are gone from the store and from A’s disk', async () => {
    const deleted = await callB('DELETE', `/v1/voice_clones/${voiceId}`, { token: tenant.api_key });
    expect(deleted.status).toBe(200);
    expect(filesUnder(join(dataDirs[0], 'voices')).filter((f) => f.startsWith(voiceId))).toEqual([]);
    expect(await blobKeys(`voices/${voiceId}/`)).toEqual([]);
    expect(await unnamedBytes()).toBe(0);
    // The only bytes left in the store are the simulator's synthetic audio (no one's voice).
    expect(await blobKeys('')).toEqual([expect.stringMatching(/^simulated-audio\/\d+s\.wav$/)]);
  });
});
