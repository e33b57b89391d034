/**
 * Voice clones end to end: the real service (node dist/main.js) and a real loopback receiver of signed
 * webhooks. Samples are real audio made in the test by sox and ffmpeg (WAV, FLAC, MP3, Ogg Vorbis and Opus),
 * uploaded as multipart/form-data; each training failure code comes from real audio (two samples, a
 * 10-second sample, three samples at -50 dBFS, a WAV whose header claims 60 s, a starter tenant).
 * Refused uploads (garbage, oversized, too many files, a non-audio type) leave nothing stored, and a
 * voice that is training or failed is refused in calls, campaigns and numbers.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { AudioFixtures, uploadVoice, type UploadPart } from '../../support/audio-fixtures';
import { allEvents, CallsService, startCallsService, stopCallsSuite } from '../../support/calls-harness';
import { eventually } from '../../support/eventually';
import { TenantEndpoints } from '../../support/tenant-endpoints';
import { Envelope, Receiver, startReceiver, TenantInfo } from '../../support/webhooks-harness';

jest.setTimeout(120_000);

let h: CallsService;
let receiver: Receiver;
let audio: AudioFixtures;
let tenants: TenantEndpoints;

beforeAll(async () => {
  audio = new AudioFixtures();
  receiver = await startReceiver();
  h = await startCallsService({ SIM_TIME_SCALE: '0.01', WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
  tenants = new TenantEndpoints(h, receiver, ['voice_clone.*']);
});

afterAll(async () => {
  await stopCallsSuite(h);
  audio?.remove();
});

const newTenant = (label: string, plan?: 'starter'): Promise<TenantInfo> => tenants.add(label, plan);

const api = <T = any>(tenant: TenantInfo, method: string, path: string, body?: unknown) =>
  h.call<T>(method, path, { token: tenant.api_key, ...(body === undefined ? {} : { body }) });

const upload = (tenant: TenantInfo, name: string | null, parts: readonly (string | UploadPart)[]) =>
  uploadVoice(
    h.svc.baseUrl,
    tenant.api_key,
    name,
    parts.map((p) => (typeof p === 'string' ? { path: p } : p)),
  );

/** The voice's webhooks the receiver got, each verified (both signatures) and checked against the catalog. */
function received(tenant: TenantInfo, voiceId: string): Envelope[] {
  return tenants.received(tenant, (e) => (e.data as { voice_id?: string }).voice_id === voiceId);
}

/**
 * Waits for the voice's training to end: both its webhooks received (deliveries run in parallel, so
 * they may arrive in either order), and returns them in commit order, as GET /v1/events lists them.
 */
async function trained(tenant: TenantInfo, voiceId: string): Promise<Envelope[]> {
  const events = await eventually(() => {
    const got = received(tenant, voiceId);
    return got.length >= 2 ? got : false;
  }, 60_000);
  const order = (await allEvents(h.call, tenant.api_key)).map((e) => e.id);
  expect(events.every((e) => order.includes(e.id))).toBe(true);
  return [...events].sort((a, b) => order.indexOf(a.id) - order.indexOf(b.id));
}

/** Uploads samples and expects the training to fail with `code`; returns the failure event's data. */
async function expectFailure(tenant: TenantInfo, parts: readonly string[], code: string) {
  const res = await upload(tenant, `Fails with ${code}`, parts);
  expect(res.status).toBe(202);
  const events = await trained(tenant, res.body.voice_id);
  expect(events.map((e) => e.type)).toEqual(['voice_clone.training_started', 'voice_clone.training_failed']);
  expect(events[0]!.data).toEqual({ voice_id: res.body.voice_id, name: `Fails with ${code}`, samples: parts.length });
  const failed = events[1]!.data as { error_code: string; error_message: string };
  expect(failed.error_code).toBe(code);
  expect(failed.error_message.length).toBeGreaterThan(20);
  const voice = await api(tenant, 'GET', `/v1/voice_clones/${res.body.voice_id}`);
  expect(voice.body).toMatchObject({ status: 'failed', error_code: code, error_message: failed.error_message });
  return { voiceId: res.body.voice_id as string, failed, voice: voice.body };
}

/**
 * Every stored sample and staged file, relative to the voices' root: the blob store's `voices/…`
 * keys (where committed samples go) and the files under DATA_DIR/voices (staging).
 */
async function storedFiles(): Promise<string[]> {
  const root = join(h.dataDir, 'voices');
  const walk = (dir: string): string[] =>
    existsSync(dir)
      ? readdirSync(dir).flatMap((name) => {
          const path = join(dir, name);
          return statSync(path).isDirectory() ? walk(path) : [path.slice(root.length + 1)];
        })
      : [];
  const { rows } = await h.db.pool.query<{ key: string }>(
    `SELECT substr(key, 8) AS key FROM blobs WHERE starts_with(key, 'voices/') ORDER BY key`,
  );
  return [...rows.map((r) => r.key), ...walk(root)];
}

let pro: TenantInfo;
let readyVoice: string;

describe('training', () => {
  it('three good WAV samples train; the voice then works in a call and a campaign', async () => {
    pro = await newTenant('Voices Co');
    const samples = [1, 2, 3].map(() => audio.tone('wav', { seconds: 31 }));
    const res = await upload(pro, 'Support voice', samples);
    expect(res.status).toBe(202);
    expect(res.body).toEqual({
      voice_id: expect.stringMatching(/^voi_[0-9a-z]{20}$/),
      name: 'Support voice',
      status: 'queued',
    });
    readyVoice = res.body.voice_id;
    const events = await trained(pro, readyVoice);
    expect(events.map((e) => e.type)).toEqual(['voice_clone.training_started', 'voice_clone.training_succeeded']);
    expect(events[0]!.data).toEqual({ voice_id: readyVoice, name: 'Support voice', samples: 3 });
    const readyAt = (events[1]!.data as { ready_at: string }).ready_at;
    expect(events[1]!.data).toEqual({ voice_id: readyVoice, name: 'Support voice', ready_at: readyAt });

    const voice = await api(pro, 'GET', `/v1/voice_clones/${readyVoice}`);
    expect(voice.body).toMatchObject({ voice_id: readyVoice, status: 'ready', ready_at: readyAt, error_code: null });
    expect(voice.body.samples).toHaveLength(3);
    for (const s of voice.body.samples) {
      expect(s.format).toBe('wav');
      expect(s.duration_ms).toBe(31_000);
      expect(s.duration_seconds).toBe(31);
      expect(s.rms_dbfs).toBeGreaterThan(-12);
      expect(s.rms_dbfs).toBeLessThan(-6);
    }
    expect((await storedFiles()).filter((f) => f.startsWith(`${readyVoice}/`))).toHaveLength(3);

    const call = await api(pro, 'POST', '/v1/calls', {
      to: '+14155550100',
      from: '+14155550199',
      agent_config: { prompt: 'Hi', voice_id: readyVoice },
      test_mode: true,
    });
    expect(call.status).toBe(201);
    expect(call.body.voice_id).toBe(readyVoice);
    const campaign = await api(pro, 'POST', '/v1/campaigns', {
      name: 'With a cloned voice',
      from_number: '+14155550199',
      test_mode: true,
      agent_config: { prompt: 'Hi', voice_id: readyVoice },
    });
    expect(campaign.status).toBe(201);
    const list = await api(pro, 'GET', '/v1/voice_clones');
    expect(list.body.data.map((v: { voice_id: string }) => v.voice_id)).toContain(readyVoice);
  });

  it.each([
    ['MP3 (sox, libmp3lame)', () => [1, 2, 3].map(() => audio.tone('mp3', { seconds: 31, rate: 22_050 })), 'mp3'],
    ['FLAC (sox)', () => [1, 2, 3].map(() => audio.tone('flac', { seconds: 31, channels: 2 })), 'flac'],
    ['Ogg Vorbis (sox)', () => [1, 2, 3].map(() => audio.tone('ogg', { seconds: 31 })), 'ogg_vorbis'],
    ['Ogg Opus (ffmpeg, libopus)', () => [1, 2, 3].map(() => audio.opus({ seconds: 31 })), 'ogg_opus'],
  ])('%s samples train as well as WAV', async (_label, make, format) => {
    const res = await upload(pro, `From ${format}`, make());
    expect(res.status).toBe(202);
    const events = await trained(pro, res.body.voice_id);
    expect(events.map((e) => e.type)).toEqual(['voice_clone.training_started', 'voice_clone.training_succeeded']);
    const voice = await api(pro, 'GET', `/v1/voice_clones/${res.body.voice_id}`);
    for (const s of voice.body.samples) {
      expect(s.format).toBe(format);
      // Encoders pad a little (an MP3 frame, Opus pre-skip): the length is the decoded audio's.
      expect(s.duration_ms).toBeGreaterThanOrEqual(30_900);
      expect(s.duration_ms).toBeLessThan(31_300);
      expect(s.rms_dbfs).toBeGreaterThan(-13);
    }
  });
});

describe('training failures, each from real audio', () => {
  it('two samples: insufficient_samples, saying 3 samples of 30 seconds are needed', async () => {
    const { failed } = await expectFailure(
      pro,
      [1, 2].map(() => audio.tone('wav', { seconds: 31 })),
      'insufficient_samples',
    );
    expect(failed.error_message).toMatch(/at least 3 samples of 30 seconds each/i);
  });

  it('one 10-second sample: sample_too_short, naming it', async () => {
    const short = audio.tone('wav', { seconds: 10 });
    const { failed, voice } = await expectFailure(
      pro,
      [audio.tone('wav', { seconds: 31 }), short, audio.tone('wav', { seconds: 31 })],
      'sample_too_short',
    );
    expect(failed.error_message).toMatch(/^Sample 2 \(tone-\d+\.wav, 10\.0 s\)/);
    expect(voice.samples.map((s: { duration_ms: number }) => s.duration_ms)).toEqual([31_000, 10_000, 31_000]);
  });

  it('a WAV whose header claims 60 s but holds 10 s: judged on the audio, sample_too_short', async () => {
    const { voice } = await expectFailure(
      pro,
      [audio.lyingWav(10, 60), audio.tone('wav', { seconds: 31 }), audio.tone('wav', { seconds: 31 })],
      'sample_too_short',
    );
    expect(voice.samples[0].duration_ms).toBe(10_000);
  });

  it('three samples at -50 dBFS: sample_too_quiet', async () => {
    const { voice } = await expectFailure(
      pro,
      [1, 2, 3].map(() => audio.tone('wav', { seconds: 31, peakDbfs: -50 })),
      'sample_too_quiet',
    );
    for (const s of voice.samples) expect(s.rms_dbfs).toBeLessThan(-50);
  });

  it('a starter tenant: voice_clone_disabled_on_plan', async () => {
    const starter = await newTenant('Starter Co', 'starter');
    await expectFailure(
      starter,
      [1, 2, 3].map(() => audio.tone('wav', { seconds: 31 })),
      'voice_clone_disabled_on_plan',
    );
  });
});

describe('voices that cannot be used: 422 voice_not_ready', () => {
  const callWith = (tenant: TenantInfo, voiceId: string) =>
    api(tenant, 'POST', '/v1/calls', {
      to: '+14155550100',
      from: '+14155550199',
      agent_config: { prompt: 'Hi', voice_id: voiceId },
      test_mode: true,
    });

  const expectNotReady = (res: { status: number; body: any }) => {
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ type: 'voice_not_ready', param: 'agent_config.voice_id' });
  };

  it('a voice still training is refused in a call', async () => {
    // Ten minute-long stereo MP3s keep the job busy for a while; the call goes right after the 202.
    const long = audio.tone('mp3', { seconds: 60, rate: 44_100, channels: 2 });
    const res = await upload(pro, 'Still training', new Array<string>(10).fill(long));
    expect(res.status).toBe(202);
    const refused = await callWith(pro, res.body.voice_id);
    expectNotReady(refused);
    expect(refused.body.error.message).toMatch(/still training/);
    expect(received(pro, res.body.voice_id).some((e) => e.type === 'voice_clone.training_succeeded')).toBe(false);
    await trained(pro, res.body.voice_id);
  });

  it('a failed voice is refused in calls, campaigns and phone numbers; unknown and foreign ones too', async () => {
    const { voiceId } = await expectFailure(
      pro,
      [1, 2].map(() => audio.tone('wav', { seconds: 31 })),
      'insufficient_samples',
    );
    expectNotReady(await callWith(pro, voiceId));
    expectNotReady(
      await api(pro, 'POST', '/v1/campaigns', {
        name: 'x',
        from_number: '+14155550199',
        agent_config: { prompt: 'Hi', voice_id: voiceId },
      }),
    );
    expectNotReady(
      await api(pro, 'POST', '/v1/phone_numbers', {
        phone_number: '+14155550177',
        agent_config: { prompt: 'Hi', voice_id: voiceId },
      }),
    );
    expectNotReady(await callWith(pro, 'voi_00000000000000000000'));
    expectNotReady(await callWith(pro, 'my_voice'));
    const other = await newTenant('Other Voices Co');
    expectNotReady(await callWith(other, readyVoice));
    expect((await api(other, 'GET', `/v1/voice_clones/${readyVoice}`)).status).toBe(404);
    // Built-in voices, and none at all (voice_default), keep working.
    expect((await callWith(other, 'voice_default')).status).toBe(201);
    expect((await callWith(other, 'voice_ava')).status).toBe(201);
  });
});

describe('uploads that are refused leave nothing stored', () => {
  let before: string[];
  beforeEach(async () => {
    before = await storedFiles();
  });
  afterEach(async () => {
    // Staging directories are removed before the answer is sent; give a cut-off upload a moment.
    await eventually(async () => expect(await storedFiles()).toEqual(before), 5_000);
  });

  it('garbage bytes: 400, naming the file', async () => {
    const garbage = audio.file('garbage.wav', Buffer.from('this is not audio at all '.repeat(2000)));
    const res = await upload(pro, 'Garbage', [audio.tone('wav', { seconds: 31 }), garbage]);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ type: 'invalid_request', param: 'samples[1]' });
  });

  it('a RIFF header with nothing decodable after it: 400', async () => {
    const header = Buffer.from('RIFF\x24\x00\x00\x00WAVEfmt \x10\x00\x00\x00\x01\x00\x01\x00', 'latin1');
    const res = await upload(pro, 'Header only', [audio.file('header.wav', header)]);
    expect(res.status).toBe(400);
    expect(res.body.error.param).toBe('samples[0]');
  });

  it('a file over 20 MB: 413', async () => {
    const big = audio.file('big.wav', Buffer.alloc(20 * 1024 * 1024 + 1, 1));
    const res = await upload(pro, 'Too big', [audio.tone('wav', { seconds: 31 }), big]);
    expect(res.status).toBe(413);
    expect(res.body.error.type).toBe('payload_too_large');
  });

  it('26 files: 413', async () => {
    const one = audio.tone('wav', { seconds: 1 });
    const res = await upload(pro, 'Too many', new Array<string>(26).fill(one));
    expect(res.status).toBe(413);
  });

  it('a part declared as text/plain: 415; a JSON body: 415; no name, no samples, unknown fields: 400', async () => {
    const wav = audio.tone('wav', { seconds: 1 });
    expect((await upload(pro, 'Text', [{ path: wav, type: 'text/plain' }])).status).toBe(415);
    expect((await api(pro, 'POST', '/v1/voice_clones', { name: 'JSON' })).status).toBe(415);
    expect((await upload(pro, null, [wav])).body.error.param).toBe('name');
    expect((await upload(pro, 'No samples', [])).body.error.param).toBe('samples');
    expect((await upload(pro, 'Extra', [wav, { path: wav, field: 'extra' }])).body.error).toMatchObject({
      type: 'invalid_request',
      param: 'extra',
    });
  });
});

describe('delete', () => {
  it('deletes the voice and its samples; it is then unknown', async () => {
    const res = await upload(
      pro,
      'Short-lived',
      [1, 2, 3].map(() => audio.tone('flac', { seconds: 31 })),
    );
    await trained(pro, res.body.voice_id);
    expect((await storedFiles()).filter((f) => f.startsWith(`${res.body.voice_id}/`))).toHaveLength(3);
    const deleted = await api(pro, 'DELETE', `/v1/voice_clones/${res.body.voice_id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ id: res.body.voice_id, deleted: true });
    expect((await storedFiles()).filter((f) => f.startsWith(`${res.body.voice_id}/`))).toEqual([]);
    expect(existsSync(join(h.dataDir, 'voices', res.body.voice_id))).toBe(false);
    expect((await api(pro, 'GET', `/v1/voice_clones/${res.body.voice_id}`)).status).toBe(404);
    expect((await api(pro, 'DELETE', `/v1/voice_clones/${res.body.voice_id}`)).status).toBe(404);
    const list = await api(pro, 'GET', '/v1/voice_clones?limit=100');
    expect(list.body.data.map((v: { voice_id: string }) => v.voice_id)).not.toContain(res.body.voice_id);
  });
});
