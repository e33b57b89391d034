import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { sleep } from './child-process';
import { percentiles, type Percentiles } from './percentiles';
import { ADMIN_TOKEN, postJson, removeRecordings, ServiceProcess, startServiceProcess } from './service-process';
import { BenchContext, currentLoad, numberFromEnv, round2 } from './support';

/**
 * Noisy neighbours: what one hostile tenant does to another tenant's service, with the service as
 * an operator runs it (`node dist/main.js` in a child process, SIM_TIME_SCALE=0.01).
 *
 *   calls          a victim tenant's test calls (+14155550100, 0.45 s answered calls), BENCH_NEIGHBOUR_CALLS
 *                  of them (40), 4 at a time: latency from POST /v1/calls to the session read back
 *                  as ended (polled every 25 ms; a call not ended within 60 s counts as 60 s).
 *                  Measured alone, then while a hostile tenant (plan pro, balance 0) has uploaded
 *                  three voice clones of three one-hour Opus samples each and queued
 *                  BENCH_NEIGHBOUR_HELD (5,000) production calls, which wait for credit.
 *   credits        a tenant's GET /v1/credits latency, 20 requests a second for BENCH_SECONDS × 2,
 *                  alone and during a flood of 100 concurrent unauthenticated POST /dashboard/login
 *                  senders (each a fresh address).
 *
 * Targets: the victim's p99 with the hostile tenant at most 2× its p99 alone plus 500 ms; the
 * credits p95 during the flood at most 250 ms.
 */

const SCALE = '0.01';
/** The number the hostile tenant's production calls come from, assigned to it. */
const HOSTILE_FROM = '+14155550199';
const CALL_TIMEOUT_MS = 60_000;

export async function neighboursBench(ctx: BenchContext): Promise<object> {
  const victimCalls = numberFromEnv('BENCH_NEIGHBOUR_CALLS', 40);
  const held = numberFromEnv('BENCH_NEIGHBOUR_HELD', 5000);
  const sample = await hourLongSample(ctx);
  let service: ServiceProcess | null = null;
  try {
    service = await startServiceProcess(ctx.databaseUrl, { SIM_TIME_SCALE: SCALE });
    const victim = service.apiKey;
    const base = service.baseUrl;
    ctx.log(`service pid ${service.pid} at ${base}`);
    await sleep(1_000);
    await victimLatencies(base, victim, 8); // warm-up
    const alone = await victimLatencies(base, victim, victimCalls);
    ctx.log(`victim calls alone: p50 ${alone.latency.p50} p99 ${alone.latency.p99} ms`);

    const hostile = await postJson<{ tenant_id: string; api_key: string }>(`${base}/admin/v1/tenants`, ADMIN_TOKEN, {
      name: 'hostile',
      email: 'hostile@example.com',
      plan: 'pro',
    });
    // Production calls come from a number the tenant owns (decision 178): the operator assigns it.
    await postJson(`${base}/admin/v1/tenants/${hostile.tenant_id}/phone_numbers`, ADMIN_TOKEN, {
      phone_number: HOSTILE_FROM,
    });
    const uploads = await uploadVoices(base, hostile.api_key, sample);
    ctx.log(`hostile: voice uploads ${JSON.stringify(uploads)}`);
    const queued = await queueHeldCalls(base, hostile.api_key, held);
    ctx.log(`hostile: ${held} production calls posted: ${JSON.stringify(queued)}`);
    const attacked = await victimLatencies(base, victim, victimCalls);
    ctx.log(`victim calls with the hostile tenant: p50 ${attacked.latency.p50} p99 ${attacked.latency.p99} ms`);
    const voices = await voiceStates(base, hostile.api_key);
    ctx.log(`hostile voices after the run: ${JSON.stringify(voices)}`);

    const seconds = Math.max(2, ctx.seconds * 2);
    const quiet = await creditsLatency(base, victim, seconds, 0);
    const flooded = await creditsLatency(base, victim, seconds, 100);
    ctx.log(
      `GET /v1/credits p95 ${quiet.latency.p95} ms alone, ${flooded.latency.p95} ms during a login flood ` +
        `(${flooded.flood_requests} login requests: ${JSON.stringify(flooded.flood_statuses)})`,
    );
    ctx.check('neighbours_victim_call_p99_ms', attacked.latency.p99, round2(2 * alone.latency.p99 + 500), 'max');
    ctx.check('neighbours_credits_p95_during_login_flood_ms', flooded.latency.p95, 250, 'max');
    return {
      settings: { sim_time_scale: Number(SCALE), victim_calls: victimCalls, held_calls: held, sample },
      victim_calls_alone: alone,
      victim_calls_with_hostile_tenant: attacked,
      hostile: { uploads, queued, voices_after: voices },
      credits_alone: quiet,
      credits_during_login_flood: flooded,
      recordings: removeRecordings(service.dataDir),
      load_avg_1m: currentLoad(),
    };
  } finally {
    const stopped = await service?.stop();
    if (stopped?.forced) ctx.log('the service did not stop within 15 s of SIGTERM and was killed');
  }
}

/** One hour of pink noise as mono Opus at 4 kb/s (about 1.7 MB), made once with ffmpeg and kept in tmp. */
async function hourLongSample(ctx: BenchContext): Promise<{ path: string; bytes: number }> {
  const path = join(tmpdir(), 'bench-hour-pink-4k.ogg');
  if (!existsSync(path)) {
    ctx.log('encoding a one-hour Opus sample with ffmpeg (about 30 s, once)');
    await promisify(execFile)('ffmpeg', [
      ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi'],
      ...['-i', 'anoisesrc=color=pink:amplitude=0.3:duration=3600:sample_rate=16000'],
      ...['-ac', '1', '-c:a', 'libopus', '-b:a', '4k', path],
    ]);
  }
  return { path, bytes: readFileSync(path).length };
}

interface Latencies {
  readonly calls: number;
  readonly timed_out: number;
  readonly latency: Percentiles;
}

async function victimLatencies(base: string, apiKey: string, count: number): Promise<Latencies> {
  const values: number[] = [];
  let timedOut = 0;
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) {
      next++;
      const started = Date.now();
      const session = await postJson<{ session_id: string }>(`${base}/v1/calls`, apiKey, {
        to: '+14155550100',
        from: '+14155550199',
        agent_config: { prompt: 'bench' },
        test_mode: true,
      });
      const ended = await waitForEnd(base, apiKey, session.session_id, started + CALL_TIMEOUT_MS);
      if (!ended) timedOut++;
      values.push(Math.min(Date.now() - started, CALL_TIMEOUT_MS));
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  return { calls: values.length, timed_out: timedOut, latency: percentiles(values) };
}

const ENDED = new Set(['completed', 'failed', 'no_answer', 'busy', 'voicemail', 'canceled', 'cancelled']);

async function waitForEnd(base: string, apiKey: string, sessionId: string, deadline: number): Promise<boolean> {
  while (Date.now() < deadline) {
    const response = await fetch(`${base}/v1/sessions/${sessionId}`, {
      headers: { authorization: `Bearer ${apiKey}` },
      signal: AbortSignal.timeout(10_000),
    }).catch(() => null);
    if (response?.ok) {
      const body = (await response.json()) as { status?: string };
      if (body.status && ENDED.has(body.status)) return true;
    }
    await sleep(25);
  }
  return false;
}

async function uploadVoices(base: string, apiKey: string, sample: { path: string }): Promise<Record<string, number>> {
  const bytes = readFileSync(sample.path);
  const statuses: Record<string, number> = {};
  for (let v = 0; v < 3; v++) {
    const form = new FormData();
    form.append('name', `hour-long ${v}`);
    for (let s = 0; s < 3; s++) form.append('samples', new Blob([bytes], { type: 'audio/ogg' }), `hour-${s}.ogg`);
    const response = await fetch(`${base}/v1/voice_clones`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}` },
      body: form,
      signal: AbortSignal.timeout(120_000),
    });
    await response.arrayBuffer();
    statuses[response.status] = (statuses[response.status] ?? 0) + 1;
  }
  return statuses;
}

async function voiceStates(base: string, apiKey: string): Promise<Record<string, number>> {
  const response = await fetch(`${base}/v1/voice_clones?limit=100`, { headers: { authorization: `Bearer ${apiKey}` } });
  const body = (await response.json()) as { data?: { status: string; error_code?: string | null }[] };
  const states: Record<string, number> = {};
  for (const voice of body.data ?? []) {
    const key = voice.error_code ? `${voice.status}:${voice.error_code}` : voice.status;
    states[key] = (states[key] ?? 0) + 1;
  }
  return states;
}

/** Posts `count` production calls (test_mode false) 20 at a time; answers the count of each status. */
async function queueHeldCalls(base: string, apiKey: string, count: number): Promise<Record<string, number>> {
  const statuses: Record<string, number> = {};
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) {
      const i = next++;
      const response = await fetch(`${base}/v1/calls`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          to: `+1415555${String(2000 + (i % 7000)).padStart(4, '0')}`,
          from: HOSTILE_FROM,
          agent_config: { prompt: 'hold' },
          test_mode: false,
        }),
        signal: AbortSignal.timeout(30_000),
      }).catch(() => null);
      const status = response ? response.status : 0;
      if (response) await response.arrayBuffer();
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: 20 }, worker));
  return statuses;
}

async function creditsLatency(
  base: string,
  apiKey: string,
  seconds: number,
  floodSenders: number,
): Promise<{ requests: number; latency: Percentiles; flood_requests: number; flood_statuses: Record<string, number> }> {
  const until = Date.now() + seconds * 1000;
  const floodStatuses: Record<string, number> = {};
  let floodRequests = 0;
  const sender = async (n: number): Promise<void> => {
    let i = 0;
    while (Date.now() < until) {
      const response = await fetch(`${base}/dashboard/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: `flood-${n}-${i++}@example.com` }),
        signal: AbortSignal.timeout(10_000),
      }).catch(() => null);
      floodRequests++;
      const status = response ? response.status : 0;
      if (response) await response.arrayBuffer();
      floodStatuses[status] = (floodStatuses[status] ?? 0) + 1;
    }
  };
  const flood = Array.from({ length: floodSenders }, (_, n) => sender(n));
  const values: number[] = [];
  const probes: Promise<void>[] = [];
  while (Date.now() < until) {
    probes.push(
      (async () => {
        const started = performance.now();
        const response = await fetch(`${base}/v1/credits`, {
          headers: { authorization: `Bearer ${apiKey}` },
          signal: AbortSignal.timeout(10_000),
        }).catch(() => null);
        if (response) await response.arrayBuffer();
        values.push(response?.ok ? performance.now() - started : 10_000);
      })(),
    );
    await sleep(50);
  }
  await Promise.all([...probes, ...flood]);
  return {
    requests: values.length,
    latency: percentiles(values),
    flood_requests: floodRequests,
    flood_statuses: floodStatuses,
  };
}
