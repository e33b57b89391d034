import { createServer, IncomingMessage, Server } from 'node:http';
import { Agent, request } from 'undici';
import { EVENT_STORE, EventStore, NewEvent } from '../event-store/event-store.port';
import { newEventId } from '../kernel/ids';
import { startBenchService } from './service';
import { BenchContext, formatRate, nowMs, numberFromEnv, perSecond, round2 } from './support';

/**
 * Webhook delivery, end to end through the real service: events appended to the store, fanned out
 * by the outbox, signed and POSTed by the delivery worker to a loopback receiver.
 *
 *   baseline_undici   a plain undici POST loop (64 in flight) to the same receiver: the ceiling
 *   sustained         N events appended at once; deliveries per second until the last one arrives
 *   latency           events appended one by one at 200/s; append-to-receipt percentiles
 *   peak_rss_mb       the largest resident set of this process (service + receiver + load) meanwhile
 */
export async function webhooksBench(ctx: BenchContext): Promise<object> {
  const receiver = await startReceiver();
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
    ctx.log(`undici baseline      ${formatRate(baseline)}/s requests`);

    const total = numberFromEnv('BENCH_WEBHOOK_EVENTS', 20_000);
    receiver.reset();
    const started = nowMs();
    for (let i = 0; i < total; i += 100) {
      await store.append(`bench-${i}`, Array.from({ length: Math.min(100, total - i) }, event), 'no_stream');
    }
    await receiver.waitFor(total, 600_000);
    const sustained = perSecond(total, nowMs() - started);
    ctx.log(`sustained deliveries ${formatRate(sustained)}/s (${total} events, ratio ${round2(sustained / baseline)})`);

    receiver.reset();
    const rate = 200;
    const count = rate * Math.max(5, ctx.seconds * 2);
    const appendedAt = new Map<string, number>();
    const t0 = nowMs();
    for (let i = 0; i < count; i++) {
      const due = t0 + (i * 1000) / rate;
      const wait = due - nowMs();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const e = event();
      appendedAt.set(e.id, nowMs());
      await store.append(`latency-${i}`, [e], 'no_stream');
    }
    await receiver.waitFor(count, 120_000);
    const latencies = [...receiver.receivedAt.entries()]
      .map(([id, at]) => at - (appendedAt.get(id) ?? at))
      .sort((a, b) => a - b);
    const pct = (q: number): number =>
      round2(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0);
    const latency = {
      rate_per_s: rate,
      events: count,
      p50_ms: pct(0.5),
      p95_ms: pct(0.95),
      p99_ms: pct(0.99),
      max_ms: pct(1),
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
      duplicates: receiver.duplicates,
      note: 'RSS is of the benchmark process, which hosts the service, the receiver and the load generator.',
    };
  } finally {
    await service.close();
    rssPeak.stop();
    await receiver.close();
  }
}

interface Receiver {
  url: string;
  receivedAt: Map<string, number>;
  duplicates: number;
  reset(): void;
  waitFor(count: number, timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

function startReceiver(): Promise<Receiver> {
  const state = { receivedAt: new Map<string, number>(), duplicates: 0, waiters: [] as (() => void)[] };
  const server: Server = createServer((req: IncomingMessage, res) => {
    req.resume();
    req.on('end', () => {
      const id = req.headers['x-webhook-id'];
      if (typeof id === 'string') {
        if (state.receivedAt.has(id)) state.duplicates++;
        else state.receivedAt.set(id, nowMs());
        for (const w of state.waiters.splice(0)) w();
      }
      res.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 60_000;
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      const receiver: Receiver = {
        url: `http://127.0.0.1:${port}`,
        get receivedAt() {
          return state.receivedAt;
        },
        get duplicates() {
          return state.duplicates;
        },
        reset: () => {
          state.receivedAt = new Map();
          state.duplicates = 0;
        },
        waitFor: async (count, timeoutMs) => {
          const deadline = nowMs() + timeoutMs;
          while (state.receivedAt.size < count) {
            if (nowMs() > deadline) throw new Error(`received ${state.receivedAt.size} of ${count} deliveries`);
            await new Promise<void>((r) => {
              state.waiters.push(r);
              setTimeout(r, 200);
            });
          }
        },
        close: () => new Promise<void>((r) => server.close(() => r())),
      };
      resolve(receiver);
    });
  });
}

async function undiciBaseline(url: string, durationMs: number): Promise<number> {
  const agent = new Agent({ connections: 64, keepAliveTimeout: 10_000 });
  const body = JSON.stringify({ id: newEventId(), type: 'credits.low_balance', data: { balance_cents: 420 } }).padEnd(
    380,
    ' ',
  );
  const end = nowMs() + durationMs;
  let count = 0;
  await Promise.all(
    Array.from({ length: 64 }, async () => {
      while (nowMs() < end) {
        const response = await request(url, {
          method: 'POST',
          body,
          headers: { 'content-type': 'application/json' },
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
