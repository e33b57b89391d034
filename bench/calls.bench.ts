import autocannon from 'autocannon';
import Fastify from 'fastify';
import { randomUUID } from 'node:crypto';
import { startBenchService } from './service';
import { BenchContext, formatRate, round2 } from './support';

/**
 * POST /v1/calls (test mode) through the whole service, against the floor: a minimal Fastify route
 * that does one INSERT into the same PostgreSQL. Both are driven by autocannon, 16 connections,
 * in the same run. Besides requests per second, the CPU time of this process per request answered
 * (service, load generator and the calls' background work; not PostgreSQL's): on a machine shared
 * with other work, the rate follows the load of the moment and the CPU per request much less.
 */
export async function callsBench(ctx: BenchContext): Promise<object> {
  const connections = 16;
  const pool = ctx.pool(connections);
  await pool.query(
    'CREATE TABLE IF NOT EXISTS bench_calls (id uuid PRIMARY KEY, body jsonb NOT NULL, created_at timestamptz NOT NULL DEFAULT now())',
  );
  const minimal = Fastify();
  minimal.post('/calls', async (request, reply) => {
    await pool.query('INSERT INTO bench_calls (id, body) VALUES ($1, $2)', [
      randomUUID(),
      JSON.stringify(request.body),
    ]);
    return reply.code(201).send({ status: 'queued' });
  });
  await minimal.listen({ port: 0, host: '127.0.0.1' });
  const minimalAddress = minimal.server.address();
  const minimalPort = typeof minimalAddress === 'object' && minimalAddress ? minimalAddress.port : 0;

  const service = await startBenchService(ctx.databaseUrl);
  const body = JSON.stringify({
    to: '+14155550100',
    from: '+14155550000',
    agent_config: { prompt: 'You are a benchmark.' },
    test_mode: true,
  });
  try {
    const run = async (url: string, headers: Record<string, string>) => {
      await autocannon({ url, method: 'POST', body, headers, connections, duration: ctx.warmupSeconds || 1 });
      const cpuBefore = process.cpuUsage();
      const result = await autocannon({ url, method: 'POST', body, headers, connections, duration: ctx.seconds });
      const cpu = process.cpuUsage(cpuBefore);
      return {
        requests_per_s: Math.round(result.requests.average),
        cpu_ms_per_request: round2((cpu.user + cpu.system) / 1000 / Math.max(1, result.requests.total)),
        latency_ms: { p50: result.latency.p50, p99: result.latency.p99 },
        non_2xx: result.non2xx,
        errors: result.errors,
      };
    };
    const floor = await run(`http://127.0.0.1:${minimalPort}/calls`, { 'content-type': 'application/json' });
    ctx.log(`minimal INSERT route ${formatRate(floor.requests_per_s)}, ${floor.cpu_ms_per_request} ms CPU per request`);
    const calls = await run(`${service.baseUrl}/v1/calls`, {
      'content-type': 'application/json',
      authorization: `Bearer ${service.apiKey}`,
    });
    ctx.log(
      `POST /v1/calls       ${formatRate(calls.requests_per_s)}, ${calls.cpu_ms_per_request} ms CPU per request (non-2xx ${calls.non_2xx})`,
    );
    const ratio = round2(calls.requests_per_s / Math.max(1, floor.requests_per_s));
    const cpuRatio = round2(floor.cpu_ms_per_request / Math.max(0.001, calls.cpu_ms_per_request));
    ctx.log(`ratio ${ratio}; CPU per request, minimal ÷ calls: ${cpuRatio}`);
    ctx.check('calls_ratio_to_minimal_insert', ratio, 0.5);
    return { connections, minimal_insert: floor, post_calls: calls, ratio, cpu_ratio: cpuRatio };
  } finally {
    await service.close();
    await minimal.close();
  }
}
