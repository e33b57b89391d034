/**
 * Voice clone uploads cannot stall other tenants (docs/voices.md "Bounds and quotas"): the real
 * service (node dist/main.js, SIM_TIME_SCALE=0.01) with real long audio made by ffmpeg (an hour of
 * 4 kbit/s Ogg Opus, 2.3 MB). A hostile tenant keeps uploading voices of hour-long samples while a
 * quiet tenant places test calls: their latency is compared with the same calls placed before. Then
 * the length bounds (sample_too_long, samples_too_long), the per-tenant quotas (422, also under
 * concurrent uploads) and, on a second service with a tiny VOICE_DECODE_TIMEOUT, decode_timeout.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { AudioFixtures, uploadVoice } from '../../support/audio-fixtures';
import { CallsService, placeCall, sessionEvents, startCallsService } from '../../support/calls-harness';
import { eventually } from '../../support/eventually';
import { killAllServices } from '../../support/process';
import { createTenant, TenantInfo } from '../../support/webhooks-harness';

jest.setTimeout(600_000);

const CALLS = 20;
let h: CallsService;
let audio: AudioFixtures;
let hour: string;

beforeAll(async () => {
  audio = new AudioFixtures();
  hour = audio.longOpus(3600);
  h = await startCallsService({
    SIM_TIME_SCALE: '0.01',
    VOICE_CLONES_PER_TENANT: '4',
    VOICE_STORAGE_MB_PER_TENANT: '30',
  });
});

afterAll(async () => {
  await h?.destroy();
  await killAllServices();
  audio?.remove();
});

const api = (service: CallsService, tenant: TenantInfo, method: string, path: string) =>
  service.call(method, path, { token: tenant.api_key });

const upload = (tenant: TenantInfo, name: string, files: readonly string[], service = h) =>
  uploadVoice(
    service.svc.baseUrl,
    tenant.api_key,
    name,
    files.map((path) => ({ path })),
  );

/** The voice once its training has ended (ready or failed). */
const settled = (tenant: TenantInfo, voiceId: string, service = h, timeoutMs = 120_000) =>
  eventually(
    async () => {
      const voice = (await api(service, tenant, 'GET', `/v1/voice_clones/${voiceId}`)).body;
      return voice.status === 'ready' || voice.status === 'failed' ? voice : false;
    },
    timeoutMs,
    100,
  );

/** Milliseconds from POST /v1/calls (a 45 s scripted call, 0.45 s here) until session.ended is listed. */
async function timedCall(tenant: TenantInfo): Promise<number> {
  const started = performance.now();
  const session = await placeCall(h.call, tenant.api_key, '+14155550100', { testMode: true });
  await eventually(
    async () =>
      (await sessionEvents(h.call, tenant.api_key, session.session_id)).some((e) => e.type === 'session.ended'),
    60_000,
    20,
  );
  return performance.now() - started;
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

/** Every file under DATA_DIR/voices, relative to it. */
function storedFiles(service = h): string[] {
  const root = join(service.dataDir, 'voices');
  const walk = (dir: string): string[] =>
    existsSync(dir)
      ? readdirSync(dir).flatMap((name) => {
          const path = join(dir, name);
          return statSync(path).isDirectory() ? walk(path) : [path.slice(root.length + 1)];
        })
      : [];
  return walk(root);
}

describe('a tenant uploading hours of audio does not stall the others', () => {
  it('test calls of another tenant end as promptly while hour-long samples train', async () => {
    const quiet = await createTenant(h.call, h.svc.adminToken, 'Quiet Co');
    const hostile = await createTenant(h.call, h.svc.adminToken, 'Hostile Co');

    const baseline: number[] = [];
    for (let i = 0; i < CALLS; i++) baseline.push(await timedCall(quiet));

    // The hostile tenant keeps uploading voices of three hour-long samples (at its quota of 4 voices,
    // it deletes its oldest once trained) until the quiet tenant's calls are done.
    let calling = true;
    const voices: string[] = [];
    const failures: string[] = [];
    let uploads = 0;
    const hostileLoop = async (): Promise<void> => {
      while (calling && uploads < 40) {
        const res = await upload(hostile, `Hour ${uploads}`, [hour, hour, hour]);
        if (res.status === 202) {
          uploads++;
          voices.push(res.body.voice_id);
          continue;
        }
        expect(res.body.error.type).toBe('voice_quota_exceeded');
        const oldest = voices.shift();
        if (!oldest) throw new Error('at the quota with no voice of its own');
        failures.push((await settled(hostile, oldest)).error_code);
        expect((await api(h, hostile, 'DELETE', `/v1/voice_clones/${oldest}`)).status).toBe(200);
      }
    };
    const loops = [hostileLoop(), hostileLoop()];
    await eventually(() => uploads >= 2, 60_000, 50);

    const underLoad: number[] = [];
    for (let i = 0; i < CALLS; i++) underLoad.push(await timedCall(quiet));
    calling = false;
    await Promise.all(loops);
    for (const voiceId of voices) failures.push((await settled(hostile, voiceId)).error_code);

    const figure = (label: string, xs: number[]) =>
      `${label}: p50 ${percentile(xs, 50).toFixed(0)} ms, p99 ${percentile(xs, 99).toFixed(0)} ms, max ${Math.max(...xs).toFixed(0)} ms`;
    console.log(
      [
        `Test call latency (POST /v1/calls to session.ended, ${CALLS} calls each, SIM_TIME_SCALE=0.01):`,
        figure('  no hostile tenant', baseline),
        figure(`  while ${uploads} hostile voices (3 x 1 h Opus each) trained`, underLoad),
      ].join('\n'),
    );

    // Every hostile voice was refused on its first hour-long sample, after 10 minutes of decoding.
    expect(uploads).toBeGreaterThanOrEqual(3);
    expect(new Set(failures)).toEqual(new Set(['sample_too_long']));
    expect(percentile(underLoad, 50)).toBeLessThan(percentile(baseline, 50) + 1_000);
    expect(percentile(underLoad, 99)).toBeLessThan(percentile(baseline, 99) + 3_000);
  });
});

describe('length bounds end training with a clear reason', () => {
  let tenant: TenantInfo;
  beforeAll(async () => {
    tenant = await createTenant(h.call, h.svc.adminToken, 'Long Samples Co');
  });

  it('a sample over 10 minutes: sample_too_long, naming it; decoding stopped at the bound', async () => {
    const long = audio.longOpus(11 * 60);
    const res = await upload(tenant, 'Eleven minutes', [
      audio.tone('wav', { seconds: 31 }),
      long,
      audio.tone('wav', { seconds: 31 }),
    ]);
    expect(res.status).toBe(202);
    const voice = await settled(tenant, res.body.voice_id);
    expect(voice).toMatchObject({ status: 'failed', error_code: 'sample_too_long' });
    expect(voice.error_message).toMatch(/^Sample 2 \(long-\d+\.opus\) is longer than 10 minutes/);
    expect(voice.samples.map((s: { duration_ms: number | null }) => s.duration_ms)).toEqual([31_000, null, null]);
  });

  it('samples over 30 minutes together: samples_too_long', async () => {
    const eight = audio.longOpus(8 * 60);
    const res = await upload(tenant, 'Four times eight minutes', [eight, eight, eight, eight]);
    expect(res.status).toBe(202);
    const voice = await settled(tenant, res.body.voice_id);
    expect(voice).toMatchObject({ status: 'failed', error_code: 'samples_too_long' });
    expect(voice.error_message).toMatch(/more than 30 minutes of audio together/);
    const lengths = voice.samples.map((s: { duration_ms: number | null }) => s.duration_ms);
    expect(lengths[3]).toBeNull();
    for (const ms of lengths.slice(0, 3)) expect(Math.abs(ms - 480_000)).toBeLessThan(500);
  });
});

describe('per-tenant quotas: a clear 422 at upload, also for concurrent uploads', () => {
  it('voices: the fifth is refused with voice_quota_exceeded, naming the limit; deleting makes room', async () => {
    const tenant = await createTenant(h.call, h.svc.adminToken, 'Many Voices Co');
    const one = audio.tone('wav', { seconds: 1 });
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await upload(tenant, `Voice ${i}`, [one]);
      expect(res.status).toBe(202);
      ids.push(res.body.voice_id);
    }
    const before = storedFiles();
    const refused = await upload(tenant, 'One too many', [one]);
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({ type: 'voice_quota_exceeded', request_id: expect.any(String) });
    expect(refused.body.error.message).toMatch(/at most 4 voice clones and has 4/);
    await eventually(() => expect(storedFiles()).toEqual(before), 5_000);

    // Two freed, six at once: exactly two get in, whichever instance or order.
    for (const id of ids.slice(0, 2))
      expect((await api(h, tenant, 'DELETE', `/v1/voice_clones/${id}`)).status).toBe(200);
    const burst = await Promise.all([0, 1, 2, 3, 4, 5].map((i) => upload(tenant, `Burst ${i}`, [one])));
    expect(burst.map((r) => r.status).sort()).toEqual([202, 202, 422, 422, 422, 422]);
    const list = await api(h, tenant, 'GET', '/v1/voice_clones?limit=100');
    expect(list.body.data).toHaveLength(4);
  });

  it('storage: samples past the 30 MB quota are refused with storage_quota_exceeded; of two concurrent 16 MB uploads one fits', async () => {
    const tenant = await createTenant(h.call, h.svc.adminToken, 'Big Files Co');
    // 500 s of 16 kHz 16-bit mono: 16,000,044 bytes (15.3 MB as the quota counts, 1 MB = 1,048,576 bytes) each.
    const big = audio.tone('wav', { seconds: 500 });
    const before = storedFiles();
    const refused = await upload(tenant, 'Thirty-two MB', [big, big]);
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({ type: 'storage_quota_exceeded', param: 'samples' });
    expect(refused.body.error.message).toMatch(
      /at most 30\.0 MB of voice samples; it stores 0\.0 MB and these samples add 30\.5 MB/,
    );
    await eventually(() => expect(storedFiles()).toEqual(before), 5_000);

    const both = await Promise.all([upload(tenant, 'First', [big]), upload(tenant, 'Second', [big])]);
    expect(both.map((r) => r.status).sort()).toEqual([202, 422]);
    expect(both.find((r) => r.status === 422)!.body.error.type).toBe('storage_quota_exceeded');
  });
});

describe('a decode past VOICE_DECODE_TIMEOUT', () => {
  let slow: CallsService;
  afterAll(async () => {
    await slow?.destroy();
  });

  it('ends training with decode_timeout; the service carries on', async () => {
    await h.destroy();
    slow = await startCallsService({ SIM_TIME_SCALE: '0.01', VOICE_DECODE_TIMEOUT: '200ms' });
    const tenant = await createTenant(slow.call, slow.svc.adminToken, 'Slow Decode Co');
    const res = await upload(tenant, 'Hours', [hour, hour, hour], slow);
    expect(res.status).toBe(202);
    const voice = await settled(tenant, res.body.voice_id, slow);
    expect(voice).toMatchObject({ status: 'failed', error_code: 'decode_timeout' });
    expect(voice.error_message).toMatch(/^Sample 1 \(long-\d+\.opus\) could not be decoded within 0\.2 seconds/);
    expect((await slow.call('GET', '/health')).status).toBe(200);
  });
});
