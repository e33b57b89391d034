import { Agent, request } from 'node:http';
import { randomBytes } from 'node:crypto';
import { sleep } from './child-process';
import { percentiles, type Percentiles } from './percentiles';
import { ServiceProcess, startServiceProcess } from './service-process';
import { BenchContext, numberFromEnv, round2 } from './support';

/**
 * A flood of unauthenticated `POST /dashboard/login` and what a tenant sees meanwhile (decision 64):
 * the latency of one tenant's `GET /v1/credits` (two clients in a closed loop) while
 * BENCH_LOGIN_SENDERS senders (100), each from an address of its own (127.0.0.2, 127.0.0.3, … on
 * loopback), send sign-in requests as fast as they are answered, for BENCH_LOGIN_SECONDS (15).
 * One request in ten names a tenant's address (a link is made), the others nobody's. The tenants
 * table holds BENCH_LOGIN_TENANTS rows (20,000) so that the lookup has something to scan.
 *
 * Phases, in one run: `quiet` (this build, no flood), `before` (the build at
 * BENCH_LOGIN_BEFORE_ENTRY, a dist/main.js of the commit before the limits, on the same database
 * without the lower(email) index, which that commit did not have), `after` (this build, flooded).
 * Without BENCH_LOGIN_BEFORE_ENTRY the `before` phase is skipped.
 */

/** A tenant's p95 while flooded, on the 2-core machine of docs/benchmarks.md (quiet: about 10 ms). */
const P95_TARGET_MS = 250;

interface Phase {
  readonly credits_ms: Percentiles;
  readonly credits_answers: Record<string, number>;
  readonly login_answers: Record<string, number>;
  readonly login_per_s: number;
}

export async function loginFloodBench(ctx: BenchContext): Promise<object> {
  const senders = numberFromEnv('BENCH_LOGIN_SENDERS', 100);
  const seconds = numberFromEnv('BENCH_LOGIN_SECONDS', 15);
  const tenants = numberFromEnv('BENCH_LOGIN_TENANTS', 20_000);
  const beforeEntry = process.env.BENCH_LOGIN_BEFORE_ENTRY;
  const pool = ctx.pool(2);
  await pool.query(
    `INSERT INTO tenants (tenant_id, name, email, plan, status, created_at)
     SELECT 'ten_flood' || g, 'Flood ' || g, 'tenant-' || g || '@flood.example', 'pro', 'active', now()
     FROM generate_series(1, $1::int) AS g`,
    [tenants],
  );
  await pool.query('ANALYZE tenants');
  const settings = { senders, seconds, tenants, before_entry: beforeEntry ?? null };
  const results: Record<string, Phase> = {};

  const run = async (name: string, entry: string | undefined, flood: boolean): Promise<void> => {
    const service = await startServiceProcess(ctx.databaseUrl, {}, entry);
    try {
      await sleep(2_000);
      ctx.log(`${name}: service pid ${service.pid}${entry ? ` (${entry})` : ''}${flood ? `, ${senders} senders` : ''}`);
      results[name] = await measure(service, flood ? senders : 0, seconds, tenants);
      const r = results[name];
      ctx.log(
        `${name}: GET /v1/credits p50 ${r.credits_ms.p50} ms, p95 ${r.credits_ms.p95} ms, p99 ${r.credits_ms.p99} ms ` +
          `(answers ${JSON.stringify(r.credits_answers)}); login answers ${JSON.stringify(r.login_answers)}`,
      );
    } finally {
      await service.stop();
    }
  };

  await run('quiet', undefined, false);
  if (beforeEntry) {
    await pool.query('DROP INDEX IF EXISTS tenants_lower_email');
    await run('before', beforeEntry, true);
    await pool.query('CREATE INDEX IF NOT EXISTS tenants_lower_email ON tenants (lower(email))');
  } else ctx.log('before: skipped (BENCH_LOGIN_BEFORE_ENTRY is not set)');
  await run('after', undefined, true);
  const after = results.after;
  if (after) ctx.check('login_flood_credits_p95_ms', after.credits_ms.p95, P95_TARGET_MS, 'max');
  return { settings, ...results };
}

async function measure(service: ServiceProcess, senders: number, seconds: number, tenants: number): Promise<Phase> {
  const until = Date.now() + seconds * 1000;
  const answers: Record<string, number> = {};
  const latencies: number[] = [];
  const credits: Record<string, number> = {};
  const url = new URL(service.baseUrl);

  const flood = Array.from({ length: senders }, async (_, i) => {
    // Each sender from an address of its own: the whole 127.0.0.0/8 is loopback on Linux.
    const agent = new Agent({
      keepAlive: true,
      maxSockets: 1,
      localAddress: `127.0.${Math.floor((i + 2) / 250)}.${((i + 2) % 250) + 1}`,
    });
    while (Date.now() < until) {
      const email =
        Math.random() < 0.1
          ? `tenant-${1 + Math.floor(Math.random() * tenants)}@flood.example`
          : `${randomBytes(6).toString('hex')}@nowhere.example`;
      const status = await send(
        agent,
        url,
        'POST',
        '/dashboard/login',
        { 'content-type': 'application/json' },
        JSON.stringify({ email }),
      );
      answers[status] = (answers[status] ?? 0) + 1;
    }
    agent.destroy();
  });
  const probes = Array.from({ length: 2 }, async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    while (Date.now() < until) {
      const started = performance.now();
      const status = await send(agent, url, 'GET', '/v1/credits', { authorization: `Bearer ${service.apiKey}` });
      latencies.push(performance.now() - started);
      credits[status] = (credits[status] ?? 0) + 1;
    }
    agent.destroy();
  });
  await Promise.all([...flood, ...probes]);
  const total = Object.values(answers).reduce((a, b) => a + b, 0);
  return {
    credits_ms: percentiles(latencies),
    credits_answers: credits,
    login_answers: answers,
    login_per_s: round2(total / seconds),
  };
}

/** One request; its status as text, or the error's code when it failed. */
function send(
  agent: Agent,
  url: URL,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<string> {
  return new Promise((resolve) => {
    const req = request(
      { agent, host: url.hostname, port: url.port, method, path, headers, timeout: 30_000 },
      (res) => {
        res.resume();
        res.on('end', () => resolve(String(res.statusCode)));
        res.on('error', () => resolve('error'));
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'error'));
    req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'timeout' })));
    req.end(body);
  });
}
