import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { createReceiverState } from './receiver';
import { pollUntil, WebhookReceiver } from './receiver-process';

/**
 * The webhook receiver served from the benchmark process itself (BENCH_RECEIVER=inline): the
 * customer-style test rig of the lifecycle benchmark, where one Node process both places the calls
 * and receives their webhooks, so that the two share an event loop and a heap as they would in a
 * customer's test harness. Same counters and latencies as the receiver process (receiver.ts);
 * a busy loop here delays both the requests fired and the webhooks' receipt, which is why the
 * lifecycle benchmark reports this process's event-loop delay per step.
 */
export async function startInlineReceiver(): Promise<WebhookReceiver> {
  const state = createReceiverState();
  const server = createServer((req, res) => state.handle(req, res));
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolveListen());
  });
  const { port } = server.address() as AddressInfo;
  const count = (): Promise<ReturnType<typeof state.answer>> => Promise.resolve(state.answer('count'));
  return {
    url: `http://127.0.0.1:${port}`,
    pid: process.pid,
    reset: () => Promise.resolve(state.answer('reset')),
    count,
    snapshot: () => Promise.resolve(state.answer('snapshot')),
    waitUntil: (done, timeoutMs) => pollUntil(count, done, timeoutMs),
    close: () =>
      new Promise<void>((resolveClose) => {
        server.closeAllConnections();
        server.close(() => resolveClose());
      }),
  };
}
