/**
 * The service (node dist/main.js) with BLOB_STORE=s3, against a STAND-IN S3-compatible server on
 * loopback written for the tests (test/support/s3-stand-in.ts; no S3 server runs here): a test
 * call's recording is an object in the bucket, served through its signed link, and its opt-out purge
 * removes the object; a voice's samples are objects, trained from the bucket, and removed by its
 * deletion. PostgreSQL's `blobs` table stays empty.
 */
import { AudioFixtures, uploadVoice } from '../../support/audio-fixtures';
import { CallsService, placeCall, readWavHeader, sessionEvents, startCallsService } from '../../support/calls-harness';
import { eventually } from '../../support/eventually';
import { killAllServices } from '../../support/process';
import { startS3StandIn, type S3StandIn } from '../../support/s3-stand-in';
import { createTenant, TenantInfo } from '../../support/webhooks-harness';

jest.setTimeout(120_000);

let s3: S3StandIn;
let h: CallsService;
let tenant: TenantInfo;
let audio: AudioFixtures;

beforeAll(async () => {
  audio = new AudioFixtures();
  s3 = await startS3StandIn({ bucket: 'vap-files', accessKeyId: 'AKIAE2E', pageSize: 2 });
  h = await startCallsService({
    SIM_TIME_SCALE: '0.01',
    RECORDING_PURGE_GRACE: '3s',
    BLOB_STORE: 's3',
    S3_BUCKET: 'vap-files',
    S3_ENDPOINT: s3.endpoint,
    S3_ACCESS_KEY_ID: 'AKIAE2E',
    S3_SECRET_ACCESS_KEY: 'e2e-secret-not-logged',
    S3_FORCE_PATH_STYLE: 'true',
  });
  tenant = await createTenant(h.call, h.svc.adminToken, 'Bucket Co');
});

afterAll(async () => {
  await h?.destroy();
  await killAllServices();
  await s3?.close();
  audio?.remove();
});

const objects = (prefix: string) => [...s3.objects.keys()].filter((k) => k.startsWith(prefix)).sort();

it('a recording is an object in the bucket, served by its link, and removed by its opt-out purge', async () => {
  const { session_id } = await placeCall(h.call, tenant.api_key, '+14155550106', { testMode: true });
  const seen = await eventually(async () => {
    const evs = await sessionEvents(h.call, tenant.api_key, session_id);
    if (!evs.some((e) => e.type === 'session.recording_completed')) throw new Error('no recording yet');
    return evs;
  }, 30_000);
  const rec = seen.find((e) => e.type === 'session.recording_completed')!.data as {
    recording_id: string;
    recording_url: string;
    duration_seconds: number;
  };
  const key = `recordings/${rec.recording_id}.wav`;
  expect(objects('recordings/')).toEqual([key]);
  const res = await fetch(rec.recording_url);
  expect(res.status).toBe(200);
  const bytes = Buffer.from(await res.arrayBuffer());
  expect(readWavHeader(bytes)).toMatchObject({ channels: 2, seconds: rec.duration_seconds });
  expect(bytes.equals(s3.objects.get(key)!.body)).toBe(true);

  await eventually(async () => {
    const evs = await sessionEvents(h.call, tenant.api_key, session_id);
    expect(evs.map((e) => e.type)).toContain('session.opt_out_recording_purged');
  }, 30_000);
  expect(objects('recordings/')).toEqual([]);
  expect((await fetch(rec.recording_url)).status).toBe(404);
});

it('a voice’s samples are objects, trained from the bucket, and removed by its deletion', async () => {
  const parts = [1, 2, 3].map(() => ({ path: audio.tone('flac', { seconds: 31 }) }));
  const res = await uploadVoice(h.svc.baseUrl, tenant.api_key, 'Bucket voice', parts);
  expect(res.status).toBe(202);
  const voiceId = res.body.voice_id as string;
  const upload = objects(`voices/${voiceId}/`)[0]?.split('/')[2] ?? ''; // its own upload id (decision 67)
  expect(upload).toMatch(/^up_[0-9a-f]{32}$/);
  expect(objects(`voices/${voiceId}/`)).toEqual([1, 2, 3].map((i) => `voices/${voiceId}/${upload}/0${i}.flac`));
  expect(s3.objects.get(`voices/${voiceId}/${upload}/01.flac`)!.contentType).toBe('audio/flac');
  await eventually(async () => {
    const v = await h.call('GET', `/v1/voice_clones/${voiceId}`, { token: tenant.api_key });
    expect(v.body.status).toBe('ready');
    expect(v.body.samples[0].duration_ms).toBe(31_000);
  }, 60_000);
  expect((await h.call('DELETE', `/v1/voice_clones/${voiceId}`, { token: tenant.api_key })).status).toBe(200);
  expect(objects('voices/')).toEqual([]);
});

it('nothing went to PostgreSQL, and the secret key is in no log line', async () => {
  expect((await h.db.pool.query('SELECT count(*)::int AS n FROM blobs')).rows[0].n).toBe(0);
  expect(h.svc.stdout() + h.svc.stderr()).not.toContain('e2e-secret-not-logged');
  // Only the bucket's simulated audio remains.
  expect([...s3.objects.keys()]).toEqual([expect.stringMatching(/^simulated-audio\/\d+s\.wav$/)]);
});
