import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { Percentiles, percentiles } from './percentiles';

/**
 * The benchmarks' webhook receiver, run as a process of its own (receiver-process.ts forks it), so
 * that receiving does not share the event loop or the heap of the process it measures; or, for the
 * lifecycle benchmark's customer-style rig, inside the benchmark process (receiver-inline.ts).
 *
 * Answers 204 to every POST. A request carrying a webhook id (the `webhook-id` header, or
 * `x-webhook-id`; the service sends both with the event id) is a delivery: it is counted once per
 * id (again: a duplicate), by the envelope's `type`, and its latency is taken from the envelope's
 * `created_at` to the moment its body had arrived here. Requests without an id (the raw undici
 * loop) are only counted.
 *
 * The parent asks over IPC: `{ id, op: 'reset' }` starts a new window, `{ id, op: 'count' }`
 * answers the window's counts, `{ id, op: 'snapshot' }` the counts and the latency percentiles.
 * The answer is `{ id, stats }`. Duplicates are detected across windows.
 */

export interface ReceiverStats {
  /** Every POST of the window: deliveries, duplicates and requests without a webhook id. */
  readonly requests: number;
  /** POSTs whose webhook id had not been received before. */
  readonly deliveries: number;
  /** POSTs whose webhook id had already been received (in this window or an earlier one). */
  readonly duplicates: number;
  /** Deliveries by the envelope's `type`. */
  readonly by_type: Record<string, number>;
  /** Epoch milliseconds: the window's start, its first and its last delivery. */
  readonly window_started_at: number;
  readonly first_delivery_at: number | null;
  readonly last_delivery_at: number | null;
  /** Deliveries whose body was not an envelope with a readable `created_at`. */
  readonly unreadable: number;
  /** `snapshot` only: envelope `created_at` to receipt, over the window's deliveries. */
  readonly latency_ms: Percentiles | null;
}

export type ReceiverRequest = { readonly id: number; readonly op: 'reset' | 'count' | 'snapshot' };
export type ReceiverMessage = { readonly ready: true; readonly port: number } | { id: number; stats: ReceiverStats };

interface Window {
  requests: number;
  deliveries: number;
  duplicates: number;
  unreadable: number;
  byType: Record<string, number>;
  latencies: number[];
  startedAt: number;
  firstAt: number | null;
  lastAt: number | null;
}

/**
 * The receiver's counters and its request handler, without a server or a process around them: the
 * forked receiver (main below) serves them over IPC, and the lifecycle benchmark's customer-style rig
 * (receiver-inline.ts, BENCH_RECEIVER=inline) serves them from the benchmark process itself.
 */
export interface ReceiverState {
  handle(req: IncomingMessage, res: ServerResponse): void;
  /** `reset` starts a new window; every op answers the window's counts, `snapshot` with latencies. */
  answer(op: ReceiverRequest['op']): ReceiverStats;
}

export function createReceiverState(): ReceiverState {
  const seen = new Set<string>();
  let window = newWindow();

  const record = (id: string | null, body: Buffer, receivedAt: number): void => {
    window.requests++;
    if (id === null) return;
    if (seen.has(id)) {
      window.duplicates++;
      return;
    }
    seen.add(id);
    window.deliveries++;
    window.firstAt ??= receivedAt;
    window.lastAt = receivedAt;
    try {
      const envelope = JSON.parse(body.toString('utf8')) as { type?: unknown; created_at?: unknown };
      const type = typeof envelope.type === 'string' ? envelope.type : 'unknown';
      window.byType[type] = (window.byType[type] ?? 0) + 1;
      const createdAt = typeof envelope.created_at === 'string' ? Date.parse(envelope.created_at) : NaN;
      if (Number.isFinite(createdAt)) window.latencies.push(receivedAt - createdAt);
      else window.unreadable++;
    } catch {
      window.unreadable++;
    }
  };

  const stats = (withLatency: boolean): ReceiverStats => ({
    requests: window.requests,
    deliveries: window.deliveries,
    duplicates: window.duplicates,
    by_type: { ...window.byType },
    window_started_at: window.startedAt,
    first_delivery_at: window.firstAt,
    last_delivery_at: window.lastAt,
    unreadable: window.unreadable,
    latency_ms: withLatency ? percentiles(window.latencies) : null,
  });

  return {
    handle(req, res) {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const receivedAt = Date.now();
        res.writeHead(204).end();
        if (req.method === 'POST') record(webhookId(req), Buffer.concat(chunks), receivedAt);
      });
    },
    answer(op) {
      if (op === 'reset') window = newWindow();
      return stats(op === 'snapshot');
    },
  };
}

function newWindow(): Window {
  return {
    requests: 0,
    deliveries: 0,
    duplicates: 0,
    unreadable: 0,
    byType: {},
    latencies: [],
    startedAt: Date.now(),
    firstAt: null,
    lastAt: null,
  };
}

function webhookId(req: IncomingMessage): string | null {
  const id = req.headers['webhook-id'] ?? req.headers['x-webhook-id'];
  return typeof id === 'string' && id !== '' ? id : null;
}

function main(): void {
  if (!process.send) {
    process.stderr.write('receiver.js is started by receiver-process.ts (child_process.fork), with IPC\n');
    process.exit(1);
  }
  const state = createReceiverState();
  const server = createServer((req, res) => state.handle(req, res));
  server.keepAliveTimeout = 60_000;
  process.on('message', (request: ReceiverRequest) => {
    const message: ReceiverMessage = { id: request.id, stats: state.answer(request.op) };
    process.send?.(message);
  });
  // The parent is gone (or closed the channel): nothing is left to report to.
  process.on('disconnect', () => process.exit(0));
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const ready: ReceiverMessage = { ready: true, port };
    process.send?.(ready);
  });
}

// Forked by receiver-process.ts; imported (for createReceiverState) by receiver-inline.ts.
if (require.main === module) main();
