import type { Pool } from 'pg';
import { campaignFigures, CampaignStreamEvent } from './campaign-figures';
import { sleep } from './child-process';
import { sampleProcessRss } from './probes';
import { ADMIN_TOKEN, postJson, removeRecordings, ServiceProcess, startServiceProcess } from './service-process';
import { BenchContext, currentLoad, numberFromEnv, round2 } from './support';

/**
 * One campaign end to end, with the service as an operator runs it (`node dist/main.js` in a child
 * process, SIM_TIME_SCALE=0.001, no webhook endpoint): BENCH_CAMPAIGN_CONTACTS contacts (1,000) at
 * BENCH_CAMPAIGN_CONCURRENCY lines (100), test mode, no quiet hours, created as a draft in one
 * request and started. Half the contacts are on the test pool's five numbers (answered, no answer,
 * busy, voicemail, carrier error: 100 each, the daily cap per number), half on numbers of their own
 * (answered calls). Everything is read back from the campaign's stream once campaign.completed is
 * stored (campaign-figures.ts defines the figures):
 *
 *   contacts per second   contacts ÷ (campaign.completed − campaign.started), their created_at
 *   dispatch lag          per dispatch: from campaign.started for the first max_concurrency ones,
 *                         else from the outcome (contact_completed/failed) that freed the line it
 *                         took; created_at to created_at. p50/p95/p99/max. Target p99 ≤ 200 ms.
 *                         A refill's lag is also split at the start of the round that dispatched
 *                         it (its campaign.dispatch_round `at`): until the round, in the round.
 *   line hold             dispatch to outcome of each contact: the call and the service's work
 *                         around it (placing, simulating, recording the outcome)
 *   dialled twice         contacts with more than one session.placed in the store. Target 0.
 *   create_s              POST /v1/campaigns with the contacts (each contact's zones are looked up)
 *
 * The service's command-cache counters (/metrics, `command_stream_cache_total`) are read before
 * and after: `stale` counts appends refused by a concurrent writer of the same stream (then read
 * again in full), which on a campaign's stream is the pacer and the outcomes racing each other.
 */

const LAG_P99_TARGET_MS = 200;
const SCALE = '0.001';
const POOL_NUMBERS = ['+14155550100', '+14155550101', '+14155550102', '+14155550103', '+14155550104'];

export async function campaignBench(ctx: BenchContext): Promise<object> {
  const contacts = numberFromEnv('BENCH_CAMPAIGN_CONTACTS', 1000);
  const maxConcurrency = numberFromEnv('BENCH_CAMPAIGN_CONCURRENCY', 100);
  const timeoutS = numberFromEnv('BENCH_CAMPAIGN_TIMEOUT_SECONDS', 600);
  if (contacts < 1 || contacts > 1000) throw new Error('BENCH_CAMPAIGN_CONTACTS must be 1 to 1,000 (one request)');
  const pool = ctx.pool(2);
  let service: ServiceProcess | null = null;
  try {
    service = await startServiceProcess(ctx.databaseUrl, { SIM_TIME_SCALE: SCALE });
    ctx.log(
      `service pid ${service.pid} at ${service.baseUrl}; ${contacts} contacts, max_concurrency ${maxConcurrency}`,
    );
    await sleep(2_000);
    const createdAt = Date.now();
    const campaign = await postJson<{ campaign_id: string }>(`${service.baseUrl}/v1/campaigns`, service.apiKey, {
      name: 'bench',
      from_number: '+14155550000',
      test_mode: true,
      agent_config: { prompt: 'bench' },
      settings: {
        max_concurrency: maxConcurrency,
        quiet_hours: { start: '00:00', end: '00:00' },
        max_calls_per_number_per_day: 100,
      },
      contacts: Array.from({ length: contacts }, (_, i) => ({ phone_number: numberOf(i) })),
    });
    const id = campaign.campaign_id;
    // Each contact's zones are looked up as the campaign is created (contact-zones.ts).
    const createS = round2((Date.now() - createdAt) / 1000);
    const cacheBefore = await cacheCounters(service);
    const rss = sampleProcessRss(service.pid);
    const startedAt = Date.now();
    await postJson(`${service.baseUrl}/v1/campaigns/${id}/start`, service.apiKey, {});
    const done = await waitForCompletion(pool, id, timeoutS * 1000);
    const wallS = round2((Date.now() - startedAt) / 1000);
    const memory = rss.stop();
    if (!done)
      throw new Error(`campaign ${id} did not complete within ${timeoutS} s: ${await progress(pool, id, service)}`);
    const figures = campaignFigures(await streamOf(pool, id), maxConcurrency);
    const twice = await dialledTwice(pool, id);
    const cacheAfter = await cacheCounters(service);
    const cache = Object.fromEntries(
      Object.keys({ ...cacheBefore, ...cacheAfter }).map((k) => [k, (cacheAfter[k] ?? 0) - (cacheBefore[k] ?? 0)]),
    );
    const lag = figures.dispatch_lag_ms;
    ctx.log(
      `${figures.contacts} contacts in ${figures.run_s} s = ${figures.contacts_per_s}/s (wall ${wallS} s); ` +
        `dispatch lag p50 ${lag.p50} p95 ${lag.p95} p99 ${lag.p99} max ${lag.max} ms ` +
        `(first wave p99 ${figures.first_wave_lag_ms.p99}, refills p99 ${figures.refill_lag_ms.p99}: ` +
        `until the round p99 ${figures.refill_until_round_ms.p99}, in it p99 ${figures.refill_in_round_ms.p99}); ` +
        `line hold p50 ${figures.line_hold_ms.p50} p99 ${figures.line_hold_ms.p99} ms; ` +
        `${figures.rounds} rounds (${figures.dispatches_per_round}/round); most live ${figures.most_live}; ` +
        `created in ${createS} s; ` +
        `dialled twice ${twice.contacts}; stream cache ${JSON.stringify(cache)}; load ${currentLoad()}`,
    );
    ctx.check('campaign_dispatch_lag_p99_ms', lag.p99, LAG_P99_TARGET_MS, 'max');
    ctx.check('campaign_contacts_dialled_twice', twice.contacts, 0, 'max');
    ctx.check('campaign_contacts_per_s', figures.contacts_per_s, 0);
    return {
      settings: {
        contacts,
        max_concurrency: maxConcurrency,
        sim_time_scale: Number(SCALE),
        numbers: 'half on the five test-pool numbers +14155550100..104 (100 each), half answered numbers of their own',
        lag_p99_target_ms: LAG_P99_TARGET_MS,
      },
      ...figures,
      wall_s: wallS,
      create_s: createS,
      contacts_dialled_twice: twice.contacts,
      sessions_placed: twice.placed,
      command_stream_cache: cache,
      service_rss_mb: { peak_sampled: memory.peak_sampled_mb, vm_hwm: memory.vm_hwm_mb },
      recordings: removeRecordings(service.dataDir),
      load_avg_1m: currentLoad(),
      service_log: { lines: service.output.lines, last: service.output.last.slice(-5) },
      note:
        'Times are the events\u2019 created_at (when the command that stored each one decided, just before its ' +
        'append). The first max_concurrency dispatches are measured from campaign.started, the others from the ' +
        'outcome that freed their line (n-th refill to n-th outcome).',
    };
  } finally {
    const stopped = await service?.stop();
    if (stopped?.forced) ctx.log('the service did not stop within 15 s of SIGTERM and was killed');
  }
}

/** Even contacts on the test pool's five numbers in turn, odd ones on answered numbers of their own. */
function numberOf(i: number): string {
  return i % 2 === 0 ? (POOL_NUMBERS[(i / 2) % POOL_NUMBERS.length] as string) : `+1415555${2000 + i}`;
}

async function waitForCompletion(pool: Pool, campaignId: string, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const { rows } = await pool.query(
      `SELECT 1 FROM events WHERE stream_id = $1 AND type = 'campaign.completed' LIMIT 1`,
      [`campaign-${campaignId}`],
    );
    if (rows.length > 0) return true;
    await sleep(100);
  }
  return false;
}

async function streamOf(pool: Pool, campaignId: string): Promise<CampaignStreamEvent[]> {
  const { rows } = await pool.query<{ type: string; at: string; contact: string | null; round_at: string | null }>(
    `SELECT type, metadata->>'created_at' AS at, data->>'contact_id' AS contact, data->>'at' AS round_at FROM events
     WHERE stream_id = $1 ORDER BY stream_position`,
    [`campaign-${campaignId}`],
  );
  return rows.map((r) => ({
    type: r.type,
    at: Date.parse(r.at),
    contactId: r.contact,
    ...(r.type === 'campaign.dispatch_round' && r.round_at ? { roundAt: Date.parse(r.round_at) } : {}),
  }));
}

/** How far an unfinished campaign got, and the service's last lines. */
async function progress(pool: Pool, campaignId: string, service: ServiceProcess): Promise<string> {
  const { rows } = await pool.query<{ type: string; n: number }>(
    `SELECT type, count(*)::int AS n FROM events WHERE stream_id = $1 AND type LIKE 'campaign.contact\\_%' GROUP BY 1`,
    [`campaign-${campaignId}`],
  );
  const counts = Object.fromEntries(rows.map((r) => [r.type.slice('campaign.contact_'.length), r.n]));
  const { rows: failing } = await pool.query<{ kind: string; n: number; attempts: number; error: string | null }>(
    `SELECT kind, count(*)::int AS n, max(attempts)::int AS attempts, max(last_error) AS error FROM timers
     WHERE last_error IS NOT NULL GROUP BY kind`,
  );
  return (
    `contact events ${JSON.stringify(counts)}; timers with an error ${JSON.stringify(failing)}; ` +
    `service log (${service.output.lines} lines) ends ${JSON.stringify(service.output.last.slice(-3))}`
  );
}

/** Contacts with more than one session.placed in the store, and all placements. */
async function dialledTwice(pool: Pool, campaignId: string): Promise<{ contacts: number; placed: number }> {
  const { rows } = await pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM events
     WHERE type = 'session.placed' AND data->>'campaign_id' = $1 GROUP BY data->>'contact_id'`,
    [campaignId],
  );
  return { contacts: rows.filter((r) => r.n > 1).length, placed: rows.reduce((s, r) => s + r.n, 0) };
}

/** command_stream_cache_total by outcome, from the service's /metrics. */
async function cacheCounters(service: ServiceProcess): Promise<Record<string, number>> {
  const res = await fetch(`${service.baseUrl}/metrics`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  if (!res.ok) return {};
  const out: Record<string, number> = {};
  for (const line of (await res.text()).split('\n')) {
    const m = /^command_stream_cache_total\{outcome="([a-z]+)"\} (\d+)/.exec(line);
    if (m?.[1]) out[m[1]] = Number(m[2]);
  }
  return out;
}
