import { ChildProcess, fork } from 'node:child_process';
import { resolve } from 'node:path';
import { sleep, stopChild } from './child-process';
import type { ReceiverMessage, ReceiverRequest, ReceiverStats } from './receiver';

/**
 * A webhook receiver as a benchmark sees it: its URL and its counters. The receiver process
 * (receiver.ts, forked here) and the inline one (receiver-inline.ts) both answer it.
 */
export interface WebhookReceiver {
  readonly url: string;
  /** The process it receives in: its own, or the benchmark's (inline). */
  readonly pid: number;
  /** Starts a new window: counts and latencies from now on. */
  reset(): Promise<ReceiverStats>;
  /** The window's counts (no latencies: cheap enough to poll). */
  count(): Promise<ReceiverStats>;
  /** The window's counts and latency percentiles. */
  snapshot(): Promise<ReceiverStats>;
  /** Polls the counts every 100 ms until `done` holds or `timeoutMs` passes; never throws on timeout. */
  waitUntil(
    done: (stats: ReceiverStats) => boolean,
    timeoutMs: number,
  ): Promise<{ met: boolean; stats: ReceiverStats }>;
  close(): Promise<void>;
}

/** The parent's handle on the receiver process (receiver.ts): its URL and its counters over IPC. */
export type ReceiverProcess = WebhookReceiver;

const START_TIMEOUT_MS = 10_000;
const ANSWER_TIMEOUT_MS = 10_000;

export async function startReceiverProcess(): Promise<ReceiverProcess> {
  const child = fork(resolve(__dirname, 'receiver.js'), [], {
    execArgv: [],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const port = await readyPort(child);
  const ask = asker(child);
  const waitUntil: ReceiverProcess['waitUntil'] = (done, timeoutMs) => pollUntil(() => ask('count'), done, timeoutMs);
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid ?? 0,
    reset: () => ask('reset'),
    count: () => ask('count'),
    snapshot: () => ask('snapshot'),
    waitUntil,
    close: async () => void (await stopChild(child)),
  };
}

/** Reads the counts every 100 ms until `done` holds or `timeoutMs` passes; never throws on timeout. */
export async function pollUntil(
  count: () => Promise<ReceiverStats>,
  done: (stats: ReceiverStats) => boolean,
  timeoutMs: number,
): Promise<{ met: boolean; stats: ReceiverStats }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const stats = await count();
    if (done(stats)) return { met: true, stats };
    if (Date.now() >= deadline) return { met: false, stats };
    await sleep(100);
  }
}

function readyPort(child: ChildProcess): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the receiver process did not start within ${START_TIMEOUT_MS} ms`));
    }, START_TIMEOUT_MS);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the receiver process exited with ${code} before it was ready`));
    });
    child.on('message', (message: ReceiverMessage) => {
      if (!('ready' in message)) return;
      clearTimeout(timer);
      resolvePort(message.port);
    });
  });
}

/** Request/answer over IPC, matched by id; each answer is bounded by ANSWER_TIMEOUT_MS. */
function asker(child: ChildProcess): (op: ReceiverRequest['op']) => Promise<ReceiverStats> {
  let next = 1;
  const pending = new Map<number, (stats: ReceiverStats) => void>();
  child.on('message', (message: ReceiverMessage) => {
    if ('ready' in message) return;
    pending.get(message.id)?.(message.stats);
    pending.delete(message.id);
  });
  return (op) =>
    new Promise((resolveStats, reject) => {
      const id = next++;
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new Error(`the receiver process did not answer "${op}" within ${ANSWER_TIMEOUT_MS} ms`));
      }, ANSWER_TIMEOUT_MS);
      pending.set(id, (stats) => {
        clearTimeout(timer);
        resolveStats(stats);
      });
      const request: ReceiverRequest = { id, op };
      child.send(request);
    });
}
