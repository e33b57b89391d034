/**
 * The decoding pool of voice clones (src/voices/infra/decode-pool.ts) with its real worker threads
 * (the compiled audio-decode.worker.js) on real long audio made by ffmpeg: decoding leaves the event
 * loop idle, stops at the length bound, a decode past its time bound gets its worker terminated and
 * the pool carries on, the queues are bounded and tenants take turns.
 */
import { performance } from 'node:perf_hooks';
import { AudioFixtures } from '../../support/audio-fixtures';
import { DecodePool, DecodeQueueFull, DecodeTimeout, DECODE_POOL } from '../../../src/voices/infra/decode-pool';

jest.setTimeout(120_000);

let audio: AudioFixtures;
let twentyMinutes: string;
const pools: DecodePool[] = [];

const pool = (measureTimeoutMs = 60_000, workers = 1) => {
  const p = new DecodePool({ workers, measureTimeoutMs });
  pools.push(p);
  return p;
};

beforeAll(() => {
  audio = new AudioFixtures();
  twentyMinutes = audio.longOpus(20 * 60);
});

afterAll(async () => {
  await Promise.all(pools.map((p) => p.close()));
  audio?.remove();
});

it('measures 20 minutes of Opus in a worker while the event loop stays idle', async () => {
  expect(DECODE_POOL).toBeDefined();
  const decoding = pool();
  const before = performance.eventLoopUtilization();
  const started = performance.now();
  const result = await decoding.measure(twentyMinutes, 'ogg_opus', 30 * 60_000, 'tenant_a');
  const busy = performance.eventLoopUtilization(before);
  expect(result).toMatchObject({ kind: 'measured', measurement: { sample_rate: 48_000, channels: 1 } });
  if (result.kind !== 'measured') throw new Error('not measured');
  expect(Math.abs(result.measurement.duration_ms - 1_200_000)).toBeLessThan(100);
  expect(result.measurement.rms_dbfs).toBeGreaterThan(-30);
  // Decoding took a while (seconds of a core); the main thread was busy for a small part of it only.
  const elapsed = performance.now() - started;
  expect(elapsed).toBeGreaterThan(500);
  expect(busy.utilization).toBeLessThan(0.2);
});

it('stops decoding at the length bound: an hour costs what the bound does', async () => {
  const decoding = pool();
  const started = performance.now();
  const result = await decoding.measure(twentyMinutes, 'ogg_opus', 60_000, 'tenant_a');
  expect(result.kind).toBe('too_long');
  if (result.kind !== 'too_long') throw new Error('not too long');
  expect(result.decodedMs).toBeGreaterThan(60_000);
  expect(result.decodedMs).toBeLessThan(120_000);
  expect(performance.now() - started).toBeLessThan(10_000);
});

it('a decode past its time bound: DecodeTimeout, its worker is terminated and the next job runs on a new one', async () => {
  const decoding = pool(300);
  await expect(decoding.measure(twentyMinutes, 'ogg_opus', 30 * 60_000, 'tenant_a')).rejects.toBeInstanceOf(
    DecodeTimeout,
  );
  expect(decoding.stats().busy).toBe(0);
  expect(await decoding.probe(twentyMinutes, 'ogg_opus')).toBeNull();
  const garbage = audio.file('garbage.opus', Buffer.from('OggS not really '.repeat(100)));
  expect(await decoding.probe(garbage, 'ogg_opus')).toMatch(/decode/);
});

it('bounded queues: a tenant may have two decodes waiting, the queue eight; tenants take turns', async () => {
  const decoding = pool();
  const order: string[] = [];
  const job = (key: string, label: string) =>
    decoding.measure(twentyMinutes, 'ogg_opus', 5_000, key).then(() => order.push(label));
  const running = job('a', 'a1'); // taken by the worker at once
  const waiting = [job('a', 'a2'), job('a', 'a3')];
  await expect(decoding.measure(twentyMinutes, 'ogg_opus', 5_000, 'a')).rejects.toBeInstanceOf(DecodeQueueFull);
  const b = job('b', 'b1'); // another tenant still gets in, and goes before a's second and third
  expect(decoding.stats()).toMatchObject({ workers: 1, busy: 1, queued: 3 });
  await Promise.all([running, ...waiting, b]);
  expect(order).toEqual(['a1', 'b1', 'a2', 'a3']);
});
