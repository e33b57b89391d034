/**
 * Files that versions before the blob store left under DATA_DIR (the real service process, restarted
 * on the same database and DATA_DIR): at start, a recording still available and a voice not deleted
 * are moved into the store (then served, and deleted, by any instance); the file of a recording
 * already purged and the samples of a voice already deleted are removed from the disk. The older
 * version's layout is made by hand from what the current one stored: DATA_DIR/recordings/<id>.wav
 * and DATA_DIR/voices/<voice id>/0n.wav, without the blobs.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AudioFixtures, uploadVoice } from '../../support/audio-fixtures';
import { CallsService, placeCall, sessionEvents, startCallsService } from '../../support/calls-harness';
import { eventually } from '../../support/eventually';
import { killAllServices } from '../../support/process';
import { createTenant, Envelope, TenantInfo } from '../../support/webhooks-harness';

jest.setTimeout(180_000);

let h: CallsService;
let tenant: TenantInfo;
let audio: AudioFixtures;

beforeAll(async () => {
  audio = new AudioFixtures();
  h = await startCallsService({ SIM_TIME_SCALE: '0.01', RECORDING_PURGE_GRACE: '1s' });
  tenant = await createTenant(h.call, h.svc.adminToken, 'Older Files Co');
});

afterAll(async () => {
  await h?.destroy();
  await killAllServices();
  audio?.remove();
});

async function recorded(to: string, last: string): Promise<{ recording_id: string; recording_url: string }> {
  const { session_id } = await placeCall(h.call, tenant.api_key, to, { testMode: true });
  const evs = await eventually(async () => {
    const got = await sessionEvents(h.call, tenant.api_key, session_id);
    if (!got.some((e: Envelope) => e.type === last)) throw new Error(`no ${last} yet`);
    return got;
  }, 30_000);
  return evs.find((e) => e.type === 'session.recording_completed')!.data as {
    recording_id: string;
    recording_url: string;
  };
}

async function voice(name: string): Promise<string> {
  const parts = [1, 2, 3].map(() => ({ path: audio.tone('wav', { seconds: 31 }) }));
  const res = await uploadVoice(h.svc.baseUrl, tenant.api_key, name, parts);
  expect(res.status).toBe(202);
  await eventually(async () => {
    const v = await h.call('GET', `/v1/voice_clones/${res.body.voice_id}`, { token: tenant.api_key });
    expect(v.body.status).toBe('ready');
  }, 60_000);
  return res.body.voice_id as string;
}

async function blobBytes(key: string): Promise<Buffer> {
  const { rows } = await h.db.pool.query<{ bytes: Buffer }>(
    `SELECT c.bytes FROM blobs b JOIN blob_chunks c USING (content_id) WHERE b.key = $1 ORDER BY c.seq`,
    [key],
  );
  return Buffer.concat(rows.map((r) => r.bytes));
}

async function keys(prefix: string): Promise<string[]> {
  const { rows } = await h.db.pool.query<{ key: string }>(
    `SELECT key FROM blobs WHERE starts_with(key, $1) ORDER BY key`,
    [prefix],
  );
  return rows.map((r) => r.key);
}

const list = (dir: string) => (existsSync(dir) ? readdirSync(dir).sort() : []);

it('at start, older files of live recordings and voices move into the store; those of purged and deleted ones go', async () => {
  const kept = await recorded('+14155550100', 'session.recording_completed');
  const purged = await recorded('+14155550106', 'session.opt_out_recording_purged');
  const keptVoice = await voice('Kept voice');
  const deletedVoice = await voice('Deleted voice');
  expect((await h.call('DELETE', `/v1/voice_clones/${deletedVoice}`, { token: tenant.api_key })).status).toBe(200);

  h.svc.kill('SIGTERM');
  await h.svc.waitForExit(30_000);

  // The layout an older version left: files on this disk, no blobs for them.
  const wav = await blobBytes(`recordings/${kept.recording_id}.wav`);
  expect(wav.length).toBeGreaterThan(44);
  const recordings = join(h.dataDir, 'recordings');
  mkdirSync(recordings, { recursive: true });
  writeFileSync(join(recordings, `${kept.recording_id}.wav`), wav);
  writeFileSync(join(recordings, `${purged.recording_id}.wav`), wav);
  const samples: Buffer[] = [];
  for (const key of await keys(`voices/${keptVoice}/`)) samples.push(await blobBytes(key));
  expect(samples).toHaveLength(3);
  mkdirSync(join(h.dataDir, 'voices', keptVoice), { recursive: true });
  samples.forEach((bytes, i) => writeFileSync(join(h.dataDir, 'voices', keptVoice, `0${i + 1}.wav`), bytes));
  mkdirSync(join(h.dataDir, 'voices', deletedVoice), { recursive: true });
  writeFileSync(join(h.dataDir, 'voices', deletedVoice, '01.wav'), samples[0]!);
  await h.db.pool.query(`DELETE FROM blobs WHERE key = $1 OR starts_with(key, $2)`, [
    `recordings/${kept.recording_id}.wav`,
    `voices/${keptVoice}/`,
  ]);

  await h.restart();
  await eventually(() => {
    expect(list(recordings)).toEqual([]);
    expect(list(join(h.dataDir, 'voices')).filter((n) => n.startsWith('voi_'))).toEqual([]);
  }, 30_000);

  // The live ones are in the store, byte for byte, and served; the purged and deleted ones are nowhere.
  expect((await blobBytes(`recordings/${kept.recording_id}.wav`)).equals(wav)).toBe(true);
  const served = await fetch(kept.recording_url.replace(/^http:\/\/[^/]+/, h.svc.baseUrl));
  expect(served.status).toBe(200);
  expect(Buffer.from(await served.arrayBuffer()).equals(wav)).toBe(true);
  expect(await keys(`recordings/${purged.recording_id}`)).toEqual([]);
  expect((await fetch(purged.recording_url.replace(/^http:\/\/[^/]+/, h.svc.baseUrl))).status).toBe(404);
  expect(await keys(`voices/${keptVoice}/`)).toEqual([1, 2, 3].map((i) => `voices/${keptVoice}/0${i}.wav`));
  for (const [i, bytes] of samples.entries())
    expect((await blobBytes(`voices/${keptVoice}/0${i + 1}.wav`)).equals(bytes)).toBe(true);
  expect(await keys(`voices/${deletedVoice}/`)).toEqual([]);

  // Moved into the store, the kept voice is deleted everywhere by a deletion.
  expect((await h.call('DELETE', `/v1/voice_clones/${keptVoice}`, { token: tenant.api_key })).status).toBe(200);
  expect(await keys('voices/')).toEqual([]);
});
