import { Agent, request } from 'undici';
import { EVENT_STORE, EventStore, NewEvent } from '../src/event-store/event-store.port';
import { newEventId } from '../src/kernel/ids';
import { startReceiverProcess } from './receiver-process';
import { startBenchService } from './service';
import { BenchContext, formatRate, nowMs, numberFromEnv, perSecond, round2 } from './support';

/**
 * Webhook delivery, end to end through the real service: events appended to the store, fanned out
 * by the outbox, signed and POSTed by the delivery worker to the receiver, which runs in a process
 * of its own (receiver.ts). The service runs in this process, so that events can be appended to
 * its store directly.
 *
 *   baseline_undici   a plain undici POST loop (64 in flight) to the same receiver: the ceiling
 *   sustained         N events appended at once; deliveries per second until the last one arrives
 *   latency           events appended one by one at 200/s; envelope created_at (set just before the
 *                     append) to receipt, percentiles
 *   peak_rss_mb       the largest resident set of this process (service + load) meanwhile
 */
export async function webhooksBench(ctx: BenchContext): Promise<object> {
  const receiver = await startReceiverProcess();
  const rssPeak = sampleRss();
  const service = await startBenchService(ctx.databaseUrl);
  try {
    const endpoint = await fetch(`${service.baseUrl}/v1/webhook_endpoints`, {
      method: 'POST',
      headers: { authorization: `Bearer ${service.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${receiver.url}/hook`, events: ['credits.*'] }),
    });
    if (endpoint.status !== 201) throw new Error(`endpoint creation answered ${endpoint.status}`);
    const store = service.app.get<EventStore>(EVENT_STORE);
    const event = (): NewEvent => ({
      id: newEventId(),
      type: 'credits.low_balance',
      data: { balance_cents: 420, threshold_cents: 500, currency: 'USD' },
      metadata: { tenant_id: service.tenantId, created_at: new Date().toISOString() },
    });

    const baseline = await undiciBaseline(`${receiver.url}/baseline`, ctx.seconds * 1000);
    ctx.log(`undici baseline      ${formatRate(baseline)} requests`);

    const total = numberFromEnv('BENCH_WEBHOOK_EVENTS', 20_000);
    await receiver.reset();
    const started = Date.now();
    for (let i = 0; i < total; i += 100) {
      await store.append(`bench-${i}`, Array.from({ length: Math.min(100, total - i) }, event), 'no_stream');
    }
    const all = await receiver.waitUntil((s) => s.deliveries >= total, 600_000);
    if (!all.met) throw new Error(`received ${all.stats.deliveries} of ${total} deliveries in 600 s`);
    const sustained = perSecond(total, (all.stats.last_delivery_at ?? Date.now()) - started);
    ctx.log(`sustained deliveries ${formatRate(sustained)} (${total} events, ratio ${round2(sustained / baseline)})`);
    const sustainedDuplicates = (await receiver.count()).duplicates;

    await receiver.reset();
    const rate = 200;
    const count = rate * Math.max(5, ctx.seconds * 2);
    const t0 = nowMs();
    for (let i = 0; i < count; i++) {
      const due = t0 + (i * 1000) / rate;
      const wait = due - nowMs();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      await store.append(`latency-${i}`, [event()], 'no_stream');
    }
    const arrived = await receiver.waitUntil((s) => s.deliveries >= count, 120_000);
    if (!arrived.met) throw new Error(`received ${arrived.stats.deliveries} of ${count} deliveries in 120 s`);
    const measured = await receiver.snapshot();
    const percentiles = measured.latency_ms ?? { p50: 0, p95: 0, p99: 0, max: 0 };
    const latency = {
      rate_per_s: rate,
      events: count,
      p50_ms: percentiles.p50,
      p95_ms: percentiles.p95,
      p99_ms: percentiles.p99,
      max_ms: percentiles.max,
    };
    ctx.log(`latency at ${rate}/s   p50 ${latency.p50_ms} ms  p99 ${latency.p99_ms} ms`);

    const peakRssMb = Math.round(rssPeak.stop() / 1024 / 1024);
    ctx.log(`peak RSS             ${peakRssMb} MB`);
    ctx.check('webhook_ratio_to_undici', round2(sustained / baseline), 0.5);
    ctx.check('webhook_deliveries_per_s', sustained, 1000);
    ctx.check('webhook_latency_p50_ms', latency.p50_ms, 50, 'max');
    ctx.check('webhook_latency_p99_ms', latency.p99_ms, 250, 'max');
    ctx.check('webhook_peak_rss_mb', peakRssMb, 300, 'max');
    return {
      baseline_undici_per_s: baseline,
      sustained: { events: total, deliveries_per_s: sustained, ratio_to_undici: round2(sustained / baseline) },
      latency,
      peak_rss_mb: peakRssMb,
      duplicates: sustainedDuplicates + measured.duplicates,
      note:
        'The receiver runs in a process of its own; RSS is of the benchmark process, which hosts the service and ' +
        'the load generator. Latency has millisecond resolution (envelope created_at to Date.now() at receipt).',
    };
  } finally {
    await service.close();
    rssPeak.stop();
    await receiver.close();
  }
}

async function undiciBaseline(url: string, durationMs: number): Promise<number> {
  const agent = new Agent({ connections: 64, keepAliveTimeout: 10_000 });
  const end = nowMs() + durationMs;
  let count = 0;
  await Promise.all(
    Array.from({ length: 64 }, async () => {
      while (nowMs() < end) {
        // The receiver does for each of these what it does for a delivery: a new id, an envelope to read.
        const id = newEventId();
        const body = JSON.stringify({
          id,
          type: 'credits.low_balance',
          created_at: new Date().toISOString(),
          data: { balance_cents: 420 },
        }).padEnd(380, ' ');
        const response = await request(url, {
          method: 'POST',
          body,
          headers: { 'content-type': 'application/json', 'webhook-id': id },
          dispatcher: agent,
        });
        await response.body.dump();
        count++;
      }
    }),
  );
  await agent.close();
  return perSecond(count, durationMs);
}

function sampleRss(): { stop(): number } {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 100);
  timer.unref();
  return {
    stop: () => {
      clearInterval(timer);
      return Math.max(peak, process.memoryUsage().rss);
    },
  };
}
