import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { PROJECT_ROOT } from '../../infra/project-root';
import type { SampleFormat } from '../domain/audio-format';
import type { AudioMeasurement } from './audio-decoder';

/** What a decoding worker is asked (audio-decode.worker.ts). */
export type DecodeJob =
  | { op: 'probe'; path: string; format: SampleFormat }
  | { op: 'measure'; path: string; format: SampleFormat; maxMs: number };

/** What it answers: the result of probeAudio or measureAudio, or the error they threw. */
export type DecodeReply = { ok: true; result: unknown } | { ok: false; message: string };

/** The decode ran past its time bound; its worker was terminated. */
export class DecodeTimeout extends Error {
  constructor(readonly timeoutMs: number) {
    super(`decoding took longer than ${timeoutMs} ms`);
  }
}
/** Every place in the queue is taken (or this key's share of it): try again later. */
export class DecodeQueueFull extends Error {}
/** The worker died during the job (a crash, out of memory) or could not start. */
export class DecodeWorkerFailed extends Error {}

export interface DecodePoolOptions {
  /** Worker threads at most (started on demand, ended after IDLE_MS unused). */
  readonly workers: number;
  /** Time bound of one `measure`, from the moment a worker is given it. */
  readonly measureTimeoutMs: number;
  /** The compiled worker script; by default audio-decode.worker.js beside this module. */
  readonly script?: string;
}

/** Upload probes: their own lane, served first, with a fixed bound (a probe reads at most 4 MB). */
export const PROBE_TIMEOUT_MS = 10_000;
const PROBE_QUEUE = 32;
/**
 * Training decodes waiting for a worker, at most, and at most MEASURE_QUEUE_PER_KEY of one key (a
 * tenant). Each waiting one holds a timer handler slot, so the bound keeps most of the timers' slots
 * for everything else (simulated calls, retries).
 */
const MEASURE_QUEUE = 8;
const MEASURE_QUEUE_PER_KEY = 2;
/** A worker unused this long ends: a WebAssembly decoder's memory only ever grows. */
const IDLE_MS = 30_000;
/** JavaScript heap of a worker (decoded chunks are typed arrays outside it, a few MB each). */
const WORKER_HEAP_MB = 256;

interface Pending {
  readonly job: DecodeJob;
  readonly timeoutMs: number;
  readonly key: string | null;
  readonly resolve: (result: unknown) => void;
  readonly reject: (err: Error) => void;
}

interface Slot {
  readonly worker: Worker;
  running: { pending: Pending; timer: NodeJS.Timeout } | null;
  idleTimer: NodeJS.Timeout | null;
  ending: boolean;
}

/**
 * A small bounded pool of decoding worker threads, so that decoding never runs on the event loop: a
 * sample of any length costs the main thread a message each way. Two bounded queues: upload probes
 * first, then training decodes (at most a few per tenant). A job past its time bound gets its worker
 * terminated (`DecodeTimeout`); a full queue refuses at once (`DecodeQueueFull`).
 */
export class DecodePool {
  private readonly slots = new Set<Slot>();
  private readonly probes: Pending[] = [];
  private readonly measures: Pending[] = [];
  private readonly script: string;
  private closed = false;
  /** When each key last had a decode taken from the queue (keys with none waiting are pruned now and then). */
  private readonly turns = new Map<string | null, number>();
  private turn = 0;

  constructor(private readonly options: DecodePoolOptions) {
    this.script = options.script ?? defaultScript();
  }

  /** probeAudio in a worker: null when the file starts as decodable audio, else why not. */
  probe(path: string, format: SampleFormat): Promise<string | null> {
    if (this.probes.length >= PROBE_QUEUE) return Promise.reject(new DecodeQueueFull('the probe queue is full'));
    return this.submit(this.probes, { op: 'probe', path, format }, PROBE_TIMEOUT_MS, null) as Promise<string | null>;
  }

  /** measureAudio in a worker, decoding at most `maxMs` of audio; `key` shares the queue out (a tenant). */
  measure(path: string, format: SampleFormat, maxMs: number, key: string): Promise<AudioMeasurement> {
    if (this.measures.length >= MEASURE_QUEUE) return Promise.reject(new DecodeQueueFull('the decoding queue is full'));
    if (this.measures.filter((p) => p.key === key).length >= MEASURE_QUEUE_PER_KEY)
      return Promise.reject(new DecodeQueueFull(`${key} has ${MEASURE_QUEUE_PER_KEY} decodes waiting already`));
    const job: DecodeJob = { op: 'measure', path, format, maxMs };
    return this.submit(this.measures, job, this.options.measureTimeoutMs, key) as Promise<AudioMeasurement>;
  }

  /** Workers running now and jobs waiting (for metrics and tests). */
  stats(): { workers: number; busy: number; queued: number } {
    const busy = [...this.slots].filter((s) => s.running).length;
    return { workers: this.slots.size, busy, queued: this.probes.length + this.measures.length };
  }

  /** Refuses new jobs, fails the waiting ones and terminates every worker. */
  async close(): Promise<void> {
    this.closed = true;
    for (const p of [...this.probes.splice(0), ...this.measures.splice(0)])
      p.reject(new DecodeWorkerFailed('the decoding pool is closed'));
    await Promise.all([...this.slots].map((s) => this.end(s)));
  }

  private submit(queue: Pending[], job: DecodeJob, timeoutMs: number, key: string | null): Promise<unknown> {
    if (this.closed) return Promise.reject(new DecodeWorkerFailed('the decoding pool is closed'));
    return new Promise((resolve, reject) => {
      queue.push({ job, timeoutMs, key, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.probes.length + this.measures.length > 0) {
      const slot = this.idleSlot() ?? (this.slots.size < this.options.workers ? this.spawn() : null);
      if (!slot) return;
      const next = this.probes.shift() ?? this.nextMeasure();
      if (!next) return;
      this.dispatch(slot, next);
    }
  }

  /** The oldest waiting decode of the key whose turn came least recently (tenants take turns). */
  private nextMeasure(): Pending | undefined {
    let at = 0;
    let best = Infinity;
    this.measures.forEach((p, i) => {
      const turn = this.turns.get(p.key) ?? -1;
      if (turn < best) [at, best] = [i, turn];
    });
    const next = this.measures.splice(at, 1)[0];
    if (next) this.turns.set(next.key, ++this.turn);
    if (this.turns.size > 256)
      for (const key of this.turns.keys()) if (!this.measures.some((p) => p.key === key)) this.turns.delete(key);
    return next;
  }

  private idleSlot(): Slot | null {
    for (const slot of this.slots) if (!slot.running && !slot.ending) return slot;
    return null;
  }

  private spawn(): Slot {
    const worker = new Worker(this.script, { resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });
    worker.unref();
    const slot: Slot = { worker, running: null, idleTimer: null, ending: false };
    this.slots.add(slot);
    worker.on('message', (reply: DecodeReply) =>
      this.settle(slot, reply.ok ? null : new Error(reply.message), reply.ok ? reply.result : undefined),
    );
    worker.on('error', (err) => {
      slot.ending = true; // 'exit' follows
      this.settle(slot, new DecodeWorkerFailed(`the decoding worker failed: ${err.message}`));
    });
    worker.on('exit', (code) => {
      this.settle(slot, new DecodeWorkerFailed(`the decoding worker exited (code ${code})`));
      this.slots.delete(slot);
      if (slot.idleTimer) clearTimeout(slot.idleTimer);
      this.pump();
    });
    return slot;
  }

  private dispatch(slot: Slot, pending: Pending): void {
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.idleTimer = null;
    const timer = setTimeout(() => {
      void this.end(slot);
      this.settle(slot, new DecodeTimeout(pending.timeoutMs));
    }, pending.timeoutMs);
    slot.running = { pending, timer };
    slot.worker.postMessage(pending.job);
  }

  /** Ends the slot's job, if it has one, with `error` or `result`; the slot then takes the next job. */
  private settle(slot: Slot, error: Error | null, result?: unknown): void {
    const running = slot.running;
    if (!running) return;
    clearTimeout(running.timer);
    slot.running = null;
    if (error) running.pending.reject(error);
    else running.pending.resolve(result);
    if (slot.ending) return;
    slot.idleTimer = setTimeout(() => void this.end(slot), IDLE_MS);
    slot.idleTimer.unref();
    this.pump();
  }

  /** Terminates the slot's worker; its 'exit' removes it and starts another for any job waiting. */
  private async end(slot: Slot): Promise<void> {
    slot.ending = true;
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    await slot.worker.terminate();
  }
}

/**
 * audio-decode.worker.js beside this module. Under the test runner this module is TypeScript source,
 * which a worker thread cannot load: its compiled copy in dist/ is used (tests run after a build).
 */
function defaultScript(): string {
  const beside = join(__dirname, 'audio-decode.worker.js');
  return existsSync(beside) ? beside : join(PROJECT_ROOT, 'dist', 'voices', 'infra', 'audio-decode.worker.js');
}

export const DECODE_POOL = Symbol('DECODE_POOL');
